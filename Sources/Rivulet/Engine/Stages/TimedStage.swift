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
// Both enter through one `Mailbox`, so the operator's state machine (a pure struct per operator)
// sees one input at a time and needs no lock; scheduler callbacks carry only a small `Sendable`
// tag, never a value, so values never have to cross a `@Sendable` boundary. Downstream events are
// sent from the mailbox's handler, with no lock held (O7).
//
// Who waits differs between the two sources:
// - upstream input never waits (`MailboxPolicy.queueForOwner`): it is queued for the busy thread,
//   which handles it next. Waiting could deadlock in a plain feedback loop: a scheduler callback
//   inside the stage, delivering, whose observer sends into the upstream source, while another
//   thread, inside that source, sends into the stage. Handling upstream input on the busy thread
//   is harmless: it only records the input and schedules (timeout's pass-through is queued only
//   while its timeout is going out, which ends the stage anyway);
// - a scheduler callback waits for its turn (`waitForTurn`) and is handled on its own thread, so
//   that what it sends downstream goes out on the scheduler. It never waits for anything but a
//   short upstream handling, so it cannot close a cycle.
//
// Terminal events follow ReactiveSwift: a failure or interruption from upstream is never delayed,
// but, like every other event of these operators, it reaches downstream on the scheduler (a
// "hop": scheduled for now, not after the interval). A callback already due before the hop runs
// first, in the scheduler's order.
//
// Disposal of a producer start follows ReactiveSwift too (issue 16): when the start's lifetime
// ends before the stage has sent its terminal event, the stage stops (what it still holds or has
// scheduled is dropped) and delivers `interrupted` on its scheduler. `timeout`, which ReactiveSwift
// applies per start as a signal operator, delivers it at once instead.
//
// On a producer, the upstream of these stages runs in a lifetime of its own (`UpstreamLifetime`),
// as ReactiveSwift's upstream is a start of its own: it ends as soon as the upstream has
// terminated and the stage has taken its terminal event, although that event reaches downstream
// later, on the scheduler. When the stage's start ends, the upstream ends before anything else of
// that start does; for `timeout`, which interrupts at once, it ends after downstream has been
// interrupted, as with ReactiveSwift's lifted operators (see `UpstreamLifetime.relaying`).

/// The stage of an operator that delivers on a scheduler: like an `EventTransform`, and on a
/// producer it also gets the lifetime its upstream runs in (`nil` on a signal, whose upstream is
/// another signal with a lifetime of its own).
@usableFromInline
typealias TimeShiftingTransform<Value, Error: Swift.Error, U, F: Swift.Error> =
    (_ downstream: @escaping EventSink<U, F>, _ lifetime: Lifetime, _ upstream: UpstreamLifetime?) -> EventSink<Value, Error>

/// The lifetime in which a producer stage that delivers on a scheduler runs its upstream.
///
/// ReactiveSwift builds these operators over a start of the upstream that has its own lifetime,
/// so the upstream's resources go as soon as it has terminated, while its terminal event is still
/// on its way to the scheduler; and the stage's start disposes of the upstream's start first of
/// all its resources. One per start: a composite and the `Lifetime` over it (the upstream's work
/// must see a lifetime that ends before the start's does).
@usableFromInline
struct UpstreamLifetime: Sendable {
    @usableFromInline let resources: CompositeDisposable
    @usableFromInline let lifetime: Lifetime

    @inlinable
    init() {
        // A producer start's kind, so that the source or stage nearest the source interrupts the
        // upstream chain when it ends early (as disposing of ReactiveSwift's upstream start does).
        resources = CompositeDisposable(leadingWithInterruption: ())
        lifetime = Lifetime(resources)
    }

    /// Ties the upstream to the stage's `lifetime`: it ends first when that ends.
    ///
    /// In a producer start, the upstream's end becomes the start's interruption entry: disposing
    /// of the start interrupts the upstream, and the stage delivers the interruption on its
    /// scheduler whatever the upstream does (unless it has already sent its terminal event), so
    /// the stages below are told at once to wait for it (`holdInterruption`). Elsewhere (an inner
    /// stream's lifetime), the upstream ends with the lifetime.
    ///
    /// - Returns: Whether `lifetime` is a producer start's.
    @inlinable
    func join(_ lifetime: Lifetime) -> Bool {
        let resources = self.resources
        let isStart = lifetime.setInterruptionEntry(asynchronous: true) {
            resources.dispose()
            return true
        }
        if isStart {
            lifetime.holdInterruption()
        } else {
            lifetime += resources
        }
        return isStart
    }

    /// The upstream has terminated and the stage has taken its terminal event: its resources go
    /// now, as ReactiveSwift's upstream start disposes of them after notifying its observer.
    @inlinable
    func upstreamDidTerminate() {
        resources.dispose()
    }
}

extension UpstreamLifetime {
    /// Runs an operator as ReactiveSwift runs one that it builds on a start of its upstream of its
    /// own (`lift`, `start(on:)`): the upstream runs in the returned lifetime, and a disposed
    /// start is interrupted below the operator at once, through a relay (an `on(…)` stage with no
    /// callbacks, the start's interruption entry), before the upstream's start is disposed of.
    ///
    /// - Returns: The upstream's lifetime, and the sink the operator sends to.
    @inlinable
    static func relaying<Value, Error>(
        to downstream: @escaping EventSink<Value, Error>,
        in lifetime: Lifetime
    ) -> (upstream: UpstreamLifetime, sink: EventSink<Value, Error>) {
        let relay = OnEventsStage(.none, disposed: nil, downstream: downstream)
        relay.enter(lifetime)
        let upstream = UpstreamLifetime()
        lifetime += upstream.resources
        return (upstream, relay.receive)
    }
}

extension Signal {
    /// A signal whose events are this signal's events passed through a time-shifting stage.
    @inlinable
    func flatMapTimeShifted<U, F>(_ transform: @escaping TimeShiftingTransform<Value, Error, U, F>) -> Signal<U, F> {
        flatMapEvent { downstream, lifetime in transform(downstream, lifetime, nil) }
    }
}

extension SignalProducer {
    /// A producer whose starts run a time-shifting stage after this producer's work, which runs in
    /// an `UpstreamLifetime` of its own.
    @inlinable
    func flatMapTimeShifted<U, F>(
        _ transform: @escaping TimeShiftingTransform<Value, Error, U, F>
    ) -> SignalProducer<U, F> {
        SignalProducer<U, F>.fused({ downstream, lifetime in
            let upstream = UpstreamLifetime()
            self.startInstance(transform(downstream, lifetime, upstream), upstream.lifetime)
        })
    }
}

/// An input of a time-based stage.
enum TimedInput<Value, Error: Swift.Error> {
    /// An event from upstream.
    case upstream(Signal<Value, Error>.Event)
    /// A timer fired; the number tells which one, so that a stale callback can be ignored.
    case timer(UInt64)
    /// A terminal event scheduled without delay is due.
    case hop
}

/// Runs one time-based stage: owns the mailbox, the scheduled callbacks and the downstream sink.
///
/// All mutable state is touched only from the mailbox's handler, one input at a time; the
/// disposables of scheduled callbacks are thread-safe on their own. The stage and its mailbox
/// refer to each other until the stage finishes or its lifetime ends, when the mailbox is closed
/// and the handler (with the user's closures) is released.
final class TimedStage<Value, Error: Swift.Error, Output, OutputError: Swift.Error> {
    typealias Input = TimedInput<Value, Error>

    /// What the mailbox handles: the operator's inputs, and the end of a producer start.
    enum StageInput {
        case input(Input)
        /// The producer start's lifetime has ended.
        case startEnded
        /// The interruption scheduled when the start ended is due.
        case interruptionDue
    }

    private let downstream: EventSink<Output, OutputError>
    /// Set once in `init`, before any input can arrive.
    private(set) var mailbox: Mailbox<StageInput>!
    /// Where a disposed start's interruption is delivered (`nil`: at once).
    private let interruptionScheduler: Scheduler?
    /// The producer start's lifetime has ended; only its interruption is still to be delivered.
    private var isEnding = false
    /// The stage's single timer, for operators that keep at most one pending callback.
    let timer = SerialDisposable()
    /// The pending terminal hop.
    private let hopDisposable = SerialDisposable()
    /// Callbacks that run one per input in order (delay); cancelled with the stage.
    let queuedTimers = ScheduledActions()
    /// Whether downstream has received its terminal event.
    private(set) var isFinished = false

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    /// A stage whose inputs are handled by `handle(stage, input)`.
    ///
    /// - Parameters:
    ///   - upstream: On a producer, the lifetime the upstream runs in (see `UpstreamLifetime`);
    ///     it ends when the upstream terminates, or when `lifetime` ends: first of all for a stage
    ///     that delivers on a scheduler, after downstream was interrupted for one that does not.
    ///   - interruptionScheduler: Where the interruption of a disposed producer start is
    ///     delivered; `nil` delivers it at once.
    init(
        downstream: @escaping EventSink<Output, OutputError>,
        lifetime: Lifetime,
        upstream: UpstreamLifetime? = nil,
        interruptingOn interruptionScheduler: Scheduler?,
        handle: @escaping (TimedStage, Input) -> Void
    ) {
        self.downstream = downstream
        self.interruptionScheduler = interruptionScheduler
        self.upstream = upstream
        mailbox = Mailbox(policy: .queueForOwner) { [self] stageInput in
            guard !isFinished else { return }
            switch stageInput {
            case let .input(input): if !isEnding { handle(self, input) }
            case .startEnded: endStart()
            case .interruptionDue: emit(.interrupted)
            }
        }
        let mailbox = self.mailbox!
        let isStart: Bool
        if let upstream, interruptionScheduler != nil {
            // Disposing of the start ends the upstream first, which interrupts it: that
            // interruption comes in through `upstreamSink`.
            isStart = upstream.join(lifetime)
        } else {
            isStart = lifetime.setInterruptionEntry(asynchronous: interruptionScheduler != nil) {
                mailbox.send(.input(.upstream(.interrupted)))
                return true
            }
            // A stage that interrupts at once (`timeout`, which ReactiveSwift lifts onto a start
            // of its upstream): the upstream ends after what follows has been interrupted.
            if let upstream { lifetime += upstream.resources }
        }
        if isStart {
            if interruptionScheduler != nil {
                startLifetime = lifetime
            }
            // Handled by the thread delivering on the stage if there is one, never waiting.
            lifetime.observeEnded { mailbox.send(.startEnded) }
            return
        }
        let timer = self.timer
        let hop = hopDisposable
        let queued = queuedTimers
        // The stream is gone: cancel every callback and release the handler.
        lifetime.observeEnded {
            timer.dispose()
            hop.dispose()
            queued.dispose()
            mailbox.close(.discardingAcceptedInputs)
        }
    }

    /// The lifetime of the producer start, for a stage that delivers its interruption on a
    /// scheduler: told when the stage receives an interruption, so that the stages below wait
    /// for it. Written in `init` only.
    private var startLifetime: Lifetime?
    /// On a producer, the lifetime the upstream runs in.
    private let upstream: UpstreamLifetime?

    /// The producer start has ended before this stage's terminal event: stop, and deliver
    /// `interrupted` (on the scheduler, or at once).
    private func endStart() {
        guard !isEnding else { return }
        isEnding = true
        timer.dispose()
        queuedTimers.dispose()
        guard let scheduler = interruptionScheduler else {
            emit(.interrupted)
            return
        }
        startLifetime?.holdInterruption()
        let mailbox = self.mailbox!
        // Replaces any terminal hop already scheduled: the interruption wins, as in ReactiveSwift.
        hopDisposable.inner = scheduler.schedule { mailbox.send(.interruptionDue, policy: .waitForTurn) }
    }

    /// The sink upstream sends to.
    var upstreamSink: EventSink<Value, Error> {
        let mailbox = self.mailbox!
        let lifetime = startLifetime
        let upstream = self.upstream
        return { event in
            if case .interrupted = event { lifetime?.holdInterruption() }
            mailbox.send(.input(.upstream(event)))
            if event.isTerminating { upstream?.upstreamDidTerminate() }
        }
    }

    /// Sends `event` downstream; after a terminal event the stage finishes.
    func emit(_ event: Signal<Output, OutputError>.Event) {
        guard !isFinished else { return }
        if event.isTerminating {
            finish()
        }
        downstream(event)
    }

    /// Stops the stage: cancels every callback and closes the mailbox (inputs already queued are
    /// dropped).
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        timer.dispose()
        hopDisposable.dispose()
        queuedTimers.dispose()
        mailbox.close(.discardingAcceptedInputs)
    }

    /// Replaces the single timer by one that fires at `date` with tag `generation`.
    func scheduleTimer(at date: Date, on scheduler: DateScheduler, generation: UInt64) {
        let mailbox = self.mailbox!
        timer.inner = scheduler.schedule(after: date) { mailbox.send(.input(.timer(generation)), policy: .waitForTurn) }
    }

    /// Replaces the single timer by one that runs as soon as `scheduler` can, with tag `generation`.
    func scheduleTimer(on scheduler: Scheduler, generation: UInt64) {
        let mailbox = self.mailbox!
        timer.inner = scheduler.schedule { mailbox.send(.input(.timer(generation)), policy: .waitForTurn) }
    }

    /// Replaces the single timer by a repeating one.
    func scheduleRepeatingTimer(
        at date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        on scheduler: DateScheduler,
        generation: UInt64
    ) {
        let mailbox = self.mailbox!
        timer.inner = scheduler.schedule(after: date, interval: interval, leeway: leeway) {
            mailbox.send(.input(.timer(generation)), policy: .waitForTurn)
        }
    }

    /// Adds a callback at `date` to the queue of timers (one per queued input).
    func enqueueTimer(at date: Date, on scheduler: DateScheduler, generation: UInt64) {
        let mailbox = self.mailbox!
        queuedTimers.append(scheduler.schedule(after: date) { mailbox.send(.input(.timer(generation)), policy: .waitForTurn) })
    }

    /// Asks `scheduler` to deliver `.hop` as soon as it can (no delay).
    func scheduleHop(on scheduler: Scheduler) {
        let mailbox = self.mailbox!
        hopDisposable.inner = scheduler.schedule { mailbox.send(.input(.hop), policy: .waitForTurn) }
    }
}

/// What a time-based stage's state machine asks its driver to do after an input: the one
/// vocabulary of delay, throttle, debounce and collect(every:).
enum TimedAction<Output, OutputError: Swift.Error> {
    case none
    /// Replace the single timer by one at this date, with this generation.
    case scheduleTimer(Date, generation: UInt64)
    /// Schedule a callback at this date for the event just queued (one callback per event).
    case enqueueTimer(Date)
    /// Schedule the terminal hop.
    case hop
    /// Cancel the single timer and schedule the terminal hop.
    case cancelTimerAndHop
    /// Send this event downstream.
    case emit(Signal<Output, OutputError>.Event)
    /// Send this value, then schedule the terminal hop: a terminal event that was waiting for a
    /// timer still takes one more hop, as every terminal event of ReactiveSwift's operators on a
    /// scheduler does, so it follows whatever other streams scheduled for the same moment.
    case emitThenHop(Output)
    /// Send this value (if any), then complete.
    case emitAndComplete(Output?)
}

/// The pure state machine of a time-based stage run by `TimedStage.running(_:on:downstream:lifetime:)`.
protocol TimedStateMachine {
    associatedtype Value
    associatedtype Error: Swift.Error
    associatedtype Output
    associatedtype OutputError: Swift.Error
    typealias Action = TimedAction<Output, OutputError>

    /// Whether the machine's timers are queued one per event (`enqueueTimer`) rather than a
    /// single one (`scheduleTimer`); the driver then forgets the oldest when a timer fires.
    static var queuesTimers: Bool { get }
    /// The terminal event to send when the hop is due, if any.
    var terminal: Signal<Output, OutputError>.Event? { get }

    /// An upstream event; `now` reads the scheduler's clock.
    mutating func receive(_ event: Signal<Value, Error>.Event, now: () -> Date) -> Action
    /// A timer fired, with the generation it was scheduled with.
    mutating func timerFired(generation: UInt64) -> Action
    /// The terminal hop is due.
    mutating func hopDue() -> Action
}

extension TimedStateMachine {
    static var queuesTimers: Bool { false }

    mutating func hopDue() -> Action {
        terminal.map(Action.emit) ?? .none
    }
}

extension TimedStage {
    /// A stage driven by `machine`: each input goes to the machine and its action is carried
    /// out, with no lock held (O7).
    static func running<Machine: TimedStateMachine>(
        _ machine: Machine,
        on scheduler: DateScheduler,
        downstream: @escaping EventSink<Output, OutputError>,
        lifetime: Lifetime,
        upstream: UpstreamLifetime?
    ) -> TimedStage
    where Machine.Value == Value, Machine.Error == Error, Machine.Output == Output, Machine.OutputError == OutputError {
        var machine = machine
        return TimedStage(downstream: downstream, lifetime: lifetime, upstream: upstream, interruptingOn: scheduler) {
            stage, input in
            let action: Machine.Action
            switch input {
            case let .upstream(event): action = machine.receive(event) { scheduler.currentDate }
            case let .timer(generation):
                if Machine.queuesTimers { stage.queuedTimers.removeFirst() }
                action = machine.timerFired(generation: generation)
            case .hop: action = machine.hopDue()
            }
            stage.perform(action, on: scheduler)
        }
    }

    private func perform(_ action: TimedAction<Output, OutputError>, on scheduler: DateScheduler) {
        switch action {
        case .none: break
        case let .scheduleTimer(date, generation): scheduleTimer(at: date, on: scheduler, generation: generation)
        case let .enqueueTimer(date): enqueueTimer(at: date, on: scheduler, generation: 0)
        case .hop: scheduleHop(on: scheduler)
        case .cancelTimerAndHop:
            timer.inner = nil
            scheduleHop(on: scheduler)
        case let .emit(event): emit(event)
        case let .emitThenHop(value):
            emit(.value(value))
            scheduleHop(on: scheduler)
        case let .emitAndComplete(value):
            if let value { emit(.value(value)) }
            emit(.completed)
        }
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
