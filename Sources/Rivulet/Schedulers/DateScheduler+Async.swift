import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// `sleep` runs on its caller's actor (`nonisolated(nonsending)`, Swift 6.2 and later): a task on the
// main actor schedules its wake-up there and resumes there, so `TestScheduler`'s async `advance`,
// which runs on the main actor as in ReactiveSwift, lets it run to its next `sleep` before moving
// time on, in a fixed order. The modifier cannot be wrapped in `#if` on its own, hence two copies
// of these one-line entry points.
#if compiler(>=6.2)
extension DateScheduler {
    /// Suspends the calling task until the scheduler's clock has moved on by `interval`.
    ///
    /// On a `TestScheduler` the task resumes when the test advances virtual time that far. The
    /// sleep runs on the caller's actor: a task on the main actor schedules its wake-up and
    /// resumes there.
    ///
    /// - Parameters:
    ///   - interval: How long to sleep: 0 or more (precondition). With `.never` the task sleeps
    ///     until it is cancelled.
    ///   - leeway: How late the wake-up may be: 0 or more (precondition). Rivulet's schedulers
    ///     wake a sleeping task on time, so they do not need it.
    /// - Throws: `CancellationError` if the task is cancelled before or during the sleep (at
    ///   once), or by the time it wakes up.
    /// - Precondition: `interval` and `leeway` are 0 or more.
    public nonisolated(nonsending) func sleep(
        for interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .seconds(0)
    ) async throws {
        try await sleep(isolation: #isolation, for: interval, leeway: leeway, api: "DateScheduler.sleep(for:leeway:)")
    }

    /// Suspends the calling task until the scheduler's clock has moved on by `interval` seconds.
    ///
    /// - Parameters:
    ///   - interval: How long to sleep, in seconds: 0 or more (precondition). `.infinity` sleeps
    ///     until cancelled.
    ///   - leeway: How late the wake-up may be: 0 or more (precondition).
    /// - Throws: `CancellationError` if the task is cancelled before, during or by the end of the
    ///   sleep.
    /// - Precondition: `interval` and `leeway` are 0 or more.
    public nonisolated(nonsending) func sleep(
        for interval: TimeInterval,
        leeway: DispatchTimeInterval = .seconds(0)
    ) async throws {
        try await sleep(isolation: #isolation, forSeconds: interval, leeway: leeway)
    }

    /// Suspends the calling task until the scheduler's clock reaches `date`.
    ///
    /// A date that has already passed still goes through the scheduler once (on a `TestScheduler`,
    /// the task resumes on the next `advance()`); ReactiveSwift stops with a precondition failure
    /// there instead.
    ///
    /// - Parameters:
    ///   - date: When to wake up.
    ///   - leeway: How late the wake-up may be: 0 or more (precondition).
    /// - Throws: `CancellationError` if the task is cancelled before, during or by the end of the
    ///   sleep.
    /// - Precondition: `leeway` is 0 or more.
    public nonisolated(nonsending) func sleep(until date: Date, leeway: DispatchTimeInterval = .seconds(0)) async throws {
        try await sleep(isolation: #isolation, until: date, leeway: leeway)
    }
}
#else
extension DateScheduler {
    /// Suspends the calling task until the scheduler's clock has moved on by `interval` (see the
    /// Swift 6.2 form; before Swift 6.2 the sleep runs on the global executor).
    /// - Precondition: `interval` and `leeway` are 0 or more.
    public func sleep(for interval: DispatchTimeInterval, leeway: DispatchTimeInterval = .seconds(0)) async throws {
        try await sleep(isolation: #isolation, for: interval, leeway: leeway, api: "DateScheduler.sleep(for:leeway:)")
    }

    /// Suspends the calling task until the scheduler's clock has moved on by `interval` seconds.
    /// - Precondition: `interval` and `leeway` are 0 or more.
    public func sleep(for interval: TimeInterval, leeway: DispatchTimeInterval = .seconds(0)) async throws {
        try await sleep(isolation: #isolation, forSeconds: interval, leeway: leeway)
    }

    /// Suspends the calling task until the scheduler's clock reaches `date`.
    /// - Precondition: `leeway` is 0 or more.
    public func sleep(until date: Date, leeway: DispatchTimeInterval = .seconds(0)) async throws {
        try await sleep(isolation: #isolation, until: date, leeway: leeway)
    }
}
#endif

extension DateScheduler {
    /// A stream of the scheduler's date, once every `interval`, starting one interval from now.
    ///
    /// The timer is scheduled when the stream is created and stops when the consumer stops
    /// iterating (its task is cancelled or the stream is released). Ticks the consumer has not
    /// taken yet are buffered.
    ///
    /// - Parameters:
    ///   - interval: The time between ticks; positive and not `.never` (precondition).
    ///   - leeway: How late a tick may be: 0 or more (precondition); none by default.
    /// - Returns: A stream of the scheduler's dates, one per `interval`, that never ends by itself.
    /// - Precondition: `interval` is greater than 0 and not `.never`; `leeway` is 0 or more.
    public func timer(interval: DispatchTimeInterval, leeway: DispatchTimeInterval = .seconds(0)) -> AsyncStream<Date> {
        _ = interval.checkedRepeatInterval(for: "DateScheduler.timer(interval:leeway:)")
        checkLeeway(leeway, for: "DateScheduler.timer(interval:leeway:)")
        return AsyncStream { continuation in
            let disposable = schedule(after: interval, interval: interval, leeway: leeway) { [self] in
                continuation.yield(currentDate)
            }
            continuation.onTermination = { _ in
                disposable?.dispose()
            }
        }
    }

    private func checkLeeway(_ leeway: DispatchTimeInterval, for api: String) {
        precondition((leeway.nanosecondCount ?? .max) >= 0, "Rivulet: \(api): leeway is \(leeway); it must be 0 or more")
    }

    /// `sleep(for:leeway:)` on the caller's actor.
    private func sleep(
        isolation: isolated (any Actor)?,
        for interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        api: String
    ) async throws {
        precondition((interval.nanosecondCount ?? .max) >= 0, "Rivulet: \(api): interval is \(interval); it must be 0 or more")
        checkLeeway(leeway, for: api)
        if interval.isNever {
            try await suspend(isolation: isolation, reportingTo: nil) { _ in nil }
        } else if let relative = self as? any RelativeDateScheduler {
            try await suspend(isolation: isolation, reportingTo: relative) { resume in
                relative.schedule(after: interval, action: resume)
            }
        } else {
            let date = currentDate + interval
            try await suspend(isolation: isolation, reportingTo: nil) { resume in schedule(after: date, action: resume) }
        }
    }

    /// `sleep(for:leeway:)` in seconds, on the caller's actor.
    private func sleep(
        isolation: isolated (any Actor)?,
        forSeconds seconds: TimeInterval,
        leeway: DispatchTimeInterval
    ) async throws {
        let api = "DateScheduler.sleep(for:leeway:)"
        precondition(seconds >= 0, "Rivulet: \(api): interval is \(seconds) s; it must be 0 or more")
        try await sleep(isolation: isolation, for: DispatchTimeInterval(seconds: seconds), leeway: leeway, api: api)
    }

    /// `sleep(until:leeway:)` on the caller's actor.
    private func sleep(isolation: isolated (any Actor)?, until date: Date, leeway: DispatchTimeInterval) async throws {
        checkLeeway(leeway, for: "DateScheduler.sleep(until:leeway:)")
        try await suspend(isolation: isolation, reportingTo: self as? any RelativeDateScheduler) { resume in
            schedule(after: date, action: resume)
        }
    }

    /// Suspends until the action passed to `start` runs, or throws `CancellationError` when the
    /// task is cancelled. `start` schedules that action and returns the disposable that cancels it.
    /// The task stays on `isolation` throughout, and resumes there.
    ///
    /// `tracker`, if any, hears when the task starts sleeping, when the action resumes it and when
    /// it runs again.
    private func suspend(
        isolation: isolated (any Actor)?,
        reportingTo tracker: (any RelativeDateScheduler)?,
        _ start: (_ resume: @escaping @Sendable () -> Void) -> Disposable?
    ) async throws {
        let sleeper = tracker.map { tracker in
            let sleeper = SleepingTask(
                task: withUnsafeCurrentTask { $0?.hashValue } ?? 0,
                onMainActor: isolation.map { $0 === MainActor.shared } ?? false)
            tracker.sleeperWillSleep(sleeper)
            return sleeper
        }
        let sleep = Sleep()
        try await withTaskCancellationHandler {
            // Passing `isolation` explicitly also makes this closure capture it, which keeps it on
            // the caller's actor: without that, it would be nonisolated and the wake-up would be
            // scheduled from the global executor, racing the main actor's `advance`.
            try await withCheckedThrowingContinuation(isolation: isolation) {
                (continuation: CheckedContinuation<Void, any Error>) in
                guard sleep.wait(with: continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let disposable = start {
                    // Announce the resumption before it happens: the task may run at once.
                    if let tracker, let sleeper {
                        tracker.sleeperWillResume(sleeper)
                        if !sleep.finish() {
                            tracker.sleeperDidResume(sleeper, running: false)
                        }
                    } else {
                        sleep.finish()
                    }
                }
                sleep.hold(disposable)
            }
        } onCancel: {
            sleep.cancel()
        }
        // Only `finish()` resumes without an error, so this balances its `sleeperWillResume`.
        if let tracker, let sleeper {
            tracker.sleeperDidResume(sleeper, running: true)
        }
        // As in ReactiveSwift, a task cancelled by the time it wakes up ends its sleep with an error.
        try Task.checkCancellation()
    }
}

/// One suspended `sleep`: a small state machine that resumes its continuation exactly once,
/// whichever comes first of the scheduled action, cancellation, or neither yet.
private final class Sleep: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var disposable: Disposable?
        /// Set once the sleep has ended, by its action or by cancellation.
        var isOver = false
        var isCancelled = false
    }

    private let state = Locked(State())

    /// Stores the continuation. Returns `false` if the task was cancelled first, in which case the
    /// caller resumes the continuation with `CancellationError`.
    func wait(with continuation: CheckedContinuation<Void, any Error>) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.continuation = continuation
            return true
        }
    }

    /// Keeps the disposable of the scheduled action, or disposes of it if the sleep already ended.
    func hold(_ disposable: Disposable?) {
        let unneeded: Disposable? = state.withLock { state in
            guard !state.isOver else { return disposable }
            state.disposable = disposable
            return nil
        }
        unneeded?.dispose()
    }

    /// The scheduled action ran: resumes the task normally. Returns whether it did (it does not if
    /// the task was cancelled first).
    @discardableResult
    func finish() -> Bool {
        let continuation = state.withLock { state in
            state.isOver = true
            state.disposable = nil
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
        return continuation != nil
    }

    /// The task was cancelled: cancels the scheduled action and resumes with `CancellationError`.
    func cancel() {
        let (continuation, disposable) = state.withLock { state in
            state.isCancelled = true
            guard !state.isOver else {
                return (CheckedContinuation<Void, any Error>?.none, Disposable?.none)
            }
            state.isOver = true
            defer {
                state.continuation = nil
                state.disposable = nil
            }
            return (state.continuation, state.disposable)
        }
        disposable?.dispose()
        continuation?.resume(throwing: CancellationError())
    }
}
