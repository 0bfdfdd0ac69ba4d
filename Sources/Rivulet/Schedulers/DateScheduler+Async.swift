import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DateScheduler {
    /// Suspends the calling task until the scheduler's clock has moved on by `interval`.
    ///
    /// On a `TestScheduler` the task resumes when the test advances virtual time that far.
    ///
    /// - Parameters:
    ///   - interval: How long to sleep. With `.never` the task sleeps until it is cancelled.
    /// - Throws: `CancellationError` as soon as the task is cancelled, before or during the sleep.
    public func sleep(for interval: DispatchTimeInterval) async throws {
        let relative = self as? any RelativeDateScheduler
        if interval.isNever {
            try await suspend(reportingTo: nil) { _ in nil }
        } else if let relative {
            try await suspend(reportingTo: relative) { resume in relative.schedule(after: interval, action: resume) }
        } else {
            let date = currentDate.addingTimeInterval(interval)
            try await suspend(reportingTo: nil) { resume in schedule(after: date, action: resume) }
        }
    }

    /// Suspends the calling task until the scheduler's clock has moved on by `interval` seconds.
    ///
    /// - Parameters:
    ///   - interval: How long to sleep, in seconds. `.infinity` sleeps until cancelled.
    /// - Throws: `CancellationError` as soon as the task is cancelled, before or during the sleep.
    public func sleep(for interval: TimeInterval) async throws {
        try await sleep(for: DispatchTimeInterval(seconds: interval))
    }

    /// Suspends the calling task until the scheduler's clock reaches `date`.
    ///
    /// A date that has already passed still goes through the scheduler once (on a `TestScheduler`,
    /// the task resumes on the next `advance()`).
    ///
    /// - Throws: `CancellationError` as soon as the task is cancelled, before or during the sleep.
    public func sleep(until date: Date) async throws {
        try await suspend(reportingTo: self as? any RelativeDateScheduler) { resume in
            schedule(after: date, action: resume)
        }
    }

    /// A stream of the scheduler's date, once every `interval`, starting one interval from now.
    ///
    /// The timer is scheduled when the stream is created and stops when the consumer stops
    /// iterating (its task is cancelled or the stream is released). Ticks the consumer has not
    /// taken yet are buffered.
    ///
    /// - Parameters:
    ///   - interval: The time between ticks; positive and not `.never` (precondition).
    ///   - leeway: How late a tick may be; `nil` means 10% of the interval.
    public func timer(interval: DispatchTimeInterval, leeway: DispatchTimeInterval? = nil) -> AsyncStream<Date> {
        _ = interval.checkedRepeatInterval(for: "DateScheduler.timer(interval:leeway:)")
        let leeway = leeway ?? interval * 0.1
        return AsyncStream { continuation in
            let tick: @Sendable () -> Void = { [self] in
                continuation.yield(currentDate)
            }
            let disposable: Disposable?
            if let relative = self as? any RelativeDateScheduler {
                disposable = relative.schedule(after: interval, interval: interval, leeway: leeway, action: tick)
            } else {
                disposable = schedule(
                    after: currentDate.addingTimeInterval(interval), interval: interval, leeway: leeway, action: tick)
            }
            continuation.onTermination = { _ in
                disposable?.dispose()
            }
        }
    }

    /// Suspends until the action passed to `start` runs, or throws `CancellationError` when the
    /// task is cancelled. `start` schedules that action and returns the disposable that cancels it.
    ///
    /// `tracker`, if any, hears when the action resumes the task and when the task runs again.
    private func suspend(
        reportingTo tracker: (any RelativeDateScheduler)?,
        _ start: (_ resume: @escaping @Sendable () -> Void) -> Disposable?
    ) async throws {
        let sleep = Sleep()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleep.wait(with: continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let disposable = start {
                    // Announce the resumption before it happens: the task may run at once.
                    tracker?.sleeperWillResume()
                    if !sleep.finish() {
                        tracker?.sleeperDidResume()
                    }
                }
                sleep.hold(disposable)
            }
        } onCancel: {
            sleep.cancel()
        }
        // Only `finish()` resumes without an error, so this balances its `sleeperWillResume()`.
        tracker?.sleeperDidResume()
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
