// MARK: State machine

/// The state of `lazyMap(on:transform:)`: the latest value not yet transformed.
struct LazyMapStateMachine<Value, Error: Swift.Error> {
    /// What the driver must do after an input.
    enum Action {
        case none
        /// Ask the scheduler for a callback that transforms the latest value.
        case scheduleTransform
        /// Transform this value on the scheduler and send the result.
        case transform(Value)
        /// Cancel the pending transform and schedule the terminal hop.
        case cancelAndHop
        /// Schedule the terminal hop (after the pending transform).
        case hop
    }

    private var latest: Value?
    private var isScheduled = false
    private(set) var terminal: Signal<Value, Error>.Event?

    mutating func receive(_ event: Signal<Value, Error>.Event) -> Action {
        switch event {
        case let .value(value):
            // A newer value supersedes one still waiting: only the latest is transformed.
            latest = value
            if isScheduled { return .none }
            isScheduled = true
            return .scheduleTransform
        case .completed, .failed:
            terminal = event
            return .hop
        case .interrupted:
            latest = nil
            terminal = event
            return .cancelAndHop
        }
    }

    /// The transform callback is due.
    mutating func transformDue() -> Action {
        isScheduled = false
        guard let value = latest else { return .none }
        latest = nil
        return .transform(value)
    }

    /// The terminal hop is due. Returns a value still waiting, to transform and send before the
    /// terminal event (completion and failure never overtake a value).
    mutating func hopDue() -> Value? {
        defer { latest = nil }
        return latest
    }
}

// MARK: Stage

extension Signal.Event {
    /// The stage behind `lazyMap(on:transform:)`.
    static func lazyMap<U>(
        on scheduler: Scheduler,
        transform: @escaping @Sendable (Value) -> U
    ) -> TimeShiftingTransform<Value, Error, U, Error> {
        { downstream, lifetime, upstream in
            var state = LazyMapStateMachine<Value, Error>()
            let stage = TimedStage<Value, Error, U, Error>(
                downstream: downstream, lifetime: lifetime, upstream: upstream, interruptingOn: scheduler
            ) { stage, input in
                let action: LazyMapStateMachine<Value, Error>.Action
                switch input {
                case let .upstream(event): action = state.receive(event)
                case .timer: action = state.transformDue()
                case .hop:
                    if let value = state.hopDue() { stage.emit(.value(transform(value))) }
                    switch state.terminal {
                    case let .failed(error)?: stage.emit(.failed(error))
                    case .completed?: stage.emit(.completed)
                    case .interrupted?: stage.emit(.interrupted)
                    case .value?, nil: break
                    }
                    return
                }
                switch action {
                case .none: break
                case .scheduleTransform: stage.scheduleTimer(on: scheduler, generation: 0)
                case let .transform(value): stage.emit(.value(transform(value)))
                case .cancelAndHop:
                    stage.timer.inner = nil
                    stage.scheduleHop(on: scheduler)
                case .hop: stage.scheduleHop(on: scheduler)
                }
            }
            return stage.upstreamSink
        }
    }
}

// MARK: Operators

extension Signal {
    /// A signal of values transformed on `scheduler`, where a value superseded by a newer one
    /// before the scheduler got to it is never transformed.
    ///
    /// Use it for costly transforms of fast-changing values where only the latest result
    /// matters. Completion and failure are delivered on the scheduler after the last value;
    /// interruption cancels a transform not yet run.
    ///
    /// - Parameters:
    ///   - scheduler: Where the transform runs and the events are delivered.
    ///   - transform: The transform; it runs on `scheduler`, hence `@Sendable`.
    /// - Returns: A signal of the transformed values, delivered on `scheduler`; it ends, also on
    ///   `scheduler`, when this signal ends.
    public func lazyMap<U>(on scheduler: Scheduler, transform: @escaping @Sendable (Value) -> U) -> Signal<U, Error>
    where Value: Sendable {
        flatMapTimeShifted(Event.lazyMap(on: scheduler, transform: transform))
    }
}

extension SignalProducer {
    /// A producer of values transformed on `scheduler`, skipping values superseded before the
    /// scheduler got to them; see `Signal.lazyMap(on:transform:)`.
    ///
    /// - Parameters:
    ///   - scheduler: Where the transform runs and the events are delivered.
    ///   - transform: The transform; it runs on `scheduler`, hence `@Sendable`.
    /// - Returns: A producer whose starts send the transformed values on `scheduler`, and end, also
    ///   on `scheduler`, when this producer's start ends.
    public func lazyMap<U>(
        on scheduler: Scheduler,
        transform: @escaping @Sendable (Value) -> U
    ) -> SignalProducer<U, Error> where Value: Sendable {
        flatMapTimeShifted(Signal.Event.lazyMap(on: scheduler, transform: transform))
    }
}
