extension Signal.Event {
    /// The stage behind `reduce`: folds every value into a result that `nextPartialResult`
    /// updates in place, and sends the result once, when the stream completes. A failure or an
    /// interruption is forwarded at once, without a result.
    @inlinable
    static func reduceValues<U>(
        into initialResult: U,
        _ nextPartialResult: @escaping (inout U, Value) -> Void
    ) -> EventTransform<Value, Error, U, Error> {
        { downstream, _ in
            var result = initialResult
            return { event in
                switch event {
                case let .value(value): nextPartialResult(&result, value)
                case let .failed(error): downstream(.failed(error))
                case .completed:
                    downstream(.value(result))
                    downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal {
    /// A signal that sends one value when this signal completes: every value combined, in order,
    /// by `nextPartialResult`, starting from `initialResult` (sent as is if there were no values).
    ///
    /// - Parameters:
    ///   - initialResult: The result before the first value; sent as is if there is no value.
    ///   - nextPartialResult: Combines the result so far with the next value into the next result;
    ///     called once per value, in order.
    /// - Returns: A signal that sends the final result, then completes, when this signal completes;
    ///   a failure or an interruption is forwarded at once, without a result.
    @inlinable
    public func reduce<U>(_ initialResult: U, _ nextPartialResult: @escaping @Sendable (U, Value) -> U) -> Signal<U, Error> {
        flatMapEventSharingTurn(
            Event.reduceValues(into: initialResult) { result, value in
                result = nextPartialResult(result, value)
            })
    }

    /// A signal that sends one value when this signal completes: `initialResult` updated in place
    /// by `nextPartialResult` with every value, in order.
    ///
    /// - Parameters:
    ///   - initialResult: The result to update in place; sent as is if there is no value.
    ///   - nextPartialResult: Updates the result in place with the next value; called once per
    ///     value, in order.
    /// - Returns: A signal that sends the final result, then completes, when this signal completes;
    ///   a failure or an interruption is forwarded at once, without a result.
    @inlinable
    public func reduce<U>(into initialResult: U, _ nextPartialResult: @escaping @Sendable (inout U, Value) -> Void) -> Signal<
        U, Error
    > {
        flatMapEventSharingTurn(Event.reduceValues(into: initialResult, nextPartialResult))
    }
}

extension SignalProducer {
    /// A producer that sends one value when a start completes: every value combined, in order,
    /// by `nextPartialResult`, starting from `initialResult` (sent as is if there were no values).
    ///
    /// - Parameters:
    ///   - initialResult: The result before the first value; sent as is if there is no value. Each
    ///     start begins from it afresh.
    ///   - nextPartialResult: Combines the result so far with the next value into the next result;
    ///     called once per value, in order.
    /// - Returns: A producer that sends the final result, then completes, when the start completes;
    ///   a failure or an interruption is forwarded at once, without a result.
    @inlinable
    public func reduce<U>(_ initialResult: U, _ nextPartialResult: @escaping @Sendable (U, Value) -> U) -> SignalProducer<
        U, Error
    > {
        flatMapEvent(
            Signal.Event.reduceValues(into: initialResult) { result, value in
                result = nextPartialResult(result, value)
            })
    }

    /// A producer that sends one value when a start completes: `initialResult` updated in place
    /// by `nextPartialResult` with every value, in order.
    ///
    /// - Parameters:
    ///   - initialResult: The result to update in place; sent as is if there is no value. Each
    ///     start begins from it afresh.
    ///   - nextPartialResult: Updates the result in place with the next value; called once per
    ///     value, in order.
    /// - Returns: A producer that sends the final result, then completes, when the start completes;
    ///   a failure or an interruption is forwarded at once, without a result.
    @inlinable
    public func reduce<U>(into initialResult: U, _ nextPartialResult: @escaping @Sendable (inout U, Value) -> Void)
        -> SignalProducer<
            U, Error
        >
    {
        flatMapEvent(Signal.Event.reduceValues(into: initialResult, nextPartialResult))
    }
}
