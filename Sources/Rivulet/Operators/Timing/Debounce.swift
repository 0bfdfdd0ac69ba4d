#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: State machine

/// The state of `debounce`: the latest value, waiting for a quiet `interval`.
struct DebounceStateMachine<Value, Error: Swift.Error>: TimedStateMachine {
    typealias Output = Value
    typealias OutputError = Error
    typealias Action = TimedAction<Output, OutputError>

    let interval: TimeInterval
    let discardWhenCompleted: Bool
    private var pending: Value?
    private var lastUpdated = Date.distantPast
    private var generation: UInt64 = 0
    private(set) var terminal: Signal<Value, Error>.Event?
    /// Completion is waiting for the pending value's quiet period to end.
    private var completesAfterPending = false

    init(interval: TimeInterval, discardWhenCompleted: Bool) {
        self.interval = interval
        self.discardWhenCompleted = discardWhenCompleted
    }

    mutating func receive(_ event: Signal<Value, Error>.Event, now: () -> Date) -> Action {
        switch event {
        case let .value(value):
            let now = now()
            pending = value
            lastUpdated = now
            generation &+= 1
            return .scheduleTimer(now.addingTimeInterval(interval), generation: generation)
        case .completed:
            generation &+= 1
            if !discardWhenCompleted, pending != nil {
                // The pending value still gets its quiet period, then completion follows it.
                completesAfterPending = true
                return .scheduleTimer(lastUpdated.addingTimeInterval(interval), generation: generation)
            }
            pending = nil
            terminal = event
            return .cancelTimerAndHop
        case .failed, .interrupted:
            generation &+= 1
            pending = nil
            terminal = event
            return .cancelTimerAndHop
        }
    }

    /// A timer fired; only the latest one counts.
    mutating func timerFired(generation fired: UInt64) -> Action {
        guard fired == generation, let value = pending else { return .none }
        pending = nil
        guard completesAfterPending else { return .emit(.value(value)) }
        terminal = .completed
        return .emitThenHop(value)
    }
}

// MARK: Stage

extension Signal.Event {
    /// The stage behind `debounce(_:on:discardWhenCompleted:)`.
    static func debounce(
        _ interval: TimeInterval,
        on scheduler: DateScheduler,
        discardWhenCompleted: Bool
    ) -> TimeShiftingTransform<Value, Error, Value, Error> {
        precondition(
            interval >= 0, "Rivulet: debounce(_:on:discardWhenCompleted:): interval is \(interval); it must be 0 or more")
        return { downstream, lifetime, upstream in
            TimedStage.running(
                DebounceStateMachine<Value, Error>(interval: interval, discardWhenCompleted: discardWhenCompleted),
                on: scheduler,
                downstream: downstream,
                lifetime: lifetime,
                upstream: upstream
            ).upstreamSink
        }
    }
}

// MARK: Operators

extension Signal {
    /// A signal that sends a value only once `interval` seconds have passed without a newer one;
    /// the latest value wins. Values and terminal events are sent on `scheduler`.
    ///
    /// A failure or interruption is forwarded at once and drops the pending value (E2, E4).
    ///
    /// - Parameters:
    ///   - interval: The quiet period in seconds; not negative (precondition).
    ///   - scheduler: Where and by whose clock the events are sent.
    ///   - discardWhenCompleted: Whether a value still waiting when this signal completes is
    ///     dropped (the default) or sent at the end of its quiet period, before the completion.
    /// - Returns: A signal of the values followed by a quiet period of `interval` seconds, sent on
    ///   `scheduler`; it ends, also on `scheduler`, when this signal ends.
    /// - Precondition: `interval` is 0 or more (not NaN).
    public func debounce(
        _ interval: TimeInterval,
        on scheduler: DateScheduler,
        discardWhenCompleted: Bool = true
    ) -> Signal<Value, Error> where Value: Sendable {
        flatMapTimeShifted(Event.debounce(interval, on: scheduler, discardWhenCompleted: discardWhenCompleted))
    }
}

extension SignalProducer {
    /// A producer that sends a value only once `interval` seconds have passed without a newer
    /// one; see `Signal.debounce(_:on:discardWhenCompleted:)`.
    ///
    /// - Parameters:
    ///   - interval: The quiet period in seconds; not negative (precondition).
    ///   - scheduler: Where and by whose clock the events are sent.
    ///   - discardWhenCompleted: Whether a value still waiting at completion is dropped (the
    ///     default) or sent at the end of its quiet period, before the completion.
    /// - Returns: A producer whose starts send the values followed by a quiet period of `interval`
    ///   seconds on `scheduler`, and end there when this producer's start ends.
    /// - Precondition: `interval` is 0 or more (not NaN).
    public func debounce(
        _ interval: TimeInterval,
        on scheduler: DateScheduler,
        discardWhenCompleted: Bool = true
    ) -> SignalProducer<Value, Error> where Value: Sendable {
        flatMapTimeShifted(Signal.Event.debounce(interval, on: scheduler, discardWhenCompleted: discardWhenCompleted))
    }
}
