// Property operators. Each one composes the source's producer with the matching producer operator
// (written once, O1) and wraps the result in a composed property, which follows its sources
// without retaining them or affecting them (R4).

extension PropertyProtocol {
    /// A composed property of `transform` applied to this property's producer.
    ///
    /// The transformed producer must send a value at once when started.
    ///
    /// - Parameter transform: Makes the composed property's producer from this property's; called
    ///   once, now.
    /// - Returns: A property that follows the transformed producer, without retaining this property
    ///   (R4).
    @inlinable
    public func lift<U>(_ transform: @escaping (SignalProducer<Value, Never>) -> SignalProducer<U, Never>) -> Property<U> {
        Property(composing: transform(producer), rank: compositionRank + 1)
    }

    /// A composed property of `transform` applied to the producers of this property and `other`.
    ///
    /// - Parameter transform: Makes the composed property's producer from the producers of this
    ///   property and of the other one; called once per call of the returned function.
    /// - Returns: A function that takes the other property and returns the composed property.
    @inlinable
    public func lift<P: PropertyProtocol, U>(
        _ transform: @escaping (SignalProducer<Value, Never>) -> (SignalProducer<P.Value, Never>) -> SignalProducer<U, Never>
    ) -> (P) -> Property<U> {
        { other in
            Property(
                composing: transform(self.producer)(other.producer),
                rank: Swift.max(self.compositionRank, other.compositionRank) + 1
            )
        }
    }

    /// A property of `transform` applied to each value.
    ///
    /// - Parameter transform: Called with the current value at once and with each new value, on the
    ///   thread that changes this property.
    /// - Returns: A property of the transformed values.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> Property<U> {
        lift { $0.map(transform) }
    }

    /// A property whose value is always `value` (it changes when this property changes, to the same value).
    ///
    /// - Parameter value: The composed property's only value.
    /// - Returns: A property that holds `value` and changes (to `value`) whenever this one changes.
    @_disfavoredOverload
    @inlinable
    public func map<U>(value: U) -> Property<U> {
        // Disfavoured: a trailing closure can fill `value:`, and `map { "\($0)" }` must not
        // pick this overload and make a stream of closures.
        lift { $0.map(value: value) }
    }

    /// A property of the property at `keyPath` of each value.
    ///
    /// - Parameter keyPath: The path of the value to follow in each of this property's values.
    /// - Returns: A property of the values at `keyPath`.
    @inlinable
    public func map<U>(_ keyPath: KeyPath<Value, U>) -> Property<U> {
        lift { $0.map(keyPath) }
    }

    /// A property of the values that pass `predicate`; it starts at `initial` if the current value
    /// does not pass.
    ///
    /// - Parameters:
    ///   - initial: The value to start from when the current value does not pass `predicate`.
    ///   - predicate: Whether a value is let through; called with the current value and each
    ///     change.
    /// - Returns: A property of the values that pass `predicate`.
    @inlinable
    public func filter(initial: Value, _ predicate: @escaping @Sendable (Value) -> Bool) -> Property<Value> {
        Property(composing: producer.filter(predicate).prefix(value: initial), rank: compositionRank + 1)
    }

    /// A property of `(previous, current)` pairs; the first value is paired with `initial`.
    ///
    /// - Parameter initial: The value paired, as the previous one, with the current value.
    /// - Returns: A property of `(previous, current)` pairs.
    @inlinable
    public func combinePrevious(_ initial: Value) -> Property<(Value, Value)> {
        lift { $0.combinePrevious(initial) }
    }

    /// A property that changes only when a value is not equivalent to the one before it.
    ///
    /// - Parameter isEquivalent: Whether a new value is the same as the one before it, which skips
    ///   it.
    /// - Returns: A property that changes only to values not equivalent to the previous one.
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Property<Value> {
        lift { $0.skipRepeats(isEquivalent) }
    }

    /// A property that changes only when a value differs from the one before it.
    ///
    /// - Returns: A property that changes only to values not equal to the previous one.
    @inlinable
    public func skipRepeats() -> Property<Value> where Value: Equatable {
        lift { $0.skipRepeats() }
    }

    /// A property that changes only to values whose identity it has not had before.
    ///
    /// - Parameter transform: The identity of a value; a value whose identity was seen before is
    ///   skipped. Every identity seen is kept for the composed property's life.
    /// - Returns: A property that changes only to values of a new identity.
    @inlinable
    public func uniqueValues<Identity: Hashable>(_ transform: @escaping @Sendable (Value) -> Identity) -> Property<Value> {
        lift { $0.uniqueValues(transform) }
    }

    /// A property that changes only to values it has not had before.
    ///
    /// - Returns: A property that changes only to values it has not had before (every value seen is
    ///   kept for its life).
    @inlinable
    public func uniqueValues() -> Property<Value> where Value: Hashable {
        lift { $0.uniqueValues() }
    }

    /// A property of the value of the property that this property's value maps to, switching
    /// between inner properties as `strategy` says (`.latest` follows the newest one).
    ///
    /// - Parameters:
    ///   - strategy: How the inner properties' values are combined; `.latest` follows only the
    ///     newest inner property.
    ///   - transform: The inner property for a value; called with the current value and each
    ///     change.
    /// - Returns: A property of the inner properties' values.
    @inlinable
    public func flatMap<P: PropertyProtocol>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> P
    ) -> Property<P.Value> where P: SendableMetatype {
        lift { $0.flatMap(strategy) { transform($0).producer } }
    }
}

extension PropertyProtocol where Value: PropertyProtocol {
    /// A property of the inner properties' values, combined as `strategy` says.
    ///
    /// - Parameter strategy: How the inner properties' values are combined; `.latest` follows only
    ///   the newest inner property.
    /// - Returns: A property of the inner properties' values.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> Property<Value.Value> where Value: SendableMetatype {
        lift { $0.flatMap(strategy) { $0.producer } }
    }
}

extension PropertyProtocol where Value == Bool {
    /// A property of the logical NOT of the value.
    ///
    /// - Returns: A property of `!value`.
    @inlinable
    public func negate() -> Property<Bool> {
        lift { $0.negate() }
    }

    /// A property of the logical AND of this property's value and `property`'s.
    ///
    /// - Parameter property: The other operand.
    /// - Returns: A property of `self.value && property.value`, updated when either changes.
    @inlinable
    public func and<P: PropertyProtocol>(_ property: P) -> Property<Bool> where P.Value == Bool {
        Property(combining: [compositionRank, property.compositionRank], producer.and(property.producer))
    }

    /// A property of the logical OR of this property's value and `property`'s.
    ///
    /// - Parameter property: The other operand.
    /// - Returns: A property of `self.value || property.value`, updated when either changes.
    @inlinable
    public func or<P: PropertyProtocol>(_ property: P) -> Property<Bool> where P.Value == Bool {
        Property(combining: [compositionRank, property.compositionRank], producer.or(property.producer))
    }

    /// A property of the logical AND of the values of `properties` (`true` for none).
    ///
    /// - Parameter properties: The operands; none gives a constant `true`.
    /// - Returns: A property that is `true` while every operand is.
    @inlinable
    public static func all<P: PropertyProtocol, Properties: Collection>(_ properties: Properties) -> Property<Bool>
    where P.Value == Bool, Properties.Element == P {
        Property(combining: properties.map(\.compositionRank), SignalProducer.all(properties.map(\.producer)))
    }

    /// A property of the logical AND of the values of `properties`.
    ///
    /// - Parameter properties: The operands; none gives a constant `true`.
    /// - Returns: A property that is `true` while every operand is.
    @inlinable
    public static func all<P: PropertyProtocol>(_ properties: P...) -> Property<Bool> where P.Value == Bool {
        all(properties)
    }

    /// A property of the logical OR of the values of `properties` (`false` for none).
    ///
    /// - Parameter properties: The operands; none gives a constant `false`.
    /// - Returns: A property that is `true` while any operand is.
    @inlinable
    public static func any<P: PropertyProtocol, Properties: Collection>(_ properties: Properties) -> Property<Bool>
    where P.Value == Bool, Properties.Element == P {
        Property(combining: properties.map(\.compositionRank), SignalProducer.any(properties.map(\.producer)))
    }

    /// A property of the logical OR of the values of `properties`.
    ///
    /// - Parameter properties: The operands; none gives a constant `false`.
    /// - Returns: A property that is `true` while any operand is.
    @inlinable
    public static func any<P: PropertyProtocol>(_ properties: P...) -> Property<Bool> where P.Value == Bool {
        any(properties)
    }
}
