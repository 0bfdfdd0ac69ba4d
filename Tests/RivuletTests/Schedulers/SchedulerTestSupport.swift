import Dispatch
import Foundation
import Testing
@testable import Rivulet

/// A thread-safe list that scheduler tests append to from actions.
final class ScheduledLog<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    var items: [Element] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }

    func append(_ item: Element) {
        storage.withLock { $0.append(item) }
    }
}

/// Waits on `semaphore` for at most `seconds`; true if it was signalled in time.
///
/// The generous timeouts only guard against a hang: no test measures how fast a scheduler is.
func waitFor(_ semaphore: DispatchSemaphore, seconds: Double = 300) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}

/// Yields until `condition` holds, giving up after many attempts (a generous bound, not a timing
/// assertion); returns whether the condition was met. Runs on the caller's actor.
func eventually(isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Runs `operation` and returns its result, or records an issue and returns `nil` if it has not
/// finished after `seconds` (then it is left running: it is presumably stuck for good).
///
/// The generous deadline only turns a hang (a task that is never resumed) into a failure in bounded
/// time; it is not a timing assertion. Unlike a task group, which waits for all its children, this
/// returns even if `operation` never does.
func awaitWithDeadline<T: Sendable>(
    seconds: Double = 300,
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: @escaping @Sendable () async -> T
) async -> T? {
    let waiter = Locked<CheckedContinuation<T?, Never>?>(nil)
    let take: @Sendable () -> CheckedContinuation<T?, Never>? = {
        waiter.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
    }
    var worker: Task<Void, Never>?
    var timer: Task<Void, Never>?
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        waiter.withLock { $0 = continuation }
        worker = Task {
            let value = await operation()
            take()?.resume(returning: value)
        }
        timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            take()?.resume(returning: nil)
        }
    }
    timer?.cancel()
    if result == nil {
        worker?.cancel()
        Issue.record("Deadline: \(what) did not finish within \(seconds)s (a lost resume?)", sourceLocation: sourceLocation)
    }
    return result
}

/// A date scheduler that runs nothing and records the repeating schedules asked of it, to see
/// which first date and leeway an API passes to the scheduler.
final class RepeatRecordingScheduler: DateScheduler {
    /// One call of `schedule(after:interval:leeway:action:)`.
    struct Request: Sendable {
        let date: Date
        let interval: DispatchTimeInterval
        let leeway: DispatchTimeInterval
    }

    /// A fixed clock: 100 s after the reference date.
    let currentDate = Date(timeIntervalSinceReferenceDate: 100)

    private let log = ScheduledLog<Request>()

    var requests: [Request] { log.items }

    func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? { AnyDisposable() }

    func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> Disposable? { AnyDisposable() }

    func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        log.append(Request(date: date, interval: interval, leeway: leeway))
        return AnyDisposable()
    }
}
