import Foundation
import Rivulet

/// What one scheduler scenario saw, recorded from any thread: the kit's calls, the actions'
/// starts and ends, and the clauses broken at the moment an action starts (E1, E4, E5, E6), which
/// only the thread running it can tell.
final class SchedulerProbe: SteppingProbe {
    typealias Finding = TraceBook.Finding

    private struct State {
        var book = TraceBook(unknownThreadName: "scheduler thread")
        /// How many times each action started.
        var runs: [String: Int] = [:]
        /// Action names in the order they started (a repeating action once per run).
        var order: [String] = []
        /// The actions running now, with the thread each runs on.
        var running: [String: UInt] = [:]
        /// Actions whose disposable was disposed of before they started: they must never start.
        var cancelled: Set<String> = []
        /// The first few actions linger, so that an action started meanwhile overlaps them.
        var lingersLeft = 3
        var phase = "setting up"
        /// Kit calls into the scheduler under way: made from inside a running action, or not.
        var callsInsideActions = 0
        var topLevelCalls = 0
        /// Kit calls under way on each thread.
        var kitCalls: [UInt: Int] = [:]
        /// The latest `currentDate` the kit read, to see the clock go backwards.
        var latestDate: Date?
    }

    private let state = Locked(State())
    /// Whether the scheduler was declared to run actions synchronously inside `schedule`: then an
    /// action nested in another, or overlapping one scheduled from another thread, is by design.
    let isImmediate: Bool

    init(isImmediate: Bool) {
        self.isImmediate = isImmediate
    }

    // MARK: Threads and kit calls

    /// Names the running thread in traces; the kit calls this on every thread it starts.
    func label(currentThreadAs label: String) {
        let key = ThreadID.current.rawValue
        state.withLock { $0.book.labels[key] = label }
    }

    /// Runs `body`, one of the kit's calls into the scheduler, recording `text` in the trace and
    /// whether it was made from inside a running action (where getting stuck means O7, not O6).
    func kitCall<Result>(_ text: String, _ body: () -> Result) -> Result {
        let key = ThreadID.current.rawValue
        let inside = state.withLock { s -> Bool in
            let inside = s.running.values.contains(key)
            let context = inside ? " (from inside \(s.running.first { $0.value == key }!.key))" : ""
            s.book.record(.action, text + context, on: key)
            if inside { s.callsInsideActions += 1 } else { s.topLevelCalls += 1 }
            s.kitCalls[key, default: 0] += 1
            s.phase = text + context
            return inside
        }
        defer {
            state.withLock { s in
                if inside { s.callsInsideActions -= 1 } else { s.topLevelCalls -= 1 }
                s.kitCalls[key, default: 1] -= 1
            }
        }
        return body()
    }

    // MARK: Actions

    /// An action for the scheduler that records its start and end and runs `body` in between.
    /// A repeating action may start more than once; any other starting twice breaks E1.
    func action(_ name: String, repeating: Bool = false, _ body: @escaping @Sendable () -> Void = {}) -> @Sendable () -> Void {
        { [self] in
            if begin(name, repeating: repeating) { Self.linger() }
            body()
            end(name)
        }
    }

    /// Keeps an action running for a while (10 ms), long enough for a scheduler that runs
    /// actions concurrently to start another one meanwhile, even on a busy machine.
    private static func linger() {
        usleep(10_000)
    }

    /// Returns whether the action should linger.
    private func begin(_ name: String, repeating: Bool) -> Bool {
        let key = ThreadID.current.rawValue
        return state.withLock { s in
            let thread = s.book.label(of: key)
            s.book.trace.append(ContractTraceEntry(kind: .output, text: "\(name) starts", thread: thread))
            s.runs[name, default: 0] += 1
            s.order.append(name)
            if s.runs[name]! > 1, !repeating {
                s.book.note(.e1, "\(name) ran \(s.runs[name]!) times; a scheduled action runs exactly once")
            }
            if s.cancelled.contains(name) {
                s.book.note(.e4, "\(name) ran although its disposable had been disposed of before it started")
            }
            if let nesting = s.running.first(where: { $0.value == key }), !isImmediate {
                s.book.note(
                    .e6,
                    "\(name) started on \(thread) while \(nesting.key) was still running there: an action scheduled from inside another ran nested in it, not after it returned"
                )
            } else if let other = s.running.first(where: { $0.value != key }), !isImmediate {
                let otherThread = s.book.label(of: other.value)
                s.book.note(
                    .e5,
                    "\(name) started on \(thread) while \(other.key) was still running on \(otherThread): actions ran concurrently"
                )
            }
            s.running[name] = key
            defer { s.lingersLeft -= 1 }
            return s.lingersLeft > 0
        }
    }

    private func end(_ name: String) {
        let key = ThreadID.current.rawValue
        state.withLock { s in
            s.book.record(.output, "\(name) returns", on: key)
            s.running[name] = nil
        }
    }

    /// Marks `name` as cancelled: its disposable was disposed of and `dispose()` returned.
    func cancelled(_ name: String) {
        state.withLock { _ = $0.cancelled.insert(name) }
    }

    func runs(of name: String) -> Int { state.withLock { $0.runs[name, default: 0] } }
    var order: [String] { state.withLock { $0.order } }

    /// Whether the calling thread is inside one of the kit's calls, such as `schedule`: an action
    /// that finds itself there runs synchronously, and must not wait for the kit.
    var isInsideKitCallOnThisThread: Bool {
        let key = ThreadID.current.rawValue
        return state.withLock { $0.kitCalls[key, default: 0] > 0 }
    }

    /// Whether an action is inside a call into the scheduler that has not returned.
    var isStuckInsideAnAction: Bool { state.withLock { $0.callsInsideActions > 0 } }

    /// Checks that the scheduler's clock did not go back since the kit's previous reading (E7).
    func checkClock(_ date: Date, _ context: String) {
        let key = ThreadID.current.rawValue
        state.withLock { s in
            s.book.record(.output, "currentDate \(date.timeIntervalSinceReferenceDate) \(context)", on: key)
            if let latest = s.latestDate, date < latest {
                s.book.note(
                    .e7,
                    "currentDate went back from \(latest.timeIntervalSinceReferenceDate) to \(date.timeIntervalSinceReferenceDate) \(context)"
                )
            }
            s.latestDate = max(s.latestDate ?? date, date)
        }
    }

    // MARK: Findings

    /// Records a violation of `clause`, once per clause and scenario.
    func violation(_ clause: ContractClause, _ explanation: String) {
        state.withLock { $0.book.note(clause, explanation) }
    }

    var findings: [Finding] { state.withLock { $0.book.findings } }
    var trace: [ContractTraceEntry] { state.withLock { $0.book.trace } }

    /// Why a step of the scenario did not finish within `deadline`: stuck in a call made from
    /// inside an action means the scheduler holds something (its lock) while it runs actions
    /// (O7); stuck in a call from outside means the call blocks (O6).
    func blocked(deadline: Double) -> (ContractClause, String) {
        state.withLock { s in
            if s.callsInsideActions > 0 {
                return (
                    .o7,
                    "\(s.phase) did not return within \(deadline) s: the scheduler seems to hold its lock while it runs an action"
                )
            }
            return (.o6, "\(s.phase) did not return within \(deadline) s: the scheduler blocks")
        }
    }

}

/// An object only an action's closure holds, to see when the scheduler releases the closure.
final class ReleaseToken: Sendable {}

/// A weak reference to a `ReleaseToken`.
struct WeakToken: Sendable {
    weak var token: ReleaseToken?
    var isReleased: Bool { token == nil }
}
