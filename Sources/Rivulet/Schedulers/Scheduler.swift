import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Something that runs actions: now, later, or on another thread, depending on the scheduler.
///
/// A scheduler decides *where* and *when* an action runs, never whether it runs at all, unless the
/// disposable it returns is disposed of first. Actions cross to another context, so they are
/// `@Sendable`.
public protocol Scheduler: AnyObject, Sendable {
    /// Schedules `action` to run.
    ///
    /// - Parameters:
    ///   - action: The work to run.
    /// - Returns: A disposable that cancels the action if it has not started yet, or `nil` when the
    ///   scheduler cannot cancel (for example, because the action already ran synchronously).
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable?
}

/// A scheduler with a clock: it can run actions at a given date, once or repeatedly.
public protocol DateScheduler: Scheduler {
    /// The scheduler's idea of "now". Actions scheduled for a date run when this clock reaches it.
    var currentDate: Date { get }

    /// Schedules `action` to run once, no earlier than `date`.
    ///
    /// A date that has already passed means "as soon as possible".
    ///
    /// - Parameters:
    ///   - date: When the work is due.
    ///   - action: The work to run.
    /// - Returns: A disposable that cancels the action if it has not run yet, or `nil` when the
    ///   scheduler cannot cancel.
    @discardableResult
    func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> Disposable?

    /// Schedules `action` to run first at `date`, then every `interval` until the returned
    /// disposable is disposed of.
    ///
    /// - Parameters:
    ///   - date: When the first run is due.
    ///   - interval: The time between runs. It must be positive and not `.never`: a repeating
    ///     schedule that never repeats is a programming error and stops with a precondition failure.
    ///   - leeway: How late a run may be, which lets the system save power by grouping wake-ups.
    ///     Schedulers without a real clock ignore it.
    ///   - action: The work to run each time.
    /// - Returns: A disposable that stops the repetition, or `nil` when the scheduler cannot cancel.
    @discardableResult
    func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping @Sendable () -> Void
    ) -> Disposable?
}

extension DateScheduler {
    /// Schedules `action` to run first at `date`, then every `interval`, with a leeway of 10% of
    /// the interval.
    ///
    /// - Parameters:
    ///   - date: When the first run is due.
    ///   - interval: The time between runs; positive and not `.never`.
    ///   - action: The work to run each time.
    /// - Returns: A disposable that stops the repetition, or `nil` when the scheduler cannot cancel.
    /// - Precondition: `interval` is greater than 0 and not `.never`.
    @discardableResult
    public func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        schedule(after: date, interval: interval, leeway: interval * 0.1, action: action)
    }

    /// Schedules `action` to run first `delay` after `currentDate`, then every `interval`, until
    /// the returned disposable is disposed of.
    ///
    /// On a `TestScheduler` the delay is counted in exact virtual nanoseconds; on other schedulers
    /// it is added to `currentDate`.
    ///
    /// - Parameters:
    ///   - delay: The time until the first run. With `.never` the action never runs.
    ///   - interval: The time between runs; positive and not `.never`.
    ///   - leeway: How late a run may be; none by default.
    ///   - action: The work to run each time.
    /// - Returns: A disposable that stops the repetition, or `nil` when the scheduler cannot cancel.
    /// - Precondition: `interval` is greater than 0 and not `.never`.
    @discardableResult
    public func schedule(
        after delay: DispatchTimeInterval,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .seconds(0),
        action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        if let relative = self as? any RelativeDateScheduler {
            return relative.scheduleRepeating(after: delay, interval: interval, leeway: leeway, action: action)
        }
        return schedule(after: currentDate + delay, interval: interval, leeway: leeway, action: action)
    }
}

/// Rivulet's own schedulers that count time from "now" in exact steps (`TestScheduler`), so that
/// helpers such as `sleep(for:)` and `timer(interval:)` need not go through `Date` arithmetic,
/// whose rounding could make a wait of 100 ms end a few nanoseconds after 100 ms of virtual time.
///
/// Such a scheduler is also told about the tasks sleeping on it (when one starts a sleep, when one
/// of its actions resumes one, and when that task runs again), so that its async `advance` can let
/// the task reach its next sleep before moving time on.
protocol RelativeDateScheduler: DateScheduler {
    /// The task `sleeper` is about to schedule its wake-up on this scheduler.
    func sleeperWillSleep(_ sleeper: SleepingTask)

    /// A sleeping task is about to be resumed by one of this scheduler's actions.
    func sleeperWillResume(_ sleeper: SleepingTask)

    /// A task that `sleeperWillResume` announced is running again (`running`), or will not be
    /// resumed after all (its sleep had already ended by cancellation).
    func sleeperDidResume(_ sleeper: SleepingTask, running: Bool)

    @discardableResult
    func schedule(after delay: DispatchTimeInterval, action: @escaping @Sendable () -> Void) -> Disposable?

    /// `schedule(after:interval:leeway:action:)` with a delay, counted in the scheduler's exact
    /// steps. (Named apart from the public method so that calls through the protocol cannot pick
    /// the `DateScheduler` extension, which forwards here.)
    func scheduleRepeating(
        after delay: DispatchTimeInterval,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping @Sendable () -> Void
    ) -> Disposable?
}

/// A task sleeping on a `RelativeDateScheduler`, as its async engine sees it.
struct SleepingTask: Hashable, Sendable {
    /// Identifies the task (the hash of `UnsafeCurrentTask`, stable while the task lives).
    let task: Int
    /// Whether the task sleeps on the main actor, where the async `advance` runs: then the
    /// engine's own turns on that actor let the task run to its next suspension, with no guessing.
    let onMainActor: Bool
}
