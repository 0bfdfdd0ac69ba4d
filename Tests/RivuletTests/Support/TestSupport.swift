import Dispatch
import Foundation
import Testing
@testable import Rivulet

/// Records every event it receives, from any thread, and checks the grammar of E1 as it goes: an
/// event that arrives after a terminal event is recorded (so that tests comparing events see it)
/// and is reported as an issue at once, attributed to where the recorder was made.
///
/// A test that deliberately feeds one recorder from several streams (several starts of a
/// producer, several signals) says how many with `streams:`; then only an event after that many
/// terminal events is reported.
final class EventRecorder<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: `state` is a `Locked`, the only mutable storage.
    private struct State {
        var events: [Signal<Value, Error>.Event] = []
        var threads: [ThreadID] = []
        /// How many terminal events were recorded, and the last of them.
        var terminals = 0
        var lastTerminal: Signal<Value, Error>.Event?
    }
    private let state = Locked(State())
    private let streams: Int
    private let sourceLocation: SourceLocation

    init(streams: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        self.streams = streams
        self.sourceLocation = sourceLocation
    }

    var events: [Signal<Value, Error>.Event] { state.withLock { $0.events } }
    var values: [Value] { events.compactMap(\.value) }
    var threads: [ThreadID] { state.withLock { $0.threads } }
    var terminalCount: Int { events.filter(\.isTerminating).count }

    var observer: Signal<Value, Error>.Observer {
        Signal<Value, Error>.Observer { [self] event in record(event) }
    }

    func record(_ event: Signal<Value, Error>.Event) {
        let thread = ThreadID.current
        let terminal = state.withLock { [streams] state -> Signal<Value, Error>.Event? in
            let ended = state.terminals >= streams ? state.lastTerminal : nil
            if event.isTerminating {
                state.terminals += 1
                state.lastTerminal = event
            }
            state.events.append(event)
            state.threads.append(thread)
            return ended
        }
        if let terminal {
            Issue.record("E1: \(event) arrived after the terminal event \(terminal)", sourceLocation: sourceLocation)
        }
    }
}

/// Detects two deliveries running at the same time.
final class OverlapDetector: Sendable {
    private let inside = Locked(0)
    private let overlaps = Locked(0)

    var overlapCount: Int { overlaps.withLock { $0 } }

    func enter() {
        let concurrent = inside.withLock { count -> Bool in
            count += 1
            return count > 1
        }
        if concurrent { overlaps.withLock { $0 += 1 } }
        // Widen the window so that a broken engine would be caught.
        for _ in 0..<50 { _ = ThreadID.current }
    }

    func leave() {
        inside.withLock { $0 -= 1 }
    }
}

/// Runs `body` on a separate thread and fails the test if it does not finish in time, so that a
/// deadlock shows up as a failure rather than a hung test run.
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
    let result = finished.wait(timeout: .now() + seconds)
    if result == .timedOut {
        Issue.record("Watchdog: \(what) did not finish within \(seconds)s (deadlock?)", sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// Starts `count` threads that wait at a barrier and then run `body(index)` all at once; returns
/// when all have finished.
func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        ready.enter()
        done.enter()
        Thread {
            ready.leave()
            start.wait()
            body(index)
            done.leave()
        }.start()
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    done.wait()
}

/// An object whose release the tests watch through a weak reference.
final class Tracked: Sendable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}

/// A weak reference usable from `@Sendable` closures.
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    // @unchecked Sendable: the reference is only reached through `reference`'s lock.
    private struct Reference { weak var object: Object? }
    private let reference: Locked<Reference>

    var object: Object? {
        get { reference.withLock { $0.object } }
        set { reference.withLock { $0.object = newValue } }
    }

    init(_ object: Object?) { reference = Locked(Reference(object: object)) }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    @discardableResult
    func increment() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
}

struct TestError: Swift.Error, Equatable, Sendable {
    let code: Int
    init(_ code: Int = 0) { self.code = code }
}

/// Whether this process runs under Address or Thread Sanitizer. Both bring their own allocator:
/// Address Sanitizer keeps freed memory in quarantine for a while, and Thread Sanitizer keeps
/// shadow and synchronisation metadata for every address it has seen (a CI run under it once grew
/// by 49 MB in each of two rounds of a million released observers). Resident memory then grows
/// with every allocation, leaked or not, so a bound on its growth says nothing there; the plain run
/// keeps the bound.
let isRunningUnderAMemorySanitizer: Bool = {
    #if canImport(Glibc) || canImport(Darwin)
    // RTLD_DEFAULT is the null handle on glibc; Darwin's is -2.
    #if canImport(Darwin)
    let handle = UnsafeMutableRawPointer(bitPattern: -2)
    #else
    let handle: UnsafeMutableRawPointer? = nil
    #endif
    return dlsym(handle, "__asan_init") != nil || dlsym(handle, "__tsan_init") != nil
    #else
    return false
    #endif
}()

/// Polls `condition` until it holds, for at most `seconds` (a bound against a hang, not a timing
/// assertion); returns whether it held.
func waitUntil(seconds: Double = 300, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(200)
    }
    return true
}
