import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The engine shared by the time-based operators (delay, throttle, debounce, timeout,
// collect(every:), lazyMap, throttle(while:)).
//
// Such an operator has two sources of input: its upstream and the scheduler that calls it back.
// Both enter through one `SerialInbox`, so the operator's state machine (a pure struct per
// operator) sees one input at a time and needs no lock; scheduler callbacks carry only a small
// `Sendable` tag, never a value, so values never have to cross a `@Sendable` boundary. Downstream
// events are sent from the inbox's handler, with no lock held (O7).
//
// Terminal events follow ReactiveSwift: a failure or interruption from upstream is never delayed,
// but, like every other event of these operators, it reaches downstream on the scheduler (a
// "hop": scheduled for now, not after the interval). A callback already due before the hop runs
// first, in the scheduler's order.

/// An input of a time-based stage.
enum TimedInput<Value, Error: Swift.Error> {
    /// An event from upstream.
    case upstream(Signal<Value, Error>.Event)
    /// A timer fired; the number tells which one, so that a stale callback can be ignored.
    case timer(UInt64)
    /// A terminal event scheduled without delay is due.
    case hop
}

/// Runs one time-based stage: owns the inbox, the scheduled callbacks and the downstream sink.
///
/// All mutable state is touched only from the inbox's handler, one input at a time; the
/// disposables of scheduled callbacks are thread-safe on their own. The stage and its inbox
/// refer to each other until the stage finishes or its lifetime ends, when the inbox is closed
/// and the handler (with the user's closures) is released.
final class TimedStage<Value, Error: Swift.Error, Output, OutputError: Swift.Error> {
    typealias Input = TimedInput<Value, Error>

    private let downstream: EventSink<Output, OutputError>
    /// Set once in `init`, before any input can arrive.
    private(set) var inbox: SerialInbox<Input>!
    /// The stage's single timer, for operators that keep at most one pending callback.
    let timer = SerialDisposable()
    /// The pending terminal hop.
    private let hopDisposable = SerialDisposable()
    /// Callbacks that run one per input in order (delay); cancelled with the stage.
    let queuedTimers = ScheduledActions()
    /// Whether downstream has received its terminal event.
    private(set) var isFinished = false

    /// A stage whose inputs are handled by `handle(stage, input)`.
    init(
        downstream: @escaping EventSink<Output, OutputError>,
        lifetime: Lifetime,
        handle: @escaping (TimedStage, Input) -> Void
    ) {
        self.downstream = downstream
        inbox = SerialInbox { [self] input in
            if !isFinished { handle(self, input) }
        }
        let inbox = self.inbox!
        let timer = self.timer
        let hop = hopDisposable
        let queued = queuedTimers
        // The stream is gone: cancel every callback and release the handler.
        lifetime.observeEnded {
            timer.dispose()
            hop.dispose()
            queued.dispose()
            inbox.close()
        }
    }

    /// The sink upstream sends to.
    var upstreamSink: EventSink<Value, Error> {
        let inbox = self.inbox!
        return { event in inbox.send(.upstream(event)) }
    }

    /// Sends `event` downstream; after a terminal event the stage finishes.
    func emit(_ event: Signal<Output, OutputError>.Event) {
        guard !isFinished else { return }
        if event.isTerminating {
            finish()
        }
        downstream(event)
    }

    /// Stops the stage: cancels every callback and closes the inbox (inputs already queued are
    /// ignored, since the stage is finished).
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        timer.dispose()
        hopDisposable.dispose()
        queuedTimers.dispose()
        inbox.close()
    }

    /// Replaces the single timer by one that fires at `date` with tag `generation`.
    func scheduleTimer(at date: Date, on scheduler: DateScheduler, generation: UInt64) {
        let inbox = self.inbox!
        timer.inner = scheduler.schedule(after: date) { inbox.send(.timer(generation)) }
    }

    /// Replaces the single timer by one that runs as soon as `scheduler` can, with tag `generation`.
    func scheduleTimer(on scheduler: Scheduler, generation: UInt64) {
        let inbox = self.inbox!
        timer.inner = scheduler.schedule { inbox.send(.timer(generation)) }
    }

    /// Replaces the single timer by a repeating one.
    func scheduleRepeatingTimer(
        at date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        on scheduler: DateScheduler,
        generation: UInt64
    ) {
        let inbox = self.inbox!
        timer.inner = scheduler.schedule(after: date, interval: interval, leeway: leeway) {
            inbox.send(.timer(generation))
        }
    }

    /// Adds a callback at `date` to the queue of timers (one per queued input).
    func enqueueTimer(at date: Date, on scheduler: DateScheduler, generation: UInt64) {
        let inbox = self.inbox!
        queuedTimers.append(scheduler.schedule(after: date) { inbox.send(.timer(generation)) })
    }

    /// Asks `scheduler` to deliver `.hop` as soon as it can (no delay).
    func scheduleHop(on scheduler: Scheduler) {
        let inbox = self.inbox!
        hopDisposable.inner = scheduler.schedule { inbox.send(.hop) }
    }
}

/// The disposables of callbacks scheduled one per input, oldest first.
///
/// The oldest is dropped when its callback has run; disposing of the whole cancels every callback
/// still pending, and any later one at once.
final class ScheduledActions: Disposable {
    private struct State {
        var actions = FIFOQueue<Disposable?>()
        var isDisposed = false
    }

    private let state = Locked(State())

    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Adds the disposable of a newly scheduled callback.
    func append(_ disposable: Disposable?) {
        let rejected: Disposable? = state.withLock { state in
            if state.isDisposed { return disposable }
            state.actions.append(disposable)
            return nil
        }
        rejected?.dispose()
    }

    /// Forgets the oldest callback: it has run.
    func removeFirst() {
        let removed = state.withLock { $0.actions.popFirst() }
        // Released here, after the lock.
        _ = removed
    }

    func dispose() {
        let pending: ContiguousArray<Disposable??> = state.withLock { state in
            guard !state.isDisposed else { return [] }
            state.isDisposed = true
            return state.actions.removeAll()
        }
        for disposable in pending {
            disposable??.dispose()
        }
    }
}
