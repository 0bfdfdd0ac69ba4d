// Logical operators on streams of `Bool`. `negate` is a `map`; the others combine the latest
// values of their inputs with `combineLatest` and reduce them, so they share its semantics: a
// result is sent once every input has sent a value, completion waits for every input, and a
// failure or interruption of any input ends the result at once.

extension Signal where Value == Bool {
    /// A signal of the logical NOT of each value.
    @inlinable
    public func negate() -> Signal<Bool, Error> {
        flatMapEventSharingTurn(Event.mapValues(!))
    }

    /// A signal of the logical AND of the latest values of this signal and `signal`.
    public func and(_ signal: Signal<Bool, Error>) -> Signal<Bool, Error> {
        Signal.all([self, signal])
    }

    /// A signal of the logical OR of the latest values of this signal and `signal`.
    public func or(_ signal: Signal<Bool, Error>) -> Signal<Bool, Error> {
        Signal.any([self, signal])
    }

    /// A signal of the logical AND of the latest values of `booleans`. With no signal, the result
    /// has already completed.
    public static func all<BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> Signal<Bool, Error> where BooleansCollection.Element == Signal<Bool, Error> {
        combineLatest(booleans).map { !$0.contains(false) }
    }

    /// A signal of the logical AND of the latest values of `booleans`.
    public static func all(_ booleans: Signal<Bool, Error>...) -> Signal<Bool, Error> {
        all(booleans)
    }

    /// A signal of the logical OR of the latest values of `booleans`. With no signal, the result
    /// has already completed.
    public static func any<BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> Signal<Bool, Error> where BooleansCollection.Element == Signal<Bool, Error> {
        combineLatest(booleans).map { $0.contains(true) }
    }

    /// A signal of the logical OR of the latest values of `booleans`.
    public static func any(_ booleans: Signal<Bool, Error>...) -> Signal<Bool, Error> {
        any(booleans)
    }
}

extension SignalProducer where Value == Bool {
    /// A producer of the logical NOT of each value.
    @inlinable
    public func negate() -> SignalProducer<Bool, Error> {
        flatMapEvent(Signal.Event.mapValues(!))
    }

    /// A producer of the logical AND of the latest values of this producer and `booleans`.
    public func and(_ booleans: SignalProducer<Bool, Error>) -> SignalProducer<Bool, Error> {
        SignalProducer.all([self, booleans])
    }

    /// A producer of the logical AND of the latest values of this producer and `booleans`.
    public func and<Booleans: SignalProducerConvertible>(
        _ booleans: Booleans
    ) -> SignalProducer<Bool, Error> where Booleans.Value == Bool, Booleans.Error == Error {
        and(booleans.producer)
    }

    /// A producer of the logical OR of the latest values of this producer and `booleans`.
    public func or(_ booleans: SignalProducer<Bool, Error>) -> SignalProducer<Bool, Error> {
        SignalProducer.any([self, booleans])
    }

    /// A producer of the logical OR of the latest values of this producer and `booleans`.
    public func or<Booleans: SignalProducerConvertible>(
        _ booleans: Booleans
    ) -> SignalProducer<Bool, Error> where Booleans.Value == Bool, Booleans.Error == Error {
        or(booleans.producer)
    }

    /// A producer of the logical AND of the latest values of `booleans`. With no producer, a start
    /// sends `true` (the AND of nothing), then completes.
    public static func all<BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> SignalProducer<Bool, Error> where BooleansCollection.Element == SignalProducer<Bool, Error> {
        combineLatest(booleans, emptySentinel: []).map { !$0.contains(false) }
    }

    /// A producer of the logical AND of the latest values of `booleans`.
    public static func all(_ booleans: SignalProducer<Bool, Error>...) -> SignalProducer<Bool, Error> {
        all(booleans)
    }

    /// A producer of the logical AND of the latest values of `booleans` (signals, producers,
    /// properties). With none, a start sends `true`, then completes.
    public static func all<Booleans: SignalProducerConvertible, BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> SignalProducer<Bool, Error>
    where Booleans.Value == Bool, Booleans.Error == Error, BooleansCollection.Element == Booleans {
        all(booleans.map(\.producer))
    }

    /// A producer of the logical OR of the latest values of `booleans`. With no producer, a start
    /// sends `false` (the OR of nothing), then completes.
    public static func any<BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> SignalProducer<Bool, Error> where BooleansCollection.Element == SignalProducer<Bool, Error> {
        combineLatest(booleans, emptySentinel: []).map { $0.contains(true) }
    }

    /// A producer of the logical OR of the latest values of `booleans`.
    public static func any(_ booleans: SignalProducer<Bool, Error>...) -> SignalProducer<Bool, Error> {
        any(booleans)
    }

    /// A producer of the logical OR of the latest values of `booleans` (signals, producers,
    /// properties). With none, a start sends `false`, then completes.
    public static func any<Booleans: SignalProducerConvertible, BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> SignalProducer<Bool, Error>
    where Booleans.Value == Bool, Booleans.Error == Error, BooleansCollection.Element == Booleans {
        any(booleans.map(\.producer))
    }
}
