extension Signal.Event {
    /// The stage behind `scanMap(into:_:)`, and through it every `scan`: keeps a state that
    /// `next` updates with each value, sending what `next` returns for that value.
    ///
    /// The state is created per stream (per start, for a producer), so starts never share it.
    @inlinable
    static func scanMapValues<State, U>(
        into initialState: State,
        _ next: @escaping (inout State, Value) -> U
    ) -> EventTransform<Value, Error, U, Error> {
        { downstream, _ in
            var state = initialState
            return { event in
                switch event {
                case let .value(value): downstream(.value(next(&state, value)))
                case let .failed(error): downstream(.failed(error))
                case .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal {
    /// A signal of running results: each value is combined with the previous result (starting
    /// from `initialResult`) by `nextPartialResult`, and the new result is sent.
    ///
    /// - Parameters:
    ///   - initialResult: The result before the first value.
    ///   - nextPartialResult: Combines the previous result with a value into the new result; called
    ///     once per value.
    /// - Returns: A signal of the new result after each value, ending when this signal ends.
    @inlinable
    public func scan<U>(_ initialResult: U, _ nextPartialResult: @escaping @Sendable (U, Value) -> U) -> Signal<U, Error> {
        flatMapEventSharingTurn(
            Event.scanMapValues(into: initialResult) { result, value in
                result = nextPartialResult(result, value)
                return result
            })
    }

    /// A signal of running results, where `nextPartialResult` updates the result in place (no
    /// copy per value), and the updated result is sent after each value.
    ///
    /// - Parameters:
    ///   - initialResult: The result before the first value.
    ///   - nextPartialResult: Updates the result with a value; called once per value.
    /// - Returns: A signal of the updated result after each value, ending when this signal ends.
    @inlinable
    public func scan<U>(into initialResult: U, _ nextPartialResult: @escaping @Sendable (inout U, Value) -> Void) -> Signal<
        U, Error
    > {
        flatMapEventSharingTurn(
            Event.scanMapValues(into: initialResult) { result, value in
                nextPartialResult(&result, value)
                return result
            })
    }

    /// A signal of what `next` returns for each value, given a state it carries from value to
    /// value: `next` returns the new state and the output, so the state itself stays private.
    ///
    /// - Parameters:
    ///   - initialState: The state before the first value.
    ///   - next: Returns the new state and the output for the current state and a value; called
    ///     once per value.
    /// - Returns: A signal of the outputs of `next`, one per value, ending when this signal ends.
    @inlinable
    public func scanMap<State, U>(_ initialState: State, _ next: @escaping @Sendable (State, Value) -> (State, U)) -> Signal<
        U, Error
    > {
        flatMapEventSharingTurn(
            Event.scanMapValues(into: initialState) { state, value in
                let (newState, output) = next(state, value)
                state = newState
                return output
            })
    }

    /// A signal of what `next` returns for each value, given a state it updates in place.
    ///
    /// - Parameters:
    ///   - initialState: The state before the first value.
    ///   - next: Updates the state with a value and returns the output; called once per value.
    /// - Returns: A signal of the outputs of `next`, one per value, ending when this signal ends.
    @inlinable
    public func scanMap<State, U>(into initialState: State, _ next: @escaping @Sendable (inout State, Value) -> U) -> Signal<
        U, Error
    > {
        flatMapEventSharingTurn(Event.scanMapValues(into: initialState, next))
    }
}

extension SignalProducer {
    /// A producer of running results: each value is combined with the previous result (starting
    /// from `initialResult`) by `nextPartialResult`, and the new result is sent. Each start
    /// begins again from `initialResult`.
    ///
    /// - Parameters:
    ///   - initialResult: The result before the first value of each start.
    ///   - nextPartialResult: Combines the previous result with a value into the new result; called
    ///     once per value.
    /// - Returns: A producer whose starts send the new result after each value, and end when this
    ///   producer's start ends.
    @inlinable
    public func scan<U>(_ initialResult: U, _ nextPartialResult: @escaping @Sendable (U, Value) -> U) -> SignalProducer<U, Error>
    {
        flatMapEvent(
            Signal.Event.scanMapValues(into: initialResult) { result, value in
                result = nextPartialResult(result, value)
                return result
            })
    }

    /// A producer of running results, where `nextPartialResult` updates the result in place, and
    /// the updated result is sent after each value. Each start begins again from `initialResult`.
    ///
    /// - Parameters:
    ///   - initialResult: The result before the first value of each start.
    ///   - nextPartialResult: Updates the result with a value; called once per value.
    /// - Returns: A producer whose starts send the updated result after each value, and end when
    ///   this producer's start ends.
    @inlinable
    public func scan<U>(into initialResult: U, _ nextPartialResult: @escaping @Sendable (inout U, Value) -> Void)
        -> SignalProducer<
            U, Error
        >
    {
        flatMapEvent(
            Signal.Event.scanMapValues(into: initialResult) { result, value in
                nextPartialResult(&result, value)
                return result
            })
    }

    /// A producer of what `next` returns for each value, given a state it carries from value to
    /// value. Each start begins again from `initialState`.
    ///
    /// - Parameters:
    ///   - initialState: The state before the first value of each start.
    ///   - next: Returns the new state and the output for the current state and a value; called
    ///     once per value.
    /// - Returns: A producer whose starts send the outputs of `next`, one per value, and end when
    ///   this producer's start ends.
    @inlinable
    public func scanMap<State, U>(_ initialState: State, _ next: @escaping @Sendable (State, Value) -> (State, U))
        -> SignalProducer<
            U, Error
        >
    {
        flatMapEvent(
            Signal.Event.scanMapValues(into: initialState) { state, value in
                let (newState, output) = next(state, value)
                state = newState
                return output
            })
    }

    /// A producer of what `next` returns for each value, given a state it updates in place. Each
    /// start begins again from `initialState`.
    ///
    /// - Parameters:
    ///   - initialState: The state before the first value of each start.
    ///   - next: Updates the state with a value and returns the output; called once per value.
    /// - Returns: A producer whose starts send the outputs of `next`, one per value, and end when
    ///   this producer's start ends.
    @inlinable
    public func scanMap<State, U>(into initialState: State, _ next: @escaping @Sendable (inout State, Value) -> U)
        -> SignalProducer<
            U, Error
        >
    {
        flatMapEvent(Signal.Event.scanMapValues(into: initialState, next))
    }
}
