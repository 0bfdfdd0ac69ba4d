import Foundation
import Rivulet

/// What one property scenario saw, recorded from any thread: the kit's calls (sets, reads,
/// observations), the emissions its observers got, and the clauses broken at the moment of an
/// emission (E1, E5, E6, R2), which only the emitting thread can tell.
final class PropertyProbe: SteppingProbe {
    typealias Finding = TraceBook.Finding

    /// A kit call under way.
    private struct Call {
        let id: Int
        let text: String
        /// The clause broken if this call never returns; `nil` to tell from what happened in it.
        let stuckClause: ContractClause?
        var deliveries = 0
    }

    private struct State {
        var book = TraceBook(unknownThreadName: "foreign thread")
        var calls: [Call] = []
        var nextCall = 0
        var kitCalls: [UInt: Int] = [:]
        /// Emissions being handled by the kit's observers, per thread.
        var deliveries: [UInt: Int] = [:]
        /// Values each observer got (`signal`, `producer`), by description.
        var values: [String: [String]] = [:]
        /// How each observer's stream ended.
        var ends: [String: String] = [:]
        var lingersLeft = 0
    }

    private let state = Locked(State())

    // MARK: Threads and kit calls

    func label(currentThreadAs label: String) {
        let key = ThreadID.current.rawValue
        state.withLock { $0.book.labels[key] = label }
    }

    /// Makes the next few emissions linger, so that one made meanwhile on another thread
    /// overlaps them (E5).
    func lingerInNextEmissions(_ count: Int) {
        state.withLock { $0.lingersLeft = count }
    }

    /// Runs `body`, one of the kit's calls into the subject, recording `text` in the trace.
    /// Emissions during it are synchronous (R2). If it never returns, `stuckClause` is broken,
    /// or, without one, O7 when it got stuck after calling an observer and O6 otherwise.
    func kitCall<Result>(
        _ kind: ContractTraceEntry.Kind, _ text: String, stuckClause: ContractClause? = nil, _ body: () -> Result
    ) -> Result {
        let key = ThreadID.current.rawValue
        let id = state.withLock { s -> Int in
            s.book.record(kind, text, on: key)
            s.kitCalls[key, default: 0] += 1
            s.nextCall += 1
            s.calls.append(Call(id: s.nextCall, text: text, stuckClause: stuckClause))
            return s.nextCall
        }
        defer {
            state.withLock { s in
                s.kitCalls[key, default: 1] -= 1
                s.calls.removeAll { $0.id == id }
            }
        }
        return body()
    }

    // MARK: Emissions

    /// Records a value emitted to the kit's `observer`; returns whether the observer should
    /// linger. Call `endDelivery()` when the observer returns.
    func beginDelivery(_ observer: String, _ text: String) -> Bool {
        let key = ThreadID.current.rawValue
        return state.withLock { s in
            let thread = s.book.label(of: key)
            s.book.trace.append(ContractTraceEntry(kind: .output, text: "\(observer): value(\(text))", thread: thread))
            s.values[observer, default: []].append(text)
            if s.ends[observer] != nil {
                s.book.note(.e1, "\(observer) emitted value(\(text)) after it had ended")
            }
            if s.deliveries[key, default: 0] > 0 {
                s.book.note(
                    .e6,
                    "value(\(text)) was emitted on \(thread) while the observer was still handling the previous value there: the emission is recursive, not queued"
                )
            } else if s.deliveries.contains(where: { $0.key != key && $0.value > 0 }) {
                s.book.note(
                    .e5,
                    "value(\(text)) was emitted on \(thread) while another thread was inside the observer: emissions are not serial"
                )
            }
            if s.kitCalls[key, default: 0] == 0 {
                s.book.note(
                    .r2,
                    "value(\(text)) was emitted on \(thread) outside the kit's call: a change must be emitted synchronously, during the set"
                )
            }
            s.deliveries[key, default: 0] += 1
            for index in s.calls.indices { s.calls[index].deliveries += 1 }
            defer { s.lingersLeft -= 1 }
            return s.lingersLeft > 0
        }
    }

    func endDelivery() {
        let key = ThreadID.current.rawValue
        state.withLock { $0.deliveries[key, default: 1] -= 1 }
    }

    /// Records the end of an observer's stream.
    func ended(_ observer: String, _ text: String) {
        let key = ThreadID.current.rawValue
        state.withLock { s in
            s.book.record(.output, "\(observer): \(text)", on: key)
            if s.ends[observer] != nil {
                s.book.note(.e1, "\(observer) got \(text) after it had ended")
            } else {
                s.ends[observer] = text
            }
        }
    }

    func values(of observer: String) -> [String] { state.withLock { $0.values[observer] ?? [] } }
    func end(of observer: String) -> String? { state.withLock { $0.ends[observer] } }

    // MARK: Findings

    /// Records a violation of `clause`, once per clause and scenario.
    func violation(_ clause: ContractClause, _ explanation: String) {
        state.withLock { $0.book.note(clause, explanation) }
    }

    var findings: [Finding] { state.withLock { $0.book.findings } }
    var trace: [ContractTraceEntry] { state.withLock { $0.book.trace } }

    /// Why a step did not finish within `deadline`, from the latest kit call still under way.
    func blocked(deadline: Double) -> (ContractClause, String) {
        state.withLock { s in
            guard let call = s.calls.last else {
                return (.o6, "a step did not finish within \(deadline) s")
            }
            let stuck = "\(call.text) did not return within \(deadline) s"
            if let clause = call.stuckClause {
                return (
                    clause, "\(stuck): \(clause == .r3 ? "reading the value from inside an observer deadlocks" : "it deadlocks")"
                )
            }
            if call.deliveries > 0 {
                return (
                    .o7,
                    "\(stuck), and got stuck after calling the observer: the property seems to hold a lock while it runs user code"
                )
            }
            return (.o6, "\(stuck): the property blocks")
        }
    }

}
