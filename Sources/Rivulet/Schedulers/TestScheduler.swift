import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A scheduler with a virtual clock, for tests: time only moves when the test says so.
///
/// Scheduling never runs anything; `advance(...)`, `run()` and their `async` forms do, on the
/// calling thread. The rules:
///
/// - Actions run in date order; actions due at the same date run in the order they were
///   scheduled. A date that has already passed counts as "now".
/// - While an action runs, `currentDate` is the date it was due at.
/// - Work scheduled while advancing runs in the same advance if it falls due by its target.
/// - Disposing of the returned disposable cancels an action, or stops a repeating one.
/// - No action runs while the scheduler holds its lock, so an action may schedule more work,
///   read `currentDate`, or dispose of other actions.
/// - Repeating schedules run once at each due date passed by an advance: advancing 1 s over a
///   100 ms timer runs it ten times.
///
/// Virtual time has nanosecond resolution, counted from `startDate`: dates are rounded to the
/// nearest nanosecond, which keeps interval arithmetic exact, and dates more than about 292 years
/// from `startDate` are clamped. `DispatchTimeInterval` arguments are exact; `TimeInterval` and
/// `Date` arguments carry the rounding of `Double`.
///
/// The `async` forms of `advance` and `run` run on the main actor, as in ReactiveSwift, and pause
/// (`Task.yield()`) before and after each action so that tasks resumed by an action can run and
/// schedule their next step before time moves on. A task that sleeps on this scheduler from the
/// main actor (a `Task { }` created in a `@MainActor` test, say) is then stepped deterministically:
/// it schedules its wake-up, and runs from one `sleep` to the next, on the main actor, during
/// those pauses. A task sleeping elsewhere runs beside the engine on another thread; the engine
/// waits until it runs again and then, for a bounded number of yields, until it starts its next
/// `sleep` on this scheduler, which usually, but not provably, suffices. Tasks woken in other ways
/// (say, by a value an action sent) only get a few yields, so make sure they have suspended again
/// before advancing further.
public final class TestScheduler: DateScheduler {
    /// How many actions one `run()` may run before it decides the work never ends.
    static let runLimit = 1_000_000

    /// How many times the `async` forms yield to other tasks around each action.
    static let yieldsPerStep = 10

    /// At most how many times they yield for a task resumed from `sleep` to run again.
    static let maxYieldsForResumption = 100_000

    /// At most how many times they yield, after a task resumed from `sleep` off the main actor runs
    /// again, for it to start its next `sleep` on this scheduler. The wait ends as soon as it does.
    static let maxYieldsForNextSleep = 200

    private let state: Locked<TestSchedulerQueue>

    /// Tasks sleeping on this scheduler, as the async engine sees them.
    private let sleepers = Locked(TestSchedulerSleepers())

    /// The queue that keeps `observe(on:)` deliveries of different streams in order.
    @usableFromInline package let orderedDelivery = OrderedDeliveryQueue()

    /// Creates a test scheduler whose clock starts at `startDate`.
    ///
    /// - Parameters:
    ///   - startDate: The first value of `currentDate`. `rewind(by:)` cannot go before it.
    public init(startDate: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        state = Locked(TestSchedulerQueue(startDate: startDate))
    }

    /// The virtual clock: the start date, moved by `advance`, `run` and `rewind`.
    public var currentDate: Date {
        state.withLock { $0.nowDate }
    }

    /// The number of actions waiting to run; a repeating schedule counts once. The contract kit
    /// reads it to see work left behind by an interrupted or disposed-of operator.
    package var pendingActionCount: Int {
        state.withLock { $0.pendingCount }
    }

    // MARK: Scheduling

    /// Schedules `action` to run at the current date, on the next `advance()`.
    ///
    /// - Parameter action: The work to run.
    /// - Returns: A disposable that cancels the action.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        enqueue(action: action) { state in (state.now, state.nowDate) }
    }

    /// Schedules `action` to run when the clock reaches `date`.
    ///
    /// - Parameters:
    ///   - date: The virtual date the work is due at; a date before `currentDate` is due at once,
    ///     and runs on the next advance.
    ///   - action: The work to run.
    /// - Returns: A disposable that cancels the action.
    @discardableResult
    public func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> Disposable? {
        enqueue(action: action) { state in state.dueTime(for: date) }
    }

    /// Schedules `action` to run `delay` after the current date.
    ///
    /// - Parameters:
    ///   - delay: The delay. With `.never` the action never runs (not even in `run()`);
    ///     a negative delay means "now".
    ///   - action: The work to run when the virtual clock reaches its time.
    /// - Returns: A disposable that cancels the action.
    @discardableResult
    public func schedule(after delay: DispatchTimeInterval, action: @escaping @Sendable () -> Void) -> Disposable? {
        guard let nanoseconds = delay.nanosecondCount else { return AnyDisposable() }
        return enqueue(action: action) { state in state.dueTime(afterNanoseconds: nanoseconds) }
    }

    /// Schedules `action` to run at `date`, then every `interval`, until the returned disposable is
    /// disposed of.
    ///
    /// - Parameters:
    ///   - date: When the first run is due.
    ///   - interval: The time between runs; positive and not `.never` (precondition).
    ///   - leeway: Ignored: virtual time is exact.
    ///   - action: The work to run each time.
    /// - Returns: A disposable that stops the repetition.
    /// - Precondition: `interval` is greater than 0 and not `.never`.
    @discardableResult
    public func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .seconds(0),
        action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        let repeatInterval = interval.checkedRepeatInterval(for: "TestScheduler.schedule(after:interval:leeway:action:)")
        return enqueue(repeatInterval: repeatInterval, action: action) { state in state.dueTime(for: date) }
    }

    /// The exact form of `schedule(after: DispatchTimeInterval, interval:leeway:action:)`, which
    /// every `DateScheduler` has: the first run is due `delay` after the clock, in nanoseconds.
    /// With a delay of `.never` the action never runs.
    func scheduleRepeating(
        after delay: DispatchTimeInterval,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        let repeatInterval = interval.checkedRepeatInterval(for: "TestScheduler.schedule(after:interval:leeway:action:)")
        guard let nanoseconds = delay.nanosecondCount else { return AnyDisposable() }
        return enqueue(repeatInterval: repeatInterval, action: action) { state in
            state.dueTime(afterNanoseconds: nanoseconds)
        }
    }

    /// Adds an action at the time `dueTime` picks (under the lock, from the current clock).
    private func enqueue(
        repeatInterval: Int64? = nil,
        action: @escaping @Sendable () -> Void,
        dueTime: (TestSchedulerQueue) -> (offset: Int64, date: Date)
    ) -> Disposable {
        let id = state.withLock { state in
            let due = dueTime(state)
            return state.add(at: due.offset, date: due.date, repeatInterval: repeatInterval, action: action)
        }
        return AnyDisposable { [weak self] in
            self?.cancel(id)
        }
    }

    private func cancel(_ id: UInt64) {
        let removed = state.withLock { $0.cancel(id) }
        // The cancelled action is released here, after the lock.
        _ = removed
    }

    // MARK: Moving time

    /// Moves the clock forward by one nanosecond, running the actions due by then, including
    /// those they schedule for now: what "as soon as possible" means on a virtual clock, as in
    /// ReactiveSwift.
    public func advance() {
        advance(by: .nanoseconds(1))
    }

    /// Moves the clock forward by `interval`, running every action due on the way.
    ///
    /// - Parameters:
    ///   - interval: How far to move: not negative, not `.never` (precondition; use
    ///     `run()` to run everything).
    /// - Precondition: `interval` is 0 or more and not `.never`.
    public func advance(by interval: DispatchTimeInterval) {
        advance(through: target(advancingBy: interval))
    }

    /// Moves the clock forward by `interval` seconds, running every action due on the way.
    ///
    /// - Parameters:
    ///   - interval: How far to move, in seconds: finite and not negative (precondition).
    /// - Precondition: `interval` is finite and 0 or more.
    public func advance(by interval: TimeInterval) {
        advance(through: target(advancingBy: interval))
    }

    /// Moves the clock forward to `date`, running every action due by then. Afterwards
    /// `currentDate` is `date`.
    ///
    /// - Parameters:
    ///   - date: Not before `currentDate` (precondition; use `rewind(by:)` to go back).
    /// - Precondition: `date` is not before `currentDate`.
    public func advance(to date: Date) {
        advance(through: target(advancingTo: date))
    }

    /// Runs every pending action, in order, including the ones they schedule, until none is left,
    /// then leaves the clock at `Date.distantFuture`, as ReactiveSwift does (later than that if it
    /// was already later). Work scheduled afterwards counts from there.
    ///
    /// A repeating schedule that is never disposed of, or work that keeps scheduling more work,
    /// would make this go on forever. Rather than hang, `run()` stops with a precondition failure
    /// after one million actions; run such schedules for a bounded stretch of time with
    /// `advance(by:)` or `advance(to:)` instead. Actions with a delay of `.never` are never run.
    /// - Precondition: the pending work runs out within one million actions.
    public func run() {
        runActions(limit: Self.runLimit) { $0.takeNextOrEndRun() }
    }

    /// Moves the clock back by `interval` without running anything. Pending actions keep their
    /// dates, so they run when the clock reaches them again.
    ///
    /// - Parameters:
    ///   - interval: How far to move back: not negative, not `.never`, and not past the
    ///     start date (precondition).
    /// - Precondition: `interval` is 0 or more, not `.never`, and does not take the clock before the start date.
    public func rewind(by interval: DispatchTimeInterval) {
        guard let nanoseconds = interval.nanosecondCount else {
            preconditionFailure("Rivulet: TestScheduler.rewind(by:): interval is .never; it must be finite and 0 or more")
        }
        state.withLock { $0.rewind(by: nanoseconds) }
    }

    // MARK: Async forms

    /// Like `advance()`, but on the main actor, letting other tasks run around each action.
    @MainActor
    public func advance() async {
        await advance(by: .nanoseconds(1))
    }

    /// Like `advance(by:)`, but on the main actor, letting other tasks run around each action, so
    /// that tasks resumed at one date can schedule work that still falls within this advance.
    ///
    /// - Parameter interval: How far to move the virtual clock.
    /// - Precondition: `interval` is 0 or more and not `.never`.
    @MainActor
    public func advance(by interval: DispatchTimeInterval) async {
        await advance(through: target(advancingBy: interval))
    }

    /// Like `advance(by:)` with seconds, but on the main actor, letting other tasks run around
    /// each action.
    ///
    /// - Parameter interval: How far to move the virtual clock, in seconds.
    /// - Precondition: `interval` is finite and 0 or more.
    @MainActor
    public func advance(by interval: TimeInterval) async {
        await advance(through: target(advancingBy: interval))
    }

    /// Like `advance(to:)`, but on the main actor, letting other tasks run around each action.
    ///
    /// - Parameter date: The virtual date to move the clock to.
    /// - Precondition: `date` is not before `currentDate`.
    @MainActor
    public func advance(to date: Date) async {
        await advance(through: target(advancingTo: date))
    }

    /// Like `run()`, but on the main actor, letting other tasks run around each action; the same
    /// one-million-action bound applies, and the clock ends at `Date.distantFuture`.
    /// - Precondition: the pending work runs out within one million actions.
    @MainActor
    public func run() async {
        await runActionsYielding(limit: Self.runLimit) { $0.takeNextOrEndRun() }
    }

    // MARK: Engine

    private typealias Target = (offset: Int64, date: Date)

    /// Runs everything due by `target`, then sets the clock to it.
    private func advance(through target: Target) {
        runActions { $0.takeNext(dueBy: target.offset, orSettleAt: target.date) }
    }

    /// Like `advance(through:)`, yielding to other tasks around each action.
    @MainActor
    private func advance(through target: Target) async {
        await runActionsYielding { $0.takeNext(dueBy: target.offset, orSettleAt: target.date) }
    }

    private func target(advancingBy interval: DispatchTimeInterval) -> Target {
        guard let nanoseconds = interval.nanosecondCount else {
            preconditionFailure(
                "Rivulet: TestScheduler.advance(by:): interval is .never; it must be finite, use run() to run all pending work")
        }
        precondition(
            nanoseconds >= 0,
            "Rivulet: TestScheduler.advance(by:): interval is \(interval); time cannot move backwards, use rewind(by:)")
        return state.withLock { $0.dueTime(afterNanoseconds: nanoseconds) }
    }

    private func target(advancingBy seconds: TimeInterval) -> Target {
        precondition(
            seconds.isFinite,
            "Rivulet: TestScheduler.advance(by:): interval is \(seconds) s; it must be finite, use run() to run all pending work")
        precondition(
            seconds >= 0,
            "Rivulet: TestScheduler.advance(by:): interval is \(seconds) s; time cannot move backwards, use rewind(by:)")
        return target(advancingBy: DispatchTimeInterval(seconds: seconds))
    }

    private func target(advancingTo date: Date) -> Target {
        state.withLock { state in
            precondition(
                date >= state.nowDate,
                "Rivulet: TestScheduler.advance(to:): date is \(date); time cannot move backwards from \(state.nowDate), use rewind(by:)"
            )
            return (max(state.offset(of: date), state.now), date)
        }
    }

    /// Runs the actions `next` takes, one at a time, each outside the lock. `next` also settles the
    /// clock when it finds nothing more to run, in the same step, so that an action scheduled
    /// meanwhile from another thread is either run by this call or counted from the settled clock.
    private func runActions(limit: Int = .max, next: (inout TestSchedulerQueue) -> TestSchedulerQueue.Entry?) {
        var count = 0
        while let entry = state.withLock({ next(&$0) }) {
            count += 1
            checkRunLimit(count, limit)
            entry.action()
            state.withLock { $0.finish(entry) }
        }
    }

    /// Like `runActions`, yielding to other tasks before the first action and after each one.
    @MainActor
    private func runActionsYielding(
        limit: Int = .max,
        next: (inout TestSchedulerQueue) -> TestSchedulerQueue.Entry?
    ) async {
        await yieldToOtherTasks()
        var count = 0
        while let entry = state.withLock({ next(&$0) }) {
            count += 1
            checkRunLimit(count, limit)
            entry.action()
            state.withLock { $0.finish(entry) }
            await yieldToOtherTasks()
        }
    }

    private func checkRunLimit(_ count: Int, _ limit: Int) {
        precondition(
            count <= limit,
            """
            Rivulet: TestScheduler.run(): pending work is still there after \(limit) actions; it must \
            run out, and a repeating schedule that is never disposed of (or work that keeps \
            rescheduling itself) never does, dispose of it or use advance(by:) / advance(to:) to run \
            a bounded stretch of time
            """
        )
    }

    /// Lets other tasks run. First until every task that an action resumed from `sleep` is running
    /// again; on the main actor, that task has then already run to its next suspension. Then, for
    /// a task resumed elsewhere, which runs beside this one, until it has started its next `sleep`
    /// on this scheduler (it may never: it may end, or wait for something else). Both waits are
    /// bounded, in case a task never gets a thread. Then a few more times, for other tasks.
    @MainActor
    private func yieldToOtherTasks() async {
        var attempts = 0
        while sleepers.withLock({ $0.resuming > 0 }) && attempts < Self.maxYieldsForResumption {
            attempts += 1
            await Task.yield()
        }
        attempts = 0
        while sleepers.withLock({ $0.hasAwakeTasks }) && attempts < Self.maxYieldsForNextSleep {
            attempts += 1
            await Task.yield()
        }
        sleepers.withLock { $0.stopWaitingForAwakeTasks() }
        for _ in 0..<Self.yieldsPerStep {
            await Task.yield()
        }
    }
}

extension TestScheduler: RelativeDateScheduler {
    func sleeperWillSleep(_ sleeper: SleepingTask) {
        sleepers.withLock { $0.willSleep(sleeper) }
    }

    func sleeperWillResume(_ sleeper: SleepingTask) {
        sleepers.withLock { $0.willResume(sleeper) }
    }

    func sleeperDidResume(_ sleeper: SleepingTask, running: Bool) {
        sleepers.withLock { $0.didResume(sleeper, running: running) }
    }
}

extension TestScheduler: OrderedDeliveryScheduler {}
