import Rivulet

/// What one scenario saw, recorded from any thread: the trace, the threads, and the clauses
/// broken at the moment of delivery (E1, E5, E6, E7, O5), which only the delivering thread can tell.
final class ScenarioRecorder: Sendable {
    typealias Finding = TraceBook.Finding

    /// How the subject's output stream stands.
    enum OutputEnd: Equatable {
        case open
        case failed, completed, interrupted
    }

    private struct State {
        var book = TraceBook(unknownThreadName: "foreign thread")
        /// Kit calls into the subject running on each thread (send, dispose, run a scheduler).
        var kitCalls: [UInt: Int] = [:]
        /// Deliveries to the kit's observers running on each thread.
        var deliveries: [UInt: Int] = [:]
        /// Calls of the probed closure running on each thread.
        var userCode: [UInt: Int] = [:]
        var outputs: [String] = []
        var outputEnd = OutputEnd.open
        var phase = "setting up"
        /// Deliveries since the kit's latest call began.
        var deliveriesInPhase = 0
        /// The kit's own input signals, whose dropped events are the kit's doing, not the subject's.
        var kitSignals: Set<ObjectIdentifier> = []
        /// `outputs` when the kit first disposed of the subject.
        var outputsAtDisposal: [String]?
        /// A clock that ticks at the start and at the end of each outermost kit call.
        var tick = 0
        /// The outermost kit call running on each thread: its number (its starting tick).
        var currentCall: [UInt: Int] = [:]
        /// When each finished kit call ended, by its number.
        var callEnds: [Int: Int] = [:]
        /// Which thread's kit call sent the terminal event that each signal accepted.
        var terminalSenders: [ObjectIdentifier: (thread: UInt, call: Int)] = [:]
        /// Which thread delivered each signal's terminal event (and tore the signal down), and at
        /// which tick that was over.
        var terminalDeliveries: [ObjectIdentifier: (thread: UInt, tick: Int)] = [:]

        /// Why an event dropped by `signal` on `thread` is not the subject's bug, if it is not:
        /// - it lost a race: the signal's terminal event came from another thread, in a kit call
        ///   that had not ended when this thread's call began;
        /// - the terminal event, accepted in an earlier call, was still on its way, or was
        ///   delivered (and the signal torn down, with whatever the operator observes) by another
        ///   thread after this call began: a terminal event sent while another thread delivers is
        ///   delivered by that thread, and the operator hears its inputs until then;
        /// - the signal was interrupted earlier in this very call on this thread: the teardown of a
        ///   disposed-of start, or user code that disposed of it while the operator was handling
        ///   the event, reaches the operator after the output has already been interrupted.
        /// - the terminal event's report has not arrived yet: another thread is still sending it.
        /// Otherwise the subject sent the event after a terminal event that had been sent and
        /// delivered on this thread, or by a call that was over: its own bug.
        func excuse(forDropBy signal: ObjectIdentifier, on thread: UInt, afterInterruption: Bool) -> String? {
            guard let mine = currentCall[thread] else { return nil }
            guard let sender = terminalSenders[signal] else {
                // A send reports the terminal event it got accepted right after the signal's
                // lock, so on this thread it would have been reported already: this one is
                // another thread's, still on its way here.
                return "it lost a race with a terminal event being sent on another thread"
            }
            if sender.thread != thread, mine < callEnds[sender.call, default: .max] {
                return "it lost a race with a terminal event sent on another thread"
            }
            if sender.call != mine {
                guard let delivery = terminalDeliveries[signal] else {
                    return "the terminal event was still on its way, queued behind another thread's delivery"
                }
                if delivery.thread != thread, delivery.tick > mine {
                    return "another thread delivered the terminal event, and tore the operator down, after this call began"
                }
            }
            if sender.thread == thread, sender.call == mine, afterInterruption {
                return "the output had been interrupted earlier in the same call"
            }
            return nil
        }
    }

    private let state = Locked(State())

    // MARK: The kit's own threads and calls

    /// Names the running thread in traces; the kit calls this on every thread it starts.
    func label(currentThreadAs label: String) {
        let key = ThreadID.current.rawValue
        state.withLock { $0.book.labels[key] = label }
    }

    /// Runs `body`, one of the kit's calls into the subject, recording `text` in the trace.
    /// Events the subject delivers during it are synchronous (E7).
    func kitCall<Result>(_ kind: ContractTraceEntry.Kind, _ text: String, _ body: () -> Result) -> Result {
        let key = ThreadID.current.rawValue
        state.withLock {
            $0.book.record(kind, text, on: key)
            if $0.kitCalls[key, default: 0] == 0 {
                $0.currentCall[key] = $0.tick
                $0.tick += 1
            }
            $0.kitCalls[key, default: 0] += 1
            $0.phase = "\(kind == .input ? "sending" : "doing") \(text)"
            $0.deliveriesInPhase = 0
            if kind == .action, text.hasPrefix("dispose"), $0.outputsAtDisposal == nil {
                $0.outputsAtDisposal = $0.outputs
            }
        }
        defer {
            state.withLock {
                $0.kitCalls[key, default: 1] -= 1
                if $0.kitCalls[key] == 0, let call = $0.currentCall.removeValue(forKey: key) {
                    $0.callEnds[call] = $0.tick
                    $0.tick += 1
                }
            }
        }
        // E1 as the subject attempts it: Rivulet's signals drop an event sent after a completion
        // or failure, so only the signal audit can tell that the subject sent one.
        return SignalAudit.withAuditor({ [self] in audit($0) }, body)
    }

    /// What the signal audit reports on this thread, during one of the kit's calls.
    private func audit(_ observation: SignalAudit.Observation) {
        let key = ThreadID.current.rawValue
        switch observation {
        case let .terminated(signal):
            state.withLock { s in
                guard !s.kitSignals.contains(signal), s.terminalSenders[signal] == nil, let call = s.currentCall[key] else {
                    return
                }
                s.terminalSenders[signal] = (key, call)
            }
        case let .terminalDelivered(signal):
            state.withLock { s in
                guard !s.kitSignals.contains(signal), s.terminalDeliveries[signal] == nil else { return }
                s.terminalDeliveries[signal] = (key, s.tick)
                s.tick += 1
            }
        case let .droppedAfterTerminal(signal, event, afterInterruption):
            let verdict = state.withLock { s -> Bool? in
                guard !s.kitSignals.contains(signal) else { return nil }
                if let excuse = s.excuse(forDropBy: signal, on: key, afterInterruption: afterInterruption) {
                    s.book.record(.action, "\(event) was dropped: \(excuse)", on: key)
                    return false
                }
                return true
            }
            if verdict == true {
                violation(
                    .e1,
                    "the subject sent \(event) on a signal that had already \(afterInterruption ? "been interrupted" : "completed or failed"), "
                        + "after that terminal event was sent on the same thread or by a call that had returned; Rivulet "
                        + "dropped it, so no observer saw it, but the subject's logic is wrong")
            }
        }
    }

    /// Marks one of the kit's own input signals, whose dropped events the audit ignores.
    func ownSignal(_ identity: ObjectIdentifier) {
        state.withLock { _ = $0.kitSignals.insert(identity) }
    }

    /// What the kit is doing now, for a report of a call that never returned.
    var phase: String { state.withLock { $0.phase } }

    /// Whether the subject delivered to the kit's observer since the kit's latest call began: a
    /// call that then never returns got stuck after running user code.
    var deliveredInPhase: Bool { state.withLock { $0.deliveriesInPhase > 0 } }

    // MARK: Deliveries

    /// Records a delivery to one of the kit's observers; call `endDelivery()` when it returns.
    func beginDelivery(_ text: String, isTerminal: Bool, terminal: OutputEnd) {
        let key = ThreadID.current.rawValue
        state.withLock { s in
            let thread = s.book.label(of: key)
            s.book.trace.append(ContractTraceEntry(kind: .output, text: text, thread: thread))
            let nested = s.deliveries[key, default: 0] > 0
            let elsewhere = s.deliveries.contains { $0.key != key && $0.value > 0 }
            s.deliveries[key, default: 0] += 1
            s.deliveriesInPhase += 1
            if nested {
                s.book.note(
                    .e6, "\(text) was delivered while the observer was still handling the previous event on the same thread")
            }
            if elsewhere {
                s.book.note(.e5, "\(text) was delivered on \(thread) while another thread was inside the observer")
            }
            if s.book.labels[key] == nil || thread.hasPrefix("foreign") {
                s.book.note(
                    .o5,
                    "\(text) was delivered on \(thread), a thread the kit did not start: the subject introduced concurrency without a scheduler"
                )
            } else if s.kitCalls[key, default: 0] == 0 {
                s.book.note(
                    .e7, "\(text) was delivered on \(thread) after the kit's call had returned, not synchronously inside it")
            }
            if s.outputEnd != .open {
                s.book.note(.e1, "\(text) was delivered after the terminal event")
            } else if isTerminal {
                s.outputEnd = terminal
            }
            s.outputs.append(text)
        }
    }

    /// Records a call of the operator's probed closure; call `endUserCode()` when it returns.
    func beginUserCode() {
        let key = ThreadID.current.rawValue
        state.withLock { s in
            let thread = s.book.label(of: key)
            s.book.trace.append(ContractTraceEntry(kind: .userCode, text: "the operator calls its closure", thread: thread))
            if s.userCode[key, default: 0] > 0 {
                s.book.note(.e6, "the operator called its closure again, on \(thread), before the previous call had returned")
            }
            if s.userCode.contains(where: { $0.key != key && $0.value > 0 }) {
                s.book.note(.e5, "the operator called its closure on \(thread) while it was running on another thread")
            }
            if thread.hasPrefix("foreign") {
                s.book.note(
                    .o5,
                    "the operator called its closure on \(thread), a thread the kit did not start: it introduced concurrency without a scheduler"
                )
            }
            s.userCode[key, default: 0] += 1
        }
    }

    func endUserCode() {
        let key = ThreadID.current.rawValue
        state.withLock { $0.userCode[key, default: 1] -= 1 }
    }

    func endDelivery() {
        let key = ThreadID.current.rawValue
        state.withLock { $0.deliveries[key, default: 1] -= 1 }
    }

    /// Records something the kit saw outside a delivery, such as an action without a thread.
    func note(_ text: String) {
        let key = ThreadID.current.rawValue
        state.withLock {
            $0.book.record(.action, text, on: key)
        }
    }

    // MARK: Findings

    /// Records a violation of `clause`, once per clause and scenario.
    func violation(_ clause: ContractClause, _ explanation: String) {
        state.withLock { $0.book.note(clause, explanation) }
    }

    var findings: [Finding] { state.withLock { $0.book.findings } }
    var trace: [ContractTraceEntry] { state.withLock { $0.book.trace } }
    /// The descriptions of the events delivered to the first observer, in order.
    var outputs: [String] { state.withLock { $0.outputs } }
    var outputEnd: OutputEnd { state.withLock { $0.outputEnd } }
    /// What the first observer saw before the kit disposed of the subject (a signal's observer
    /// then hears nothing more, a producer's start is interrupted), or all it saw.
    var outputsBeforeDisposal: [String] { state.withLock { $0.outputsAtDisposal ?? $0.outputs } }

}
