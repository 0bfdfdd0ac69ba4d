// The two-input combining operators (combineLatest and zip of two inputs, the most common by
// far, sample and withLatest) use the shared combining stage with a typed element instead of
// `Any`: no existential box per value and no dynamic cast per combination.

/// A value of one of two inputs, typed.
@usableFromInline
enum PairElement<A, B> {
    case first(A)
    case second(B)

    /// The pair made of the elements at positions 0 and 1 of a combination.
    @inlinable
    static func pair(_ element: (Int) -> PairElement) -> (A, B) {
        guard case let .first(first) = element(0), case let .second(second) = element(1) else {
            preconditionFailure(
                "Rivulet: a combining stage mixed up the sources of a pair; element 0 comes from the first source and element 1 from the second (internal error)"
            )
        }
        return (first, second)
    }
}

extension CombiningStream {
    /// A stream that combines two inputs with a `Machine` over typed pair elements and sends the
    /// pairs it announces: the wiring of every two-input combining operator, for signals and
    /// producers alike. The inputs are attached in the order of `sources`, and producer inputs
    /// are ended in the reverse order (see `CombiningEndOrder.reverse`).
    @inlinable
    static func combiningPair<Machine: CombiningStateMachine<PairElement<A, B>>, A, B>(
        _: Machine.Type,
        _ sources: [CombiningSource<PairElement<A, B>, Error>]
    ) -> Self where Value == (A, B) {
        combined(combining(Machine.self, sources, endOrder: .reverse, combine: PairElement.pair))
    }

    /// A stream that combines `a` and `b` with a `Machine` over typed pair elements; each
    /// instance attaches `a`, then `b`.
    @inlinable
    static func combiningPair<Machine: CombiningStateMachine<PairElement<A, B>>, A, B>(
        _: Machine.Type,
        _ a: some CombiningStream<A, Error>,
        _ b: some CombiningStream<B, Error>
    ) -> Self where Value == (A, B) {
        combiningPair(
            Machine.self, [a.combiningSource.map(PairElement.first), b.combiningSource.map(PairElement.second)]
        )
    }
}
