#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: State machine

/// The state of `delay`: the events waiting for their time, oldest first.
///
/// Values and completion are each due `interval` after they arrived; a failure or interruption
/// skips the queue and hops onto the scheduler at once (E2, E4).
struct DelayStateMachine<Value, Error: Swift.Error>: TimedStateMachine {
    typealias Output = Value
    typealias OutputError = Error
    typealias Action = TimedAction<Output, OutputError>

    static var queuesTimers: Bool { true }

    let interval: TimeInterval
    private var pending = FIFOQueue<Signal<Value, Error>.Event>()
    private(set) var terminal: Signal<Value, Error>.Event?

    init(interval: TimeInterval) {
        self.interval = interval
    }

    mutating func receive(_ event: Signal<Value, Error>.Event, now: () -> Date) -> Action {
        switch event {
        case .value, .completed:
            pending.append(event)
            return .enqueueTimer(now().addingTimeInterval(interval))
        case .failed, .interrupted:
            terminal = event
            return .hop
        }
    }

    /// The oldest queued event is due (callbacks run in the order they were scheduled, and each
    /// delivers the oldest event, so the order holds even if the scheduler reorders them). The
    /// completion then takes the terminal hop, as in ReactiveSwift.
    mutating func timerFired(generation _: UInt64) -> Action {
        switch pending.popFirst() {
        case nil: return .none
        case .completed?:
            terminal = .completed
            return .hop
        case let event?: return .emit(event)
        }
    }

    /// The terminal hop is due: the failure or interruption goes out, and what was still waiting
    /// is dropped.
    mutating func hopDue() -> Action {
        defer { terminal = nil }
        _ = pending.removeAll()
        return terminal.map(Action.emit) ?? .none
    }
}

// MARK: Stage

extension Signal.Event {
    /// The stage behind `delay(_:on:)`.
    static func delay(
        _ interval: TimeInterval,
        on scheduler: DateScheduler
    ) -> TimeShiftingTransform<Value, Error, Value, Error> {
        precondition(interval >= 0, "Rivulet: delay(_:on:): interval is \(interval); it must be 0 or more")
        return { downstream, lifetime, upstream in
            TimedStage.running(
                DelayStateMachine<Value, Error>(interval: interval),
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
    /// A signal that sends each value and the completion `interval` seconds later, on `scheduler`.
    ///
    /// A failure or interruption is not delayed: it goes to `scheduler` at once, and values still
    /// waiting are dropped (E2, E4).
    ///
    /// - Parameters:
    ///   - interval: The delay in seconds; not negative (precondition).
    ///   - scheduler: Where and by whose clock the events are sent.
    /// - Returns: A signal of this signal's events, all sent on `scheduler`: each value and the
    ///   completion `interval` seconds after it arrived, a failure or interruption at once.
    /// - Precondition: `interval` is 0 or more (not NaN).
    public func delay(_ interval: TimeInterval, on scheduler: DateScheduler) -> Signal<Value, Error> where Value: Sendable {
        flatMapTimeShifted(Event.delay(interval, on: scheduler))
    }
}

extension SignalProducer {
    /// A producer that sends each value and the completion `interval` seconds later, on
    /// `scheduler`; failure and interruption are not delayed.
    ///
    /// - Parameters:
    ///   - interval: The delay in seconds; not negative (precondition).
    ///   - scheduler: Where and by whose clock the events are sent.
    /// - Returns: A producer whose starts send this producer's events on `scheduler`: each value
    ///   and the completion `interval` seconds after it arrived, a failure or interruption at once.
    /// - Precondition: `interval` is 0 or more (not NaN).
    public func delay(_ interval: TimeInterval, on scheduler: DateScheduler) -> SignalProducer<Value, Error>
    where Value: Sendable {
        flatMapTimeShifted(Signal.Event.delay(interval, on: scheduler))
    }
}
