import Dispatch
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
func waitFor(_ semaphore: DispatchSemaphore, seconds: Double = 10) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}

/// Yields until `condition` holds, giving up after many attempts (a generous bound, not a timing
/// assertion); returns whether the condition was met.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
