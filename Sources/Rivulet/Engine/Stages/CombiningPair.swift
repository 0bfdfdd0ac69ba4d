// The two-source forms of combineLatest and zip, the most common by far, use the shared
// combining stage with a typed element instead of `Any`: no existential box per value and no
// dynamic cast per combination.

/// A value of one of two sources, typed.
@usableFromInline
enum PairElement<A, B> {
    case first(A)
    case second(B)

    /// The pair made of the elements of source 0 and source 1.
    @inlinable
    static func pair(_ element: (Int) -> PairElement) -> (A, B) {
        guard case let .first(first) = element(0), case let .second(second) = element(1) else {
            preconditionFailure("Rivulet: a combining stage mixed up the sources of a pair")
        }
        return (first, second)
    }
}

extension Signal {
    /// A signal that combines `a` and `b` with a `Machine` over typed pair elements.
    @inlinable
    static func combiningPair<Machine: CombiningStateMachine<PairElement<A, B>>, A, B>(
        _: Machine.Type,
        _ a: Signal<A, Error>,
        _ b: Signal<B, Error>
    ) -> Signal where Value == (A, B) {
        let sources: [CombiningSource<PairElement<A, B>>] = [
            { sink in a.observe(Signal<A, Error>.Event.forwardingValues(PairElement.first, to: sink)) },
            { sink in b.observe(Signal<B, Error>.Event.forwardingValues(PairElement.second, to: sink)) },
        ]
        return combining(Machine.self, sources, combine: PairElement.pair)
    }
}

extension SignalProducer {
    /// A producer that combines `a` and `b` with a `Machine` over typed pair elements; each start
    /// starts `a`, then `b`.
    @inlinable
    static func combiningPair<Machine: CombiningStateMachine<PairElement<A, B>>, A, B>(
        _: Machine.Type,
        _ a: SignalProducer<A, Error>,
        _ b: SignalProducer<B, Error>
    ) -> SignalProducer where Value == (A, B) {
        let sources: [CombiningSource<PairElement<A, B>>] = [
            { sink, lifetime in
                a.startInstance(Signal<A, Error>.Event.forwardingValues(PairElement.first, to: sink), lifetime)
            },
            { sink, lifetime in
                b.startInstance(Signal<B, Error>.Event.forwardingValues(PairElement.second, to: sink), lifetime)
            },
        ]
        return combining(Machine.self, sources, combine: PairElement.pair)
    }
}
