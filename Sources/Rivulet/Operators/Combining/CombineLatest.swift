// The `combineLatest` family: one implementation, `CombineLatestStateMachine` in a
// `CombiningStage`, serves signals and producers of every arity (O1). Fixed arities 2–10 keep
// ReactiveSwift's signatures; the parameter-pack forms add any higher arity.

extension Signal {
    /// A signal of pairs of the latest values of this signal and `other`.
    ///
    /// Nothing is sent until both have sent a value; after that, every value of either makes a new
    /// pair with the other's latest value. The result completes when both have completed (even if
    /// one never sent a value), and fails or is interrupted as soon as either does.
    @inlinable
    public func combineLatest<U>(with other: Signal<U, Error>) -> Signal<(Value, U), Error> {
        .combiningPair(CombineLatestStateMachine<PairElement<Value, U>>.self, self, other)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does.
    @inlinable
    public static func combineLatest<B>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>
    ) -> Signal<(Value, B), Error> {
        .combiningPair(CombineLatestStateMachine<PairElement<Value, B>>.self, a, b)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does.
    @inlinable
    public static func combineLatest<B, C>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>
    ) -> Signal<(Value, B, C), Error> {
        .combiningPack(CombineLatestStateMachine<Any>.self, a, b, c)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does.
    @inlinable
    public static func combineLatest<B, C, D>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>
    ) -> Signal<(Value, B, C, D), Error> {
        .combiningPack(CombineLatestStateMachine<Any>.self, a, b, c, d)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does.
    @inlinable
    public static func combineLatest<B, C, D, E>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>
    ) -> Signal<(Value, B, C, D, E), Error> {
        .combiningPack(CombineLatestStateMachine<Any>.self, a, b, c, d, e)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does.
    @inlinable
    public static func combineLatest<B, C, D, E, F>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>
    ) -> Signal<(Value, B, C, D, E, F), Error> {
        .combiningPack(CombineLatestStateMachine<Any>.self, a, b, c, d, e, f)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does.
    @inlinable
    public static func combineLatest<B, C, D, E, F, G>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>
    ) -> Signal<(Value, B, C, D, E, F, G), Error> {
        .combiningPack(CombineLatestStateMachine<Any>.self, a, b, c, d, e, f, g)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does.
    @inlinable
    public static func combineLatest<B, C, D, E, F, G, H>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>,
        _ h: Signal<H, Error>
    ) -> Signal<(Value, B, C, D, E, F, G, H), Error> {
        .combiningPack(CombineLatestStateMachine<Any>.self, a, b, c, d, e, f, g, h)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does.
    @inlinable
    public static func combineLatest<B, C, D, E, F, G, H, I>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>,
        _ h: Signal<H, Error>, _ i: Signal<I, Error>
    ) -> Signal<(Value, B, C, D, E, F, G, H, I), Error> {
        .combiningPack(CombineLatestStateMachine<Any>.self, a, b, c, d, e, f, g, h, i)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does.
    @inlinable
    public static func combineLatest<B, C, D, E, F, G, H, I, J>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>,
        _ h: Signal<H, Error>, _ i: Signal<I, Error>, _ j: Signal<J, Error>
    ) -> Signal<(Value, B, C, D, E, F, G, H, I, J), Error> {
        .combiningPack(CombineLatestStateMachine<Any>.self, a, b, c, d, e, f, g, h, i, j)
    }

    /// Combines the latest values of the given signals, as `combineLatest(with:)` does. Takes
    /// eleven signals or more (a parameter pack): the fixed-arity forms end at ten, and starting
    /// the pack at eleven keeps calls with fewer inputs unambiguous.
    @inlinable
    public static func combineLatest<B, C, D, E, F, G, H, I, J, K, each L>(
        _ a: Signal<Value, Error>, _ b: Signal<B, Error>, _ c: Signal<C, Error>,
        _ d: Signal<D, Error>, _ e: Signal<E, Error>, _ f: Signal<F, Error>, _ g: Signal<G, Error>,
        _ h: Signal<H, Error>, _ i: Signal<I, Error>, _ j: Signal<J, Error>, _ k: Signal<K, Error>,
        _ rest: repeat Signal<each L, Error>
    ) -> Signal<(Value, B, C, D, E, F, G, H, I, J, K, repeat each L), Error> {
        .combiningPack(
            CombineLatestStateMachine<Any>.self, a, b, c, d, e, f, g, h, i, j, k, repeat each rest
        )
    }

    /// A stream of arrays of the latest values of the given signals, in their order. With no
    /// signal, the result has already completed.
    public static func combineLatest<S: Sequence>(_ signals: S) -> Signal<[Value], Error>
    where S.Element == Signal<Value, Error> {
        combiningArray(CombineLatestStateMachine<Value>.self, signals)
    }
}

extension SignalProducer {
    /// A producer of pairs of the latest values of this producer and `other`. Each start starts
    /// this producer, then `other`.
    @inlinable
    public func combineLatest<U>(
        with other: SignalProducer<U, Error>
    ) -> SignalProducer<(Value, U), Error> {
        .combiningPair(CombineLatestStateMachine<PairElement<Value, U>>.self, self, other)
    }

    /// A producer of pairs of the latest values of this producer and `other`. Each start starts
    /// this producer, then `other`.
    @inlinable
    public func combineLatest<Other: SignalProducerConvertible>(
        with other: Other
    ) -> SignalProducer<(Value, Other.Value), Error> where Other.Error == Error {
        .combiningPack(CombineLatestStateMachine<Any>.self, self, other.producer)
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order.
    @inlinable
    public static func combineLatest<
        A: SignalProducerConvertible, B: SignalProducerConvertible
    >(
        _ a: A, _ b: B
    ) -> SignalProducer<(Value, B.Value), Error>
    where
        A.Value == Value, A.Error == Error, B.Error == Error
    {
        .combiningPack(CombineLatestStateMachine<Any>.self, a.producer, b.producer)
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order.
    @inlinable
    public static func combineLatest<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C
    ) -> SignalProducer<(Value, B.Value, C.Value), Error>
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error
    {
        .combiningPack(CombineLatestStateMachine<Any>.self, a.producer, b.producer, c.producer)
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order.
    @inlinable
    public static func combineLatest<
        A: SignalProducerConvertible, B: SignalProducerConvertible, C: SignalProducerConvertible,
        D: SignalProducerConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D
    ) -> SignalProducer<(Value, B.Value, C.Value, D.Value), Error>
    where
        A.Value == Value, A.Error == Error, B.Error == Error, C.Error == Error, D.Error == Error
    {
        .combiningPack(
            CombineLatestStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer
        )
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order.
    @inlinable
    public static func combineLatest<
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
            CombineLatestStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer,
            e.producer
        )
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order.
    @inlinable
    public static func combineLatest<
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
            CombineLatestStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer,
            e.producer, f.producer
        )
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order.
    @inlinable
    public static func combineLatest<
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
            CombineLatestStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer,
            e.producer, f.producer, g.producer
        )
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order.
    @inlinable
    public static func combineLatest<
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
            CombineLatestStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer,
            e.producer, f.producer, g.producer, h.producer
        )
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order.
    @inlinable
    public static func combineLatest<
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
            CombineLatestStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer,
            e.producer, f.producer, g.producer, h.producer, i.producer
        )
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order.
    @inlinable
    public static func combineLatest<
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
            CombineLatestStateMachine<Any>.self, a.producer, b.producer, c.producer, d.producer,
            e.producer, f.producer, g.producer, h.producer, i.producer, j.producer
        )
    }

    /// Combines the latest values of the given producers, as `combineLatest(with:)` does. Each
    /// start starts them in order. Takes eleven producers or more (a parameter pack): the
    /// fixed-arity forms end at ten, and starting the pack at eleven keeps calls with fewer inputs
    /// unambiguous. The inputs must be producers (Swift cannot yet constrain the error type of a
    /// pack of convertibles).
    @inlinable
    public static func combineLatest<B, C, D, E, F, G, H, I, J, K, each L>(
        _ a: SignalProducer<Value, Error>, _ b: SignalProducer<B, Error>,
        _ c: SignalProducer<C, Error>, _ d: SignalProducer<D, Error>, _ e: SignalProducer<E, Error>,
        _ f: SignalProducer<F, Error>, _ g: SignalProducer<G, Error>, _ h: SignalProducer<H, Error>,
        _ i: SignalProducer<I, Error>, _ j: SignalProducer<J, Error>, _ k: SignalProducer<K, Error>,
        _ rest: repeat SignalProducer<each L, Error>
    ) -> SignalProducer<(Value, B, C, D, E, F, G, H, I, J, K, repeat each L), Error> {
        .combiningPack(
            CombineLatestStateMachine<Any>.self, a, b, c, d, e, f, g, h, i, j, k, repeat each rest
        )
    }

    /// A stream of arrays of the latest values of the given producers, in their order. Each start
    /// reads `producers` afresh and starts them in order; with no producer, it completes at once.
    public static func combineLatest<S: Sequence>(_ producers: S) -> SignalProducer<[Value], Error>
    where S.Element: SignalProducerConvertible, S.Element.Value == Value, S.Element.Error == Error {
        combiningArray(CombineLatestStateMachine<Value>.self, producers, emptyValue: nil)
    }

    /// A stream of arrays of the latest values of the given producers, in their order. Each start
    /// reads `producers` afresh and starts them in order; with no producer, it sends
    /// `emptySentinel`, then completes.
    public static func combineLatest<S: Sequence>(
        _ producers: S,
        emptySentinel: [S.Element.Value]
    ) -> SignalProducer<[Value], Error>
    where S.Element: SignalProducerConvertible, S.Element.Value == Value, S.Element.Error == Error {
        combiningArray(CombineLatestStateMachine<Value>.self, producers, emptyValue: emptySentinel)
    }
}
