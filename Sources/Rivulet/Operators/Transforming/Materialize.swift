extension Signal.Event {
    /// The stage behind `materialize`: every event becomes a value. A terminal event is sent as a
    /// value and then ends the stream: `completed` after a failure or completion, `interrupted`
    /// after an interruption (an interrupted stream stays interrupted).
    @inlinable
    static func materializeEvents() -> EventTransform<Value, Error, Signal<Value, Error>.Event, Never> {
        { downstream, _ in
            { event in
                downstream(.value(event))
                switch event {
                case .value: break
                case .failed, .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }

    /// The stage behind `materializeResults`: values become successes and a failure becomes a
    /// `failure` value followed by completion; completion and interruption pass through.
    @inlinable
    static func materializeResultValues() -> EventTransform<Value, Error, Result<Value, Error>, Never> {
        { downstream, _ in
            { event in
                switch event {
                case let .value(value): downstream(.value(.success(value)))
                case let .failed(error):
                    downstream(.value(.failure(error)))
                    downstream(.completed)
                case .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal.Event where Error == Never {
    /// The stage behind `dematerialize`: the events carried as values become the stream's
    /// events. The first carried terminal event ends the stream; anything after it is ignored.
    @inlinable
    static func dematerializeEvents() -> EventTransform<Value, Never, Value.Value, Value.Error>
    where Value: EventProtocol {
        { downstream, _ in
            var terminated = false
            return { event in
                if terminated { return }
                switch event {
                case let .value(carrier):
                    let carried = carrier.event
                    terminated = carried.isTerminating
                    downstream(carried)
                case let .failed(never): switch never {}
                case .completed:
                    terminated = true
                    downstream(.completed)
                case .interrupted:
                    terminated = true
                    downstream(.interrupted)
                }
            }
        }
    }

    /// The stage behind `dematerializeResults`: a `success` becomes a value, a `failure` ends
    /// the stream with that error; anything after a failure is ignored. It is `dematerialize`
    /// with each result read as the event it stands for.
    @inlinable
    static func dematerializeResultValues<U, F>() -> EventTransform<Value, Never, U, F>
    where Value == Result<U, F> {
        { downstream, lifetime in
            let dematerialize = Signal<Signal<U, F>.Event, Never>.Event.dematerializeEvents()(downstream, lifetime)
            return { event in
                dematerialize(
                    event.map { result in
                        switch result {
                        case let .success(value): .value(value)
                        case let .failure(error): .failed(error)
                        }
                    })
            }
        }
    }
}

extension Signal {
    /// A signal that carries each of this signal's events as a value, so that failure and
    /// termination can be handled like data. It never fails.
    ///
    /// - Returns: A signal of this signal's events as values; after the value of a terminal event
    ///   it completes, or is interrupted if that event was an interruption.
    @inlinable
    public func materialize() -> Signal<Event, Never> {
        flatMapEventSharingTurn(Event.materializeEvents())
    }

    /// A signal that carries each value as `success` and a failure as a `failure` value, then
    /// completes. It never fails.
    ///
    /// - Returns: A signal of results that completes after the `failure` value or when this signal
    ///   completes, and is interrupted when this signal is.
    @inlinable
    public func materializeResults() -> Signal<Result<Value, Error>, Never> {
        flatMapEventSharingTurn(Event.materializeResultValues())
    }
}

extension Signal where Error == Never {
    /// The inverse of `materialize()`: a signal whose events are the events this signal carries
    /// as values.
    ///
    /// - Returns: A signal of the carried events: it ends with the first carried terminal event, or
    ///   when this signal ends.
    @inlinable
    public func dematerialize() -> Signal<Value.Value, Value.Error> where Value: EventProtocol {
        flatMapEventSharingTurn(Event.dematerializeEvents())
    }

    /// The inverse of `materializeResults()`: a signal that sends each `success` and fails with
    /// the first `failure`.
    ///
    /// - Returns: A signal of the `success` values that fails with the first `failure`, or ends
    ///   when this signal ends.
    @inlinable
    public func dematerializeResults<U, F>() -> Signal<U, F> where Value == Result<U, F> {
        flatMapEventSharingTurn(Event.dematerializeResultValues())
    }
}

extension SignalProducer {
    /// A producer that carries each event of this producer as a value, so that failure and
    /// termination can be handled like data. It never fails.
    ///
    /// - Returns: A producer whose starts send the events as values; after the value of a terminal
    ///   event a start completes, or is interrupted if that event was an interruption.
    @inlinable
    public func materialize() -> SignalProducer<Signal<Value, Error>.Event, Never> {
        flatMapEvent(Signal.Event.materializeEvents())
    }

    /// A producer that carries each value as `success` and a failure as a `failure` value, then
    /// completes. It never fails.
    ///
    /// - Returns: A producer whose starts send results; a start completes after the `failure` value
    ///   or when this producer's start completes, and is interrupted when it is.
    @inlinable
    public func materializeResults() -> SignalProducer<Result<Value, Error>, Never> {
        flatMapEvent(Signal.Event.materializeResultValues())
    }
}

extension SignalProducer where Error == Never {
    /// The inverse of `materialize()`: a producer whose events are the events this producer
    /// carries as values.
    ///
    /// - Returns: A producer whose starts send the carried events: a start ends with the first
    ///   carried terminal event, or when this producer's start ends.
    @inlinable
    public func dematerialize() -> SignalProducer<Value.Value, Value.Error> where Value: EventProtocol {
        flatMapEvent(Signal.Event.dematerializeEvents())
    }

    /// The inverse of `materializeResults()`: a producer that sends each `success` and fails
    /// with the first `failure`.
    ///
    /// - Returns: A producer whose starts send the `success` values and fail with the first
    ///   `failure`, or end when this producer's start ends.
    @inlinable
    public func dematerializeResults<U, F>() -> SignalProducer<U, F> where Value == Result<U, F> {
        flatMapEvent(Signal.Event.dematerializeResultValues())
    }
}
