// combineLatest and zip for properties: composed properties over the producers' combinators.
// The static forms take any number of properties (a parameter pack), which also covers every
// fixed arity ReactiveSwift spells out (2 to 10).

extension PropertyProtocol {
    /// A property of pairs of this property's value and `other`'s, updated when either changes.
    ///
    /// - Parameter other: The second property; not retained (R4).
    /// - Returns: A property of `(self.value, other.value)`.
    @inlinable
    public func combineLatest<P: PropertyProtocol>(with other: P) -> Property<(Value, P.Value)> {
        Property(combining: [compositionRank, other.compositionRank], producer.combineLatest(with: other.producer))
    }

    /// A property of pairs of the values of this property and `other`, matched change by change:
    /// the n-th value of one is paired with the n-th value of the other.
    ///
    /// - Parameter other: The second property; not retained (R4).
    /// - Returns: A property of pairs, the n-th value of each property in the n-th pair.
    @inlinable
    public func zip<P: PropertyProtocol>(with other: P) -> Property<(Value, P.Value)> {
        Property(
            composing: producer.zip(with: other.producer),
            rank: Swift.max(compositionRank, other.compositionRank) + 1
        )
    }

    /// A property of tuples of the latest values of the given properties.
    ///
    /// - Parameters:
    ///   - a: The first property.
    ///   - b: The second property.
    ///   - rest: Any further properties.
    /// - Returns: A property of tuples of the properties' current values, in argument order.
    @inlinable
    public static func combineLatest<A: PropertyProtocol, B: PropertyProtocol, each C: PropertyProtocol>(
        _ a: A, _ b: B, _ rest: repeat each C
    ) -> Property<(A.Value, B.Value, repeat (each C).Value)> where A.Value == Value {
        Property(
            combining: ranks(a, b, repeat each rest),
            .combiningPack(
                CombineLatestStateMachine<Any>.self, a.producer, b.producer, repeat (each rest).producer
            ))
    }

    /// A property of tuples of the given properties' values, matched change by change.
    ///
    /// - Parameters:
    ///   - a: The first property.
    ///   - b: The second property.
    ///   - rest: Any further properties.
    /// - Returns: A property of tuples, the n-th value of each property in the n-th tuple.
    @inlinable
    public static func zip<A: PropertyProtocol, B: PropertyProtocol, each C: PropertyProtocol>(
        _ a: A, _ b: B, _ rest: repeat each C
    ) -> Property<(A.Value, B.Value, repeat (each C).Value)> where A.Value == Value {
        Property(
            composing: .combiningPack(
                ZipStateMachine<Any>.self, a.producer, b.producer, repeat (each rest).producer
            ), rank: ranks(a, b, repeat each rest).max()! + 1)
    }

    /// A property of arrays of the latest values of `properties`, or `nil` if there are none.
    ///
    /// - Parameter properties: The properties to combine, in order.
    /// - Returns: A property of arrays of their current values, in order; `nil` if `properties` is
    ///   empty.
    @inlinable
    public static func combineLatest<S: Sequence>(_ properties: S) -> Property<[S.Element.Value]>?
    where S.Element: PropertyProtocol, S.Element.Value == Value {
        let properties = Array(properties)
        guard !properties.isEmpty else { return nil }
        return Property(
            combining: properties.map(\.compositionRank),
            SignalProducer<Value, Never>.combineLatest(properties.map(\.producer))
        )
    }

    /// A property of arrays of the latest values of `properties`; with none, it is `emptySentinel`.
    ///
    /// - Parameters:
    ///   - properties: The properties to combine, in order.
    ///   - emptySentinel: The constant value of the result when `properties` is empty.
    /// - Returns: A property of arrays of the properties' current values, in order.
    @inlinable
    public static func combineLatest<S: Sequence>(_ properties: S, emptySentinel: [S.Element.Value]) -> Property<
        [S.Element.Value]
    >
    where S.Element: PropertyProtocol, S.Element.Value == Value {
        let properties = Array(properties)
        return Property(
            combining: properties.map(\.compositionRank),
            SignalProducer<Value, Never>.combineLatest(properties.map(\.producer), emptySentinel: emptySentinel)
        )
    }

    /// A property of arrays of `properties`' values, matched change by change, or `nil` if there
    /// are none.
    ///
    /// - Parameter properties: The properties to zip, in order.
    /// - Returns: A property of arrays, the n-th value of each property in the n-th array; `nil` if
    ///   `properties` is empty.
    @inlinable
    public static func zip<S: Sequence>(_ properties: S) -> Property<[S.Element.Value]>?
    where S.Element: PropertyProtocol, S.Element.Value == Value {
        let properties = Array(properties)
        guard !properties.isEmpty else { return nil }
        return Property(
            composing: SignalProducer<Value, Never>.zip(properties.map(\.producer)),
            rank: properties.map(\.compositionRank).max()! + 1
        )
    }

    /// A property of arrays of `properties`' values, matched change by change; with none, it is
    /// `emptySentinel`.
    ///
    /// - Parameters:
    ///   - properties: The properties to zip, in order.
    ///   - emptySentinel: The constant value of the result when `properties` is empty.
    /// - Returns: A property of arrays, the n-th value of each property in the n-th array.
    @inlinable
    public static func zip<S: Sequence>(_ properties: S, emptySentinel: [S.Element.Value]) -> Property<[S.Element.Value]>
    where S.Element: PropertyProtocol, S.Element.Value == Value {
        let properties = Array(properties)
        return Property(
            composing: SignalProducer<Value, Never>.zip(properties.map(\.producer), emptySentinel: emptySentinel),
            rank: (properties.map(\.compositionRank).max() ?? 0) + 1
        )
    }
}

/// The composition ranks of a pack of properties.
@inlinable
func ranks<A: PropertyProtocol, B: PropertyProtocol, each C: PropertyProtocol>(
    _ a: A, _ b: B, _ rest: repeat each C
) -> [Int] {
    var ranks = [a.compositionRank, b.compositionRank]
    for property in repeat each rest {
        ranks.append(property.compositionRank)
    }
    return ranks
}

extension Property {
    /// A composed property that combines the latest values of properties of the given ranks, and
    /// so defers its changes to the end of a `PropertyTransaction` (it emits no glitches).
    @inlinable
    convenience init(combining sourceRanks: [Int], _ source: SignalProducer<Value, Never>) {
        self.init(composing: source, rank: (sourceRanks.max() ?? 0) + 1, combining: true)
    }
}
