// The `zip` family: one implementation, `ZipStateMachine` in a
// `CombiningStage`, serves signals and producers of every arity (O1). Fixed arities 2–10 keep
// ReactiveSwift's signatures; the parameter-pack forms add any higher arity.

extension Signal {
    /// A signal of pairs of the values of this signal and `other`, matched by position.
    ///
    /// The n-th pair holds the n-th value of each: a value waits until its partner arrives. The
    /// result completes as soon as a completed input has no unpaired value left, and fails or is
    /// interrupted as soon as either input does.
    @inlinable
    public func zip<U>(with other: Signal<U, Error>) -> Signal<(Value, U), Error> {
        .combiningPair(ZipStateMachine<PairElement<Value, U>>.self, self, other)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does.
    @inlinable
    public static func zip<B>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>
    ) -> Signal<(Value, B), Error> {
        .combiningPair(ZipStateMachine<PairElement<Value, B>>.self, a, b)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does.
    @inlinable
    public static func zip<B, C>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>
    ) -> Signal<(Value, B, C), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does.
    @inlinable
    public static func zip<B, C, D>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>
    ) -> Signal<(Value, B, C, D), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c, d)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does.
    @inlinable
    public static func zip<B, C, D, E>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>
    ) -> Signal<(Value, B, C, D, E), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c, d, e)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does.
    @inlinable
    public static func zip<B, C, D, E, F>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>
    ) -> Signal<(Value, B, C, D, E, F), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c, d, e, f)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does.
    @inlinable
    public static func zip<B, C, D, E, F, G>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>
    ) -> Signal<(Value, B, C, D, E, F, G), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c, d, e, f, g)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does.
    @inlinable
    public static func zip<B, C, D, E, F, G, H>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>,
        _ h: Signal<H, Error>
    ) -> Signal<(Value, B, C, D, E, F, G, H), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c, d, e, f, g, h)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does.
    @inlinable
    public static func zip<B, C, D, E, F, G, H, I>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>,
        _ h: Signal<H, Error>, _ i: Signal<I, Error>
    ) -> Signal<(Value, B, C, D, E, F, G, H, I), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c, d, e, f, g, h, i)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does.
    @inlinable
    public static func zip<B, C, D, E, F, G, H, I, J>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>,
        _ h: Signal<H, Error>, _ i: Signal<I, Error>, _ j: Signal<J, Error>
    ) -> Signal<(Value, B, C, D, E, F, G, H, I, J), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c, d, e, f, g, h, i, j)
    }

    /// Pairs up the values of the given signals by position, as `zip(with:)` does. Takes eleven
    /// signals or more (a parameter pack): the fixed-arity forms end at ten, and starting the pack
    /// at eleven keeps calls with fewer inputs unambiguous.
    @inlinable
    public static func zip<B, C, D, E, F, G, H, I, J, K, each L>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>,
        _ h: Signal<H, Error>, _ i: Signal<I, Error>, _ j: Signal<J, Error>, _ k: Signal<K, Error>,
        _ rest: repeat Signal<each L, Error>
    ) -> Signal<(Value, B, C, D, E, F, G, H, I, J, K, repeat each L), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c, d, e, f, g, h, i, j, k, repeat each rest)
    }

    /// A stream of arrays of the values of the given signals, matched by position. With no signal,
    /// the result has already completed.
    public static func zip<S: Sequence>(_ signals: S) -> Signal<[Value], Error>
    where S.Element == Signal<Value, Error> {
        combiningArray(ZipStateMachine<Value>.self, signals)
    }
}

extension SignalProducer {
    /// A producer of pairs of the values of this producer and `other`, matched by position. Each
    /// start starts this producer, then `other`.
    @inlinable
    public func zip<U>(
        with other: SignalProducer<U, Error>
    ) -> SignalProducer<(Value, U), Error> {
        .combiningPair(ZipStateMachine<PairElement<Value, U>>.self, self, other)
    }

    /// A producer of pairs of the values of this producer and `other`, matched by position. Each
    /// start starts this producer, then `other`.
    @inlinable
    public func zip<Other: SignalProducerConvertible>(
        with other: Other
    ) -> SignalProducer<(Value, Other.Value), Error> where Other.Error == Error {
        .combiningPack(ZipStateMachine<Any>.self, self, other.producer)
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order.
    @inlinable
    public static func zip<
        A: SignalProducerConvertible, B: SignalProducerConvertible
    >(
        _ a: A, _ b: B
    ) -> SignalProducer<(Value, B.Value), Error>
    where
        A.Value == Value, A.Error == Error, B.Error == Error
    {
        .combiningPack(ZipStateMachine<Any>.self, a.producer, b.producer)
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order.
    @inlinable
    public static func zip<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C
    ) -> SignalProducer<(Value, B.Value, C.Value), Error>
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error
    {
        .combiningPack(ZipStateMachine<Any>.self, a.producer, b.producer, c.producer)
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order.
    @inlinable
    public static func zip<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible,
        D: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D
    ) -> SignalProducer<(Value, B.Value, C.Value, D.Value), Error>
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error, D.Error == Error
    {
        .combiningPack(ZipStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer)
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order.
    @inlinable
    public static func zip<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible,
        D: SignalProducerConvertible, E: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E
    ) -> SignalProducer<(Value, B.Value, C.Value, D.Value, E.Value), Error>
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error, D.Error == Error,
        E.Error == Error
    {
        .combiningPack(
            ZipStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer, e.producer
        )
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order.
    @inlinable
    public static func zip<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible,
        D: SignalProducerConvertible, E: SignalProducerConvertible, F: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> SignalProducer<(Value, B.Value, C.Value, D.Value, E.Value, F.Value), Error>
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error, D.Error == Error,
        E.Error == Error, F.Error == Error
    {
        .combiningPack(
            ZipStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer, e.producer,
            f.producer
        )
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order.
    @inlinable
    public static func zip<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible,
        D: SignalProducerConvertible, E: SignalProducerConvertible, F: SignalProducerConvertible,
        G: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> SignalProducer<(Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value), Error>
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error, D.Error == Error,
        E.Error == Error, F.Error == Error, G.Error == Error
    {
        .combiningPack(
            ZipStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer, e.producer,
            f.producer, g.producer
        )
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order.
    @inlinable
    public static func zip<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible,
        D: SignalProducerConvertible, E: SignalProducerConvertible, F: SignalProducerConvertible,
        G: SignalProducerConvertible, H: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> SignalProducer<
        (Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value, H.Value),
        Error
    >
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error, D.Error == Error,
        E.Error == Error, F.Error == Error, G.Error == Error, H.Error == Error
    {
        .combiningPack(
            ZipStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer, e.producer,
            f.producer, g.producer, h.producer
        )
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order.
    @inlinable
    public static func zip<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible,
        D: SignalProducerConvertible, E: SignalProducerConvertible, F: SignalProducerConvertible,
        G: SignalProducerConvertible, H: SignalProducerConvertible, I: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I
    ) -> SignalProducer<
        (Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value, H.Value, I.Value),
        Error
    >
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error, D.Error == Error,
        E.Error == Error, F.Error == Error, G.Error == Error, H.Error == Error, I.Error == Error
    {
        .combiningPack(
            ZipStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer, e.producer,
            f.producer, g.producer, h.producer, i.producer
        )
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order.
    @inlinable
    public static func zip<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible,
        D: SignalProducerConvertible, E: SignalProducerConvertible, F: SignalProducerConvertible,
        G: SignalProducerConvertible, H: SignalProducerConvertible, I: SignalProducerConvertible,
        J: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I, _ j: J
    ) -> SignalProducer<
        (Value, B.Value, C.Value, D.Value, E.Value, F.Value, G.Value, H.Value, I.Value, J.Value),
        Error
    >
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error, D.Error == Error,
        E.Error == Error, F.Error == Error, G.Error == Error, H.Error == Error, I.Error == Error,
        J.Error == Error
    {
        .combiningPack(
            ZipStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer, e.producer,
            f.producer, g.producer, h.producer, i.producer, j.producer
        )
    }

    /// Pairs up the values of the given producers by position, as `zip(with:)` does. Each start
    /// starts them in order. Takes eleven producers or more (a parameter pack): the fixed-arity
    /// forms end at ten, and starting the pack at eleven keeps calls with fewer inputs unambiguous.
    /// The inputs must be producers (Swift cannot yet constrain the error type of a pack of
    /// convertibles).
    @inlinable
    public static func zip<B, C, D, E, F, G, H, I, J, K, each L>(
        _ a: SignalProducer<Value, Error>, _ b: SignalProducer<B, Error>,
        _ c: SignalProducer<C, Error>, _ d: SignalProducer<D, Error>, _ e: SignalProducer<E, Error>,
        _ f: SignalProducer<F, Error>, _ g: SignalProducer<G, Error>, _ h: SignalProducer<H, Error>,
        _ i: SignalProducer<I, Error>, _ j: SignalProducer<J, Error>, _ k: SignalProducer<K, Error>,
        _ rest: repeat SignalProducer<each L, Error>
    ) -> SignalProducer<(Value, B, C, D, E, F, G, H, I, J, K, repeat each L), Error> {
        .combiningPack(ZipStateMachine<Any>.self, a, b, c, d, e, f, g, h, i, j, k, repeat each rest)
    }

    /// A stream of arrays of the values of the given producers, matched by position. Each start
    /// reads `producers` afresh and starts them in order; with no producer, it completes at once.
    public static func zip<S: Sequence>(_ producers: S) -> SignalProducer<[Value], Error>
    where S.Element: SignalProducerConvertible, S.Element.Value == Value, S.Element.Error == Error {
        combiningArray(ZipStateMachine<Value>.self, producers, emptyValue: nil)
    }

    /// A stream of arrays of the values of the given producers, matched by position. Each start
    /// reads `producers` afresh and starts them in order; with no producer, it sends
    /// `emptySentinel`, then completes.
    public static func zip<S: Sequence>(
        _ producers: S,
        emptySentinel: [S.Element.Value]
    ) -> SignalProducer<[Value], Error>
    where S.Element: SignalProducerConvertible, S.Element.Value == Value, S.Element.Error == Error {
        combiningArray(ZipStateMachine<Value>.self, producers, emptyValue: emptySentinel)
    }
}
