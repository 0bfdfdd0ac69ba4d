import Dispatch
import Foundation
import Testing

/// A value behind a lock, usable from any thread.
final class Shared<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }

    var current: Value { withLock { $0 } }

    func set(_ newValue: Value) { withLock { $0 = newValue } }
}

/// Counts handler calls that run at the same time as another one (A9, E5), and the deepest
/// nesting of calls on one thread (E6: re-entrant calls would nest).
final class OverlapDetector: Sendable {
    private let state = Shared((inside: 0, overlaps: 0))

    var overlapCount: Int { state.withLock { $0.overlaps } }

    func enter() {
        state.withLock { state in
            state.inside += 1
            if state.inside > 1 { state.overlaps += 1 }
        }
        // Widen the window so that a broken engine would be caught.
        for _ in 0..<50 { _ = Thread.current }
    }

    func leave() {
        state.withLock { $0.inside -= 1 }
    }
}

/// Runs `body` on its own thread and records an issue if it has not finished within `seconds`.
/// The deadline is a hang guard only: a deadlock shows up as a failure instead of a hung run. It
/// never asserts anything about timing.
@discardableResult
func withWatchdog(
    seconds: Double = 300,
    _ what: String = "test body",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () -> Void
) -> Bool {
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        finished.signal()
    }
    thread.stackSize = 1 << 22
    thread.start()
    if finished.wait(timeout: .now() + seconds) == .timedOut {
        // For diagnosis: crash so that the runtime's backtracer prints every thread's stack.
        if ProcessInfo.processInfo.environment["RIVULET_WATCHDOG_ABORT"] != nil { abort() }
        Issue.record("Watchdog: \(what) did not finish within \(seconds)s (deadlock?)", sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// Starts `count` threads that wait at a barrier and then run `body(index)` together; returns
/// once all have finished.
func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        ready.enter()
        done.enter()
        let thread = Thread {
            ready.leave()
            start.wait()
            body(index)
            done.leave()
        }
        thread.stackSize = 1 << 22
        thread.start()
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    done.wait()
}

/// Waits until `condition` holds, polling; the deadline is a hang guard only. Returns whether
/// the condition held.
@discardableResult
func waitUntil(
    seconds: Double = 300, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline {
            Issue.record("Hang guard: condition not met within \(seconds)s", sourceLocation: sourceLocation)
            return false
        }
        usleep(200)
    }
    return true
}

/// An object whose release the leak tests watch through a weak reference.
final class Tracked: Sendable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}

/// A weak reference usable from any thread.
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    // @unchecked Sendable: the reference is only reached under `lock`.
    private let lock = NSLock()
    private weak var reference: Object?

    init(_ object: Object?) { reference = object }

    var object: Object? { lock.withLock { reference } }
    var isReleased: Bool { object == nil }
}

/// A box for a value set after a closure that uses it was made (an output inside its own handler).
final class Slot<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: Value?

    init() {}

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Waits until `condition` holds, sleeping between polls without holding a thread: work on
/// `.global` and queue contexts needs Dispatch's threads, which tests blocking them would starve
/// (Linux's pool does not grow for blocked threads). The deadline is a hang guard only.
@discardableResult
func eventually(
    seconds: Double = 300, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline {
            Issue.record("Hang guard: condition not met within \(seconds)s", sourceLocation: sourceLocation)
            return false
        }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}

/// Whether this process runs under Thread Sanitizer (its runtime is linked in). Tests that make
/// the engine's known TSan reports are disabled there and still run in the normal build.
let isRunningUnderThreadSanitizer: Bool = dlsym(nil, "__tsan_init") != nil

/// Disables a multi-threaded test under Thread Sanitizer while the engine's known race stands:
/// a node's turn owner reads `phase` without the lock (Channel+Delivery.swift:115, in
/// `handleAsOwner`) while another thread's `withTurnLock` holds the whole node state `inout`
/// (MailboxStorage.swift:156) to queue a result, attach or detach. TSan reports it as a Swift
/// access race whenever two threads use one node at once. The test still runs in normal builds.
