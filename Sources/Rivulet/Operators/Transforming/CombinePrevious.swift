extension Signal.Event {
    /// The stage behind `combinePrevious`: pairs each value with the one before it. With an
    /// `initial` value the first value is paired with it; without one, the first value is only
    /// remembered.
    @inlinable
    static func combinePreviousValues(
        initial: Value?
    ) -> EventTransform<Value, Error, (Value, Value), Error> {
        { downstream, _ in
            var previous = initial
            return { event in
                switch event {
                case let .value(value):
                    let before = previous
                    previous = value
                    if let before { downstream(.value((before, value))) }
                case let .failed(error): downstream(.failed(error))
                case .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal {
    /// A signal of `(previous, current)` pairs; the first value is paired with `initial`.
    ///
    /// - Parameter initial: The value that stands as the previous one of the first value.
    /// - Returns: A signal of one `(previous, current)` pair per value, ending when this signal
    ///   ends.
    @inlinable
    public func combinePrevious(_ initial: Value) -> Signal<(Value, Value), Error> {
        flatMapEventSharingTurn(Event.combinePreviousValues(initial: initial))
    }

    /// A signal of `(previous, current)` pairs, starting at the second value (the first value has
    /// nothing before it, so it is only remembered).
    ///
    /// - Returns: A signal of one `(previous, current)` pair per value after the first, ending when
    ///   this signal ends.
    @inlinable
    public func combinePrevious() -> Signal<(Value, Value), Error> {
        flatMapEventSharingTurn(Event.combinePreviousValues(initial: nil))
    }
}

extension SignalProducer {
    /// A producer of `(previous, current)` pairs; the first value of each start is paired with
    /// `initial`.
    ///
    /// - Parameter initial: The value that stands as the previous one of each start's first value.
    /// - Returns: A producer whose starts send one `(previous, current)` pair per value, and end
    ///   when this producer's start ends.
    @inlinable
    public func combinePrevious(_ initial: Value) -> SignalProducer<(Value, Value), Error> {
        flatMapEvent(Signal.Event.combinePreviousValues(initial: initial))
    }

    /// A producer of `(previous, current)` pairs, starting at the second value of each start.
    ///
    /// - Returns: A producer whose starts send one `(previous, current)` pair per value after their
    ///   first, and end when this producer's start ends.
    @inlinable
    public func combinePrevious() -> SignalProducer<(Value, Value), Error> {
        flatMapEvent(Signal.Event.combinePreviousValues(initial: nil))
    }
}
