extension Signal.Event {
    /// The stage behind `skipRepeats`: drops each value equivalent to the last value it let through.
    @inlinable
    static func skipRepeats(
        _ isEquivalent: @escaping (Value, Value) -> Bool
    ) -> EventTransform<Value, Error, Value, Error> {
        { downstream, _ in
            var previous: Value?
            return { event in
                switch event {
                case let .value(value):
                    if let last = previous, isEquivalent(last, value) { return }
                    previous = value
                    downstream(event)
                case .failed, .completed, .interrupted:
                    downstream(event)
                }
            }
        }
    }
}

extension Signal {
    /// A signal that drops each value equivalent, by `isEquivalent`, to the last value it sent.
    ///
    /// The first value always passes. `isEquivalent` receives the last sent value, then the new one.
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping (Value, Value) -> Bool) -> Signal<Value, Error> {
        flatMapEvent(Event.skipRepeats(isEquivalent))
    }
}

extension Signal where Value: Equatable {
    /// A signal that drops each value equal to the last value it sent.
    @inlinable
    public func skipRepeats() -> Signal<Value, Error> {
        flatMapEvent(Event.skipRepeats(==))
    }
}

extension SignalProducer {
    /// A producer that drops each value equivalent, by `isEquivalent`, to the last value it sent.
    ///
    /// The first value always passes. `isEquivalent` receives the last sent value, then the new one.
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping (Value, Value) -> Bool) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.skipRepeats(isEquivalent))
    }
}

extension SignalProducer where Value: Equatable {
    /// A producer that drops each value equal to the last value it sent.
    @inlinable
    public func skipRepeats() -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.skipRepeats(==))
    }
}
