extension Signal.Event {
    /// The stage behind `filter`: forwards the values that satisfy `isIncluded`, and every terminal event.
    @inlinable
    static func filterValues(
        _ isIncluded: @escaping (Value) -> Bool
    ) -> EventTransform<Value, Error, Value, Error> {
        { downstream, _ in
            { event in
                if case let .value(value) = event, !isIncluded(value) { return }
                downstream(event)
            }
        }
    }
}

extension Signal {
    /// A signal of the values that satisfy `isIncluded`.
    ///
    /// - Parameter isIncluded: The test; called once per value, on the thread that delivers it. A
    ///   value is forwarded when it returns `true`.
    /// - Returns: A signal of this signal's values that pass `isIncluded`, ending when this signal
    ///   ends.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Error> {
        // Written out for the signal, as `map` is: one call per event fewer than `Event.filterValues`.
        flatMapEventSharingTurn(into: { derived, _ in
            { event in
                if case let .value(value) = event {
                    if isIncluded(value) { derived.deliverInSharedTurn(event) }
                } else {
                    derived.terminateInSharedTurn(event)
                }
            }
        })
    }
}

extension SignalProducer {
    /// A producer of the values that satisfy `isIncluded`.
    ///
    /// - Parameter isIncluded: The test; called once per value, on the thread that delivers it. A
    ///   value is forwarded when it returns `true`.
    /// - Returns: A producer whose starts send the values of this producer's start that pass
    ///   `isIncluded`, and end when it ends.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.filterValues(isIncluded))
    }
}
