extension Signal.Event {
    /// The stage behind `uniqueValues`: lets a value through only if its identity is new.
    ///
    /// The identities seen so far are kept until the stream ends.
    @usableFromInline
    static func uniqueValues<Identity: Hashable>(
        _ transform: @escaping (Value) -> Identity
    ) -> EventTransform<Value, Error, Value, Error> {
        { downstream, _ in
            var seen = Set<Identity>()
            return { event in
                switch event {
                case let .value(value):
                    if seen.insert(transform(value)).inserted { downstream(event) }
                case .failed, .completed, .interrupted:
                    seen = []
                    downstream(event)
                }
            }
        }
    }
}

extension Signal {
    /// A signal of the values whose identity, given by `transform`, has not been seen before.
    ///
    /// Every identity is remembered until the signal ends, so memory grows with the number of
    /// distinct identities.
    ///
    /// - Parameter transform: The identity of a value; called once per value.
    /// - Returns: A signal of this signal's values whose identity is new, ending when this signal
    ///   ends.
    @inlinable
    public func uniqueValues<Identity: Hashable>(_ transform: @escaping @Sendable (Value) -> Identity) -> Signal<Value, Error> {
        flatMapEventSharingTurn(Event.uniqueValues(transform))
    }
}

extension Signal where Value: Hashable {
    /// A signal of the values not sent before; every value is remembered until the signal ends.
    ///
    /// - Returns: A signal of this signal's values not sent before, ending when this signal ends.
    @inlinable
    public func uniqueValues() -> Signal<Value, Error> {
        flatMapEventSharingTurn(Event.uniqueValues { $0 })
    }
}

extension SignalProducer {
    /// A producer of the values whose identity, given by `transform`, has not been seen before in
    /// this start.
    ///
    /// Every identity is remembered until the start ends, so memory grows with the number of
    /// distinct identities.
    ///
    /// - Parameter transform: The identity of a value; called once per value.
    /// - Returns: A producer whose starts send the values whose identity is new in that start, and
    ///   end when this producer's start ends.
    @inlinable
    public func uniqueValues<Identity: Hashable>(
        _ transform: @escaping @Sendable (Value) -> Identity
    ) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.uniqueValues(transform))
    }
}

extension SignalProducer where Value: Hashable {
    /// A producer of the values not sent before in this start.
    ///
    /// - Returns: A producer whose starts send the values not sent before in that start, and end
    ///   when this producer's start ends.
    @inlinable
    public func uniqueValues() -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.uniqueValues { $0 })
    }
}
