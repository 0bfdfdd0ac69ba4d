import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: State machine

/// The state of `collect(every:on:skipEmpty:discardWhenCompleted:)`: the values gathered since
/// the last tick.
struct CollectEveryStateMachine<Value, Error: Swift.Error>: TimedStateMachine {
    typealias Output = [Value]
    typealias OutputError = Error
    typealias Action = TimedAction<Output, OutputError>

    let skipEmpty: Bool
    let discardWhenCompleted: Bool
    private var values: [Value] = []
    /// Upstream completed; the next tick sends what is left, then completes.
    private var completesAtNextTick = false
    private(set) var terminal: Signal<[Value], Error>.Event?

    init(skipEmpty: Bool, discardWhenCompleted: Bool) {
        self.skipEmpty = skipEmpty
        self.discardWhenCompleted = discardWhenCompleted
    }

    /// An upstream event; the clock is not needed (ticks are periodic).
    mutating func receive(_ event: Signal<Value, Error>.Event, now _: () -> Date) -> Action {
        switch event {
        case let .value(value):
            values.append(value)
            return .none
        case .completed:
            if !discardWhenCompleted {
                completesAtNextTick = true
                return .none
            }
            values = []
            terminal = .completed
            return .cancelTimerAndHop
        case let .failed(error):
            values = []
            terminal = .failed(error)
            return .cancelTimerAndHop
        case .interrupted:
            values = []
            terminal = .interrupted
            return .cancelTimerAndHop
        }
    }

    /// The periodic timer ticked.
    mutating func timerFired(generation _: UInt64) -> Action {
        var batch: [Value]?
        if !skipEmpty || !values.isEmpty {
            batch = values
            values = []
        }
        if completesAtNextTick {
            return .emitAndComplete(batch)
        }
        return batch.map { .emit(.value($0)) } ?? .none
    }
}

// MARK: Stage

extension Signal.Event {
    /// The stage behind `collect(every:on:skipEmpty:discardWhenCompleted:)`.
    static func collect(
        every interval: DispatchTimeInterval,
        on scheduler: DateScheduler,
        skipEmpty: Bool,
        discardWhenCompleted: Bool
    ) -> TimeShiftingTransform<Value, Error, [Value], Error> {
        interval.checkTickInterval(for: "collect(every:on:skipEmpty:discardWhenCompleted:)")
        return { downstream, lifetime, upstream in
            let stage = TimedStage.running(
                CollectEveryStateMachine<Value, Error>(skipEmpty: skipEmpty, discardWhenCompleted: discardWhenCompleted),
                on: scheduler,
                downstream: downstream,
                lifetime: lifetime,
                upstream: upstream
            )
            stage.scheduleRepeatingTimer(
                at: scheduler.currentDate.addingTimeInterval(interval),
                interval: interval,
                leeway: interval * 0.1,
                on: scheduler,
                generation: 0
            )
            return stage.upstreamSink
        }
    }
}

// MARK: Operators

extension Signal {
    /// A signal that sends, every `interval`, the values received since the previous tick, as an
    /// array, on `scheduler`. The first tick is `interval` after the returned signal was created.
    ///
    /// Failure and interruption are forwarded at once (on the scheduler) and drop the values
    /// gathered so far.
    ///
    /// - Parameters:
    ///   - interval: The time between ticks: positive, not `.never` (precondition).
    ///   - scheduler: Where and by whose clock the arrays are sent.
    ///   - skipEmpty: Whether a tick with no new value sends nothing (rather than `[]`).
    ///   - discardWhenCompleted: Whether completion drops the values gathered since the last tick
    ///     and completes at once (the default), or waits for the next tick, sends them, then completes.
    /// - Returns: A signal of the arrays gathered between ticks, sent on `scheduler`; it ends, also
    ///   on `scheduler`, when this signal ends, or at the next tick after its completion when
    ///   `discardWhenCompleted` is `false`.
    /// - Precondition: `interval` is greater than 0 and not `.never`.
    public func collect(
        every interval: DispatchTimeInterval,
        on scheduler: DateScheduler,
        skipEmpty: Bool = false,
        discardWhenCompleted: Bool = true
    ) -> Signal<[Value], Error> where Value: Sendable {
        flatMapTimeShifted(
            Event.collect(every: interval, on: scheduler, skipEmpty: skipEmpty, discardWhenCompleted: discardWhenCompleted)
        )
    }
}

extension SignalProducer {
    /// A producer that sends, every `interval`, the values received since the previous tick; see
    /// `Signal.collect(every:on:skipEmpty:discardWhenCompleted:)`. Ticks count from each start.
    ///
    /// - Parameters:
    ///   - interval: The time between ticks: positive, not `.never` (precondition).
    ///   - scheduler: Where and by whose clock the arrays are sent.
    ///   - skipEmpty: Whether a tick with no new value sends nothing (rather than `[]`).
    ///   - discardWhenCompleted: Whether completion drops the values gathered since the last tick
    ///     (the default), or waits for the next tick to send them before completing.
    /// - Returns: A producer whose starts send the arrays gathered between ticks on `scheduler`,
    ///   and end there when this producer's start ends, or at the next tick after its completion
    ///   when `discardWhenCompleted` is `false`.
    /// - Precondition: `interval` is greater than 0 and not `.never`.
    public func collect(
        every interval: DispatchTimeInterval,
        on scheduler: DateScheduler,
        skipEmpty: Bool = false,
        discardWhenCompleted: Bool = true
    ) -> SignalProducer<[Value], Error> where Value: Sendable {
        flatMapTimeShifted(
            Signal.Event.collect(every: interval, on: scheduler, skipEmpty: skipEmpty, discardWhenCompleted: discardWhenCompleted)
        )
    }
}
