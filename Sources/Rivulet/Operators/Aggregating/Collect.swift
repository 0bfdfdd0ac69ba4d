/// The state of a `collect` stage: the values gathered since the last array was sent.
@usableFromInline
struct CollectBuffer<Value> {
    @usableFromInline var values: [Value] = []
    @usableFromInline var hasSent = false

    @inlinable
    init() {}

    /// Hands out the gathered values and starts a new array (keeping its capacity).
    @inlinable
    mutating func flush() -> [Value] {
        let collected = values
        values.removeAll(keepingCapacity: true)
        hasSent = true
        return collected
    }

    /// What completion sends: the values still gathered, or an empty array if nothing at all was
    /// sent before (so that a stream of no values still yields one array).
    @inlinable
    mutating func remainder() -> [Value]? {
        values.isEmpty && hasSent ? nil : flush()
    }
}

extension Signal.Event {
    /// The stage behind `collect`: gathers values; `shouldEmit` is asked, before each value is
    /// added, whether the gathered array should be sent first (`before`), or, after it is added,
    /// whether the array including it should be sent (`after`). Completion sends what remains.
    @inlinable
    static func collectValues(
        before shouldEmitBefore: (([Value], Value) -> Bool)?,
        after shouldEmitAfter: (([Value]) -> Bool)?
    ) -> EventTransform<Value, Error, [Value], Error> {
        { downstream, _ in
            var buffer = CollectBuffer<Value>()
            return { event in
                switch event {
                case let .value(value):
                    if let shouldEmitBefore, shouldEmitBefore(buffer.values, value) {
                        downstream(.value(buffer.flush()))
                    }
                    buffer.values.append(value)
                    if let shouldEmitAfter, shouldEmitAfter(buffer.values) {
                        downstream(.value(buffer.flush()))
                    }
                case let .failed(error): downstream(.failed(error))
                case .completed:
                    if let remainder = buffer.remainder() { downstream(.value(remainder)) }
                    downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

/// Checks the argument of `collect(count:)`.
@usableFromInline
func precheckCollectCount(_ count: Int) {
    precondition(count > 0, "Rivulet: collect(count:): count is \(count); it must be greater than 0")
}

extension Signal {
    /// A signal that sends every value of this signal as one array when it completes (an empty
    /// array if there were none).
    ///
    /// - Returns: A signal that sends one array of all the values when this signal completes; a
    ///   failure or an interruption is forwarded at once, and the values gathered are dropped.
    @inlinable
    public func collect() -> Signal<[Value], Error> {
        flatMapEventSharingTurn(Event.collectValues(before: nil, after: nil))
    }

    /// A signal of arrays of `count` values; when this signal completes, the values left over are
    /// sent as a shorter array. `count` must be greater than 0.
    ///
    /// - Parameter count: How many values each array holds; greater than 0 (precondition).
    /// - Returns: A signal of arrays of `count` values, then of the values left over when this
    ///   signal completes; a failure or an interruption is forwarded at once, and the values
    ///   gathered are dropped.
    /// - Precondition: `count` is greater than 0.
    @inlinable
    public func collect(count: Int) -> Signal<[Value], Error> {
        precheckCollectCount(count)
        return flatMapEventSharingTurn(Event.collectValues(before: nil, after: { $0.count == count }))
    }

    /// A signal of arrays of values: each value is added to the array, which is sent (and a new
    /// one started) whenever `shouldEmit` returns `true` for it. Completion sends what remains.
    ///
    /// - Parameter shouldEmit: Sees the array each time a value has been added to it, and returns
    ///   `true` to send it; called once per value, in order.
    /// - Returns: A signal of the arrays `shouldEmit` sends, then of the values left over when this
    ///   signal completes; a failure or an interruption is forwarded at once, and the values
    ///   gathered are dropped.
    @inlinable
    public func collect(_ shouldEmit: @escaping @Sendable (_ collectedValues: [Value]) -> Bool) -> Signal<[Value], Error> {
        flatMapEventSharingTurn(Event.collectValues(before: nil, after: shouldEmit))
    }

    /// A signal of arrays of values: before each value is added, `shouldEmit` sees the array so
    /// far and the new value; if it returns `true` the array is sent and the new value starts the
    /// next one. Completion sends what remains.
    ///
    /// - Parameter shouldEmit: Sees the array so far and the next value before the value is added,
    ///   and returns `true` to send the array first, the value then starting the next one; called
    ///   once per value, in order.
    /// - Returns: A signal of the arrays `shouldEmit` sends, then of the values left over when this
    ///   signal completes; a failure or an interruption is forwarded at once, and the values
    ///   gathered are dropped.
    @inlinable
    public func collect(_ shouldEmit: @escaping @Sendable (_ collected: [Value], _ latest: Value) -> Bool) -> Signal<
        [Value], Error
    > {
        flatMapEventSharingTurn(Event.collectValues(before: shouldEmit, after: nil))
    }
}

extension SignalProducer {
    /// A producer that sends every value of a start as one array when it completes (an empty
    /// array if there were none).
    ///
    /// - Returns: A producer that sends one array of all the values when the start completes; a
    ///   failure or an interruption is forwarded at once, and the values gathered are dropped.
    @inlinable
    public func collect() -> SignalProducer<[Value], Error> {
        flatMapEvent(Signal.Event.collectValues(before: nil, after: nil))
    }

    /// A producer of arrays of `count` values; at completion, the values left over are sent as a
    /// shorter array. `count` must be greater than 0.
    ///
    /// - Parameter count: How many values each array holds; greater than 0 (precondition).
    /// - Returns: A producer of arrays of `count` values, then of the values left over when the
    ///   start completes; a failure or an interruption is forwarded at once, and the values
    ///   gathered are dropped.
    /// - Precondition: `count` is greater than 0.
    @inlinable
    public func collect(count: Int) -> SignalProducer<[Value], Error> {
        precheckCollectCount(count)
        return flatMapEvent(Signal.Event.collectValues(before: nil, after: { $0.count == count }))
    }

    /// A producer of arrays of values: each value is added to the array, which is sent (and a new
    /// one started) whenever `shouldEmit` returns `true` for it. Completion sends what remains.
    ///
    /// - Parameter shouldEmit: Sees the array each time a value has been added to it, and returns
    ///   `true` to send it; called once per value, in order.
    /// - Returns: A producer of the arrays `shouldEmit` sends, then of the values left over when
    ///   the start completes; a failure or an interruption is forwarded at once, and the values
    ///   gathered are dropped.
    @inlinable
    public func collect(_ shouldEmit: @escaping @Sendable (_ collectedValues: [Value]) -> Bool) -> SignalProducer<[Value], Error>
    {
        flatMapEvent(Signal.Event.collectValues(before: nil, after: shouldEmit))
    }

    /// A producer of arrays of values: before each value is added, `shouldEmit` sees the array so
    /// far and the new value; if it returns `true` the array is sent and the new value starts the
    /// next one. Completion sends what remains.
    ///
    /// - Parameter shouldEmit: Sees the array so far and the next value before the value is added,
    ///   and returns `true` to send the array first, the value then starting the next one; called
    ///   once per value, in order.
    /// - Returns: A producer of the arrays `shouldEmit` sends, then of the values left over when
    ///   the start completes; a failure or an interruption is forwarded at once, and the values
    ///   gathered are dropped.
    @inlinable
    public func collect(_ shouldEmit: @escaping @Sendable (_ collected: [Value], _ latest: Value) -> Bool) -> SignalProducer<
        [Value], Error
    > {
        flatMapEvent(Signal.Event.collectValues(before: shouldEmit, after: nil))
    }
}
