extension Signal {
    /// A signal of the values of all `signals`, in the order they are sent.
    ///
    /// It fails as soon as one of them fails (E2), and completes once all of them have completed.
    /// A signal that is interrupted, or had already terminated, simply stops contributing. With
    /// no signal, the result has already completed, so an observer receives `interrupted` (S3).
    ///
    /// - Parameter signals: The signals to merge, read once by this call; they are observed
    ///   from now on, so values they sent earlier are not included.
    /// - Returns: A signal of their values; it fails as soon as one of them fails, and completes
    ///   once each of them has completed or been interrupted.
    public static func merge<Seq: Sequence>(_ signals: Seq) -> Signal<Value, Error>
    where Seq.Element == Signal<Value, Error> {
        let signals = Array(signals)
        return Signal { output, lifetime in
            let sink = FlattenRun<Signal, Value, Error>.make(
                .merge, downstream: output.sink, lifetime: lifetime, makeInner: { $0.producer }
            ).outerSink
            for signal in signals { sink(.value(signal)) }
            sink(.completed)
        }
    }

    /// A signal of the values of all `signals`; see `merge(_:)`.
    ///
    /// - Parameter signals: The signals to merge; they are observed from now on.
    /// - Returns: A signal of their values; it fails as soon as one of them fails, and completes
    ///   once each of them has completed or been interrupted.
    public static func merge(_ signals: Signal<Value, Error>...) -> Signal<Value, Error> {
        merge(signals)
    }

    /// A signal of the values of this signal and of `other`; see `merge(_:)`.
    ///
    /// - Parameter other: The signal whose values are merged with this signal's.
    /// - Returns: A signal of the values of both; it fails as soon as either fails, and
    ///   completes once each has completed or been interrupted.
    public func merge(with other: Signal<Value, Error>) -> Signal<Value, Error> {
        Signal.merge([self, other])
    }
}

extension SignalProducer {
    /// A producer that starts all `producers` at once, in order, and forwards all their values.
    ///
    /// It fails as soon as one of them fails (E2), and completes once all of them have completed.
    /// Disposing of it disposes of every one of them (P4). With no producer, a start completes
    /// at once.
    ///
    /// - Parameter producers: The producers to start, in this order, at each start of the result.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<Seq: Sequence>(_ producers: Seq) -> SignalProducer<Value, Error>
    where Seq.Element == SignalProducer<Value, Error> {
        SignalProducer<SignalProducer<Value, Error>, Never>(producers).flatten(.merge)
    }

    /// A producer that starts all `producers` at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameter producers: The producers to start, in this order, at each start of the result.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge(_ producers: SignalProducer<Value, Error>...) -> SignalProducer<Value, Error> {
        merge(producers)
    }

    /// A producer that starts this producer and `other` and forwards the values of both.
    ///
    /// - Parameter other: The producer started right after this one, at each start.
    /// - Returns: A producer of the values of both; it fails as soon as either fails, and
    ///   completes once each has completed or been interrupted.
    public func merge(with other: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        SignalProducer.merge([self, other])
    }

    /// A producer that starts this producer and `other` (a signal, producer, property, …) and
    /// forwards the values of both.
    ///
    /// - Parameter other: The signal, producer or property whose producer is started right after
    ///   this one, at each start.
    /// - Returns: A producer of the values of both; it fails as soon as either fails, and
    ///   completes once each has completed or been interrupted.
    public func merge<Other: SignalProducerConvertible>(
        with other: Other
    ) -> SignalProducer<Value, Error> where Other.Value == Value, Other.Error == Error {
        SignalProducer.merge([self, other.producer])
    }

    /// A producer that starts all 2 producers at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameters:
    ///   - a: The first producer to start.
    ///   - b: The second producer to start.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<A: SignalProducerConvertible, B: SignalProducerConvertible>(
        _ a: A, _ b: B
    ) -> SignalProducer<Value, Error> where A.Value == Value, A.Error == Error, B.Value == Value, B.Error == Error {
        merge([a.producer, b.producer])
    }

    /// A producer that starts all 3 producers at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameters:
    ///   - a: The first producer to start.
    ///   - b: The second producer to start.
    ///   - c: The third producer to start.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible>(
        _ a: A, _ b: B, _ c: C
    ) -> SignalProducer<Value, Error>
    where A.Value == Value, A.Error == Error, B.Value == Value, B.Error == Error, C.Value == Value, C.Error == Error {
        merge([a.producer, b.producer, c.producer])
    }

    /// A producer that starts all 4 producers at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameters:
    ///   - a: The first producer to start.
    ///   - b: The second producer to start.
    ///   - c: The third producer to start.
    ///   - d: The fourth producer to start.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible, D: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D
    ) -> SignalProducer<Value, Error>
    where
        A.Value == Value, A.Error == Error, B.Value == Value, B.Error == Error, C.Value == Value, C.Error == Error,
        D.Value == Value, D.Error == Error
    {
        merge([a.producer, b.producer, c.producer, d.producer])
    }

    /// A producer that starts all 5 producers at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameters:
    ///   - a: The first producer to start.
    ///   - b: The second producer to start.
    ///   - c: The third producer to start.
    ///   - d: The fourth producer to start.
    ///   - e: The fifth producer to start.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible, D: SignalProducerConvertible,
        E: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E
    ) -> SignalProducer<Value, Error>
    where
        A.Value == Value, A.Error == Error, B.Value == Value, B.Error == Error, C.Value == Value, C.Error == Error,
        D.Value == Value, D.Error == Error, E.Value == Value, E.Error == Error
    {
        merge([a.producer, b.producer, c.producer, d.producer, e.producer])
    }

    /// A producer that starts all 6 producers at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameters:
    ///   - a: The first producer to start.
    ///   - b: The second producer to start.
    ///   - c: The third producer to start.
    ///   - d: The fourth producer to start.
    ///   - e: The fifth producer to start.
    ///   - f: The sixth producer to start.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible, D: SignalProducerConvertible,
        E: SignalProducerConvertible, F: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> SignalProducer<Value, Error>
    where
        A.Value == Value, A.Error == Error, B.Value == Value, B.Error == Error, C.Value == Value, C.Error == Error,
        D.Value == Value, D.Error == Error, E.Value == Value, E.Error == Error, F.Value == Value, F.Error == Error
    {
        merge([a.producer, b.producer, c.producer, d.producer, e.producer, f.producer])
    }

    /// A producer that starts all 7 producers at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameters:
    ///   - a: The first producer to start.
    ///   - b: The second producer to start.
    ///   - c: The third producer to start.
    ///   - d: The fourth producer to start.
    ///   - e: The fifth producer to start.
    ///   - f: The sixth producer to start.
    ///   - g: The seventh producer to start.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible, D: SignalProducerConvertible,
        E: SignalProducerConvertible, F: SignalProducerConvertible, G: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> SignalProducer<Value, Error>
    where
        A.Value == Value, A.Error == Error, B.Value == Value, B.Error == Error, C.Value == Value, C.Error == Error,
        D.Value == Value, D.Error == Error, E.Value == Value, E.Error == Error, F.Value == Value, F.Error == Error,
        G.Value == Value, G.Error == Error
    {
        merge([a.producer, b.producer, c.producer, d.producer, e.producer, f.producer, g.producer])
    }

    /// A producer that starts all 8 producers at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameters:
    ///   - a: The first producer to start.
    ///   - b: The second producer to start.
    ///   - c: The third producer to start.
    ///   - d: The fourth producer to start.
    ///   - e: The fifth producer to start.
    ///   - f: The sixth producer to start.
    ///   - g: The seventh producer to start.
    ///   - h: The eighth producer to start.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible, D: SignalProducerConvertible,
        E: SignalProducerConvertible, F: SignalProducerConvertible, G: SignalProducerConvertible, H: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> SignalProducer<Value, Error>
    where
        A.Value == Value, A.Error == Error, B.Value == Value, B.Error == Error, C.Value == Value, C.Error == Error,
        D.Value == Value, D.Error == Error, E.Value == Value, E.Error == Error, F.Value == Value, F.Error == Error,
        G.Value == Value, G.Error == Error, H.Value == Value, H.Error == Error
    {
        merge([a.producer, b.producer, c.producer, d.producer, e.producer, f.producer, g.producer, h.producer])
    }

    /// A producer that starts all 9 producers at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameters:
    ///   - a: The first producer to start.
    ///   - b: The second producer to start.
    ///   - c: The third producer to start.
    ///   - d: The fourth producer to start.
    ///   - e: The fifth producer to start.
    ///   - f: The sixth producer to start.
    ///   - g: The seventh producer to start.
    ///   - h: The eighth producer to start.
    ///   - i: The ninth producer to start.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible, D: SignalProducerConvertible,
        E: SignalProducerConvertible, F: SignalProducerConvertible, G: SignalProducerConvertible, H: SignalProducerConvertible,
        I: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I
    ) -> SignalProducer<Value, Error>
    where
        A.Value == Value, A.Error == Error, B.Value == Value, B.Error == Error, C.Value == Value, C.Error == Error,
        D.Value == Value, D.Error == Error, E.Value == Value, E.Error == Error, F.Value == Value, F.Error == Error,
        G.Value == Value, G.Error == Error, H.Value == Value, H.Error == Error, I.Value == Value, I.Error == Error
    {
        merge([a.producer, b.producer, c.producer, d.producer, e.producer, f.producer, g.producer, h.producer, i.producer])
    }

    /// A producer that starts all 10 producers at once and forwards all their values; see `merge(_:)`.
    ///
    /// - Parameters:
    ///   - a: The first producer to start.
    ///   - b: The second producer to start.
    ///   - c: The third producer to start.
    ///   - d: The fourth producer to start.
    ///   - e: The fifth producer to start.
    ///   - f: The sixth producer to start.
    ///   - g: The seventh producer to start.
    ///   - h: The eighth producer to start.
    ///   - i: The ninth producer to start.
    ///   - j: The tenth producer to start.
    /// - Returns: A producer of their values; it fails as soon as one of them fails (and
    ///   interrupts the others), and completes once each has completed or been interrupted.
    public static func merge<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible, D: SignalProducerConvertible,
        E: SignalProducerConvertible, F: SignalProducerConvertible, G: SignalProducerConvertible, H: SignalProducerConvertible,
        I: SignalProducerConvertible, J: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I, _ j: J
    ) -> SignalProducer<Value, Error>
    where
        A.Value == Value, A.Error == Error, B.Value == Value, B.Error == Error, C.Value == Value, C.Error == Error,
        D.Value == Value, D.Error == Error, E.Value == Value, E.Error == Error, F.Value == Value, F.Error == Error,
        G.Value == Value, G.Error == Error, H.Value == Value, H.Error == Error, I.Value == Value, I.Error == Error,
        J.Value == Value, J.Error == Error
    {
        merge([
            a.producer, b.producer, c.producer, d.producer, e.producer, f.producer, g.producer, h.producer, i.producer,
            j.producer,
        ])
    }
}
