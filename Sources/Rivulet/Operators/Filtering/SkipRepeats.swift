extension Signal.Event {
    /// The stage behind `skipRepeats`: drops each value equivalent to the value received just
    /// before it (sent or dropped), as ReactiveSwift does.
    @inlinable
    static func skipRepeats(
        _ isEquivalent: @escaping (Value, Value) -> Bool
    ) -> EventTransform<Value, Error, Value, Error> {
        { downstream, _ in
            var previous: Value?
            return { event in
                switch event {
                case let .value(value):
                    let isRepeat = previous.map { isEquivalent($0, value) } ?? false
                    previous = value
                    if !isRepeat { downstream(event) }
                case .failed, .completed, .interrupted:
                    downstream(event)
                }
            }
        }
    }
}

extension Signal {
    /// A signal that drops each value equivalent, by `isEquivalent`, to the value just before it.
    ///
    /// The first value always passes. `isEquivalent` receives the preceding value (whether it was
    /// sent or dropped), then the new one.
    ///
    /// - Parameter isEquivalent: Called for each value after the first, with the value before it
    ///   and the value itself; `true` drops the value.
    /// - Returns: A signal of this signal's values without the repeats, ending when this signal
    ///   ends.
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal<Value, Error> {
        flatMapEventSharingTurn(Event.skipRepeats(isEquivalent))
    }
}

extension Signal where Value: Equatable {
    /// A signal that drops each value equal to the value just before it.
    ///
    /// - Returns: A signal of this signal's values without the repeats, ending when this signal
    ///   ends.
    @inlinable
    public func skipRepeats() -> Signal<Value, Error> {
        flatMapEventSharingTurn(Event.skipRepeats(==))
    }
}

extension SignalProducer {
    /// A producer that drops each value equivalent, by `isEquivalent`, to the value just before it.
    ///
    /// The first value always passes. `isEquivalent` receives the preceding value (whether it was
    /// sent or dropped), then the new one.
    ///
    /// - Parameter isEquivalent: Called for each value of a start after its first, with the value
    ///   before it and the value itself; `true` drops the value.
    /// - Returns: A producer whose starts send the values without the repeats, and end when this
    ///   producer's start ends.
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.skipRepeats(isEquivalent))
    }
}

extension SignalProducer where Value: Equatable {
    /// A producer that drops each value equal to the value just before it.
    ///
    /// - Returns: A producer whose starts send the values without the repeats, and end when this
    ///   producer's start ends.
    @inlinable
    public func skipRepeats() -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.skipRepeats(==))
    }
}
