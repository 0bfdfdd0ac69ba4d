import Dispatch
import Foundation
import Rivulet

/// Runs every scenario against a subject and turns what it saw into a report.
struct ContractRunner<Input: Sendable, InputError: Swift.Error, Output, OutputError: Swift.Error> {
    let name: String
    let subject: ContractSubject<Input, InputError, Output, OutputError>
    let options: ContractOptions
    let values: [Input]
    /// The failure the kit sends; `nil` for an input that cannot fail.
    let error: InputError?

    /// The report on `subject`, fed `inputs` and `error` (none for an input that cannot fail):
    /// what each public `verify` comes down to.
    static func report(
        _ name: String,
        _ subject: ContractSubject<Input, InputError, Output, OutputError>,
        _ options: ContractOptions,
        _ inputs: [Input],
        error: InputError?
    ) -> ContractReport {
        // With fewer than two values, the scenarios that check order (E5, E6) would pass without
        // checking anything, and the report would still list those clauses as checked. An input
        // of `Never` has no value to give: its checks are about terminal events only.
        precondition(
            inputs.count >= 2 || Input.self == Never.self,
            "RivuletContracts: \(subject.isProducer ? "ProducerOperatorContract" : "OperatorContract").verify: inputs.count is \(inputs.count); it must be 2 or more (0 for an input of Never)"
        )
        return ContractRunner(name: name, subject: subject, options: options, values: inputs, error: error).run()
    }

    /// Runs every scenario. The report also keeps, for each serial scenario (no concurrent step),
    /// what the observer saw before the kit disposed of anything: what the two forms of an
    /// operator must agree on (P3).
    func run() -> ContractReport {
        var violations: [ContractViolation] = []
        var names: [String] = []
        var serialOutputs: [String: [String]] = [:]
        let scenarios =
            subject.isPair
            ? Scenario<Input, InputError>.forPairs(values: values, error: error, senderThreads: options.senderThreads)
            : Scenario<Input, InputError>.all(
                values: values, error: error, senderThreads: options.senderThreads, probed: subject.usesProbe
            )
            .filter { !(subject.isProducer && $0.secondObserver) }
        var firstRunTook: Double?
        for scenario in scenarios {
            names.append(scenario.name)
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = run(scenario)
            if firstRunTook == nil { firstRunTook = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
            violations += outcome.violations
            if let outputs = outcome.outputsBeforeDisposal, !scenario.hasConcurrentStep {
                serialOutputs[scenario.name] = outputs
            }
            if outcome.blocked {
                // Every later scenario would wait out the deadline too.
                break
            }
        }
        if let first = scenarios.first, let firstRunTook, !violations.contains(where: { $0.clause == .o6 || $0.clause == .o7 }),
            let slow = SlownessCheck(subject: subject, options: options).violation(in: first, firstRunTook: firstRunTook)
        {
            violations.append(slow)
        }
        if subject.isProducer, !options.sharesStarts, !violations.contains(where: { $0.clause == .o6 || $0.clause == .o7 }) {
            names.append("two starts")
            violations += TwoStartsCheck(subject: subject, options: options, values: values).run()
        }
        return ContractReport(
            subject: name, clausesChecked: clausesChecked, scenarios: names, violations: violations,
            serialOutputs: serialOutputs
        )
    }

    var clausesChecked: [ContractClause] {
        var clauses: [ContractClause] = [.e1, .e4, .e5, .e6, .e7, .s5, .o3, .o5, .o6, .o7]
        if error != nil, !options.handlesFailure { clauses += [.e2, .e3] }
        clauses += subject.isProducer ? [.p1, .p4] : [.s3, .s4]
        if subject.isProducer, !options.sharesStarts { clauses.append(.p2) }
        return clauses
    }

    struct Outcome {
        var violations: [ContractViolation] = []
        var blocked = false
        var outputsBeforeDisposal: [String]?
    }

    func run(_ scenario: Scenario<Input, InputError>) -> Outcome {
        let run = ScenarioRun(scenario, subject: subject, options: options)
        guard runOnKitThread(deadline: options.deadline, { run.runSteps() }) else {
            return blocked(run)
        }
        // A failure or interruption that did not arrive at once may still arrive: wait for it,
        // to tell late (O3) from never (E2, E4).
        var owed: Set<ScenarioRecorder.OutputEnd> = [.interrupted, .failed]
        if options.handlesFailure { owed.remove(.failed) }
        if options.inputInterruptionEndsOnlyTheInput { owed.remove(.interrupted) }
        if run.terminalChecks.contains(where: { $0.before == .open && $0.after == .open && owed.contains($0.input) }) {
            _ = wait(upTo: options.deadline) { run.recorder.outputEnd != .open }
        }
        let endAfterWaiting = run.recorder.outputEnd
        guard runOnKitThread(deadline: options.deadline, { run.finish() }) else {
            return blocked(run)
        }
        let eventualEnd = endAfterWaiting == .open ? run.endAfterSettling : endAfterWaiting
        var outcome = Outcome(outputsBeforeDisposal: run.recorder.outputsBeforeDisposal)
        outcome.violations = run.recorder.findings.map { finding in
            ContractViolation(
                clause: finding.clause,
                scenario: scenario.name,
                explanation: finding.explanation,
                trace: Array(run.recorder.trace.prefix(finding.traceLength))
            )
        }
        for check in run.terminalChecks {
            if let (clause, explanation) = verdict(on: check, eventually: eventualEnd) {
                outcome.violations.append(
                    ContractViolation(
                        clause: clause,
                        scenario: scenario.name,
                        explanation: explanation,
                        trace: Array(run.recorder.trace.prefix(check.traceLength))
                    ))
            }
        }
        if scenario.checksReplay, let mismatch = replayMismatch(of: run) {
            outcome.violations.append(mismatch)
        }
        return outcome
    }

    /// Whether a terminal event the kit sent reached the output as E2, E3, E4 and O3 require.
    func verdict(
        on check: TerminalCheck,
        eventually: ScenarioRecorder.OutputEnd
    ) -> (ContractClause, String)? {
        // An output that had already ended on its own owes nothing to the input's terminal.
        guard check.before == .open else { return nil }
        let flushed = options.turnsInputEndsIntoValues ? "" : check.valuesDuringTheSend.joined(separator: ", ")
        switch check.input {
        case .failed where !flushed.isEmpty && !options.handlesFailure:
            return (
                .e2,
                "the input failed, and the output sent \(flushed) in response: a failure propagates at once, "
                    + "and whatever the operator was holding is dropped, not flushed"
            )
        case .interrupted where !flushed.isEmpty && !options.inputInterruptionEndsOnlyTheInput:
            return (
                .e4,
                "the input was interrupted, and the output sent \(flushed) in response: interruption cancels "
                    + "outstanding work, and whatever the operator was holding is dropped, not flushed"
            )
        default:
            break
        }
        switch check.input {
        case .failed:
            if options.handlesFailure { return nil }
            switch (check.after, eventually) {
            case (.failed, _): return nil
            case (.completed, _), (.open, .completed):
                return (.e3, "the input failed, but the output completed: a failure turned into success")
            case (.interrupted, _), (.open, .interrupted):
                return (.e2, "the input failed, but the output was interrupted: the failure was lost")
            case (.open, .failed):
                return (.o3, "the failure reached the observer only after the kit's send had returned, not at once")
            case (.open, .open):
                return (.e2, "the input failed, but the output never failed: the failure was swallowed")
            }
        case .interrupted where options.inputInterruptionEndsOnlyTheInput:
            // The output goes on with its other inputs, which may end it any way they like.
            return nil
        case .interrupted:
            switch (check.after, eventually) {
            case (.interrupted, _): return nil
            case (.completed, _), (.failed, _), (.open, .completed), (.open, .failed):
                return (.e4, "the input was interrupted, but the output ended differently")
            case (.open, .interrupted):
                return (.o3, "the interruption reached the observer only after the kit's send had returned, not at once")
            case (.open, .open):
                return (.e4, "the input was interrupted, but the output never was")
            }
        case .completed, .open:
            return nil
        }
    }

    /// Runs the inputs as the input delivered them, serially on one thread, and compares the
    /// output: concurrent or re-entrant sends must give the same result (E5, E6).
    func replayMismatch(of run: ScenarioRun<Input, InputError, Output, OutputError>) -> ContractViolation? {
        // A value sent from inside the observer while the subject was still starting lands among
        // the start's own events, where a replay after the start cannot put it.
        guard !run.reenteredDuringSetup else { return nil }
        // Two inputs sent into from two threads are ordered by the operator itself: no replay
        // can know that order (and with one thread the replay would be the scenario itself).
        if subject.isPair { return nil }
        // A value sent from inside the observer while the scheduler runs is handled by that same
        // run of the scheduler, which no serial replay can reproduce.
        if subject.usesScheduler, run.scenario.reentrantValue != nil { return nil }
        let delivered = run.input.delivered
        // The replay runs a time-shifting subject's scheduler where the scenario ran it.
        let settlePoints = run.settlePoints
        var steps: [Scenario<Input, InputError>.Step] = []
        for (index, event) in delivered.enumerated() {
            steps += Array(repeating: .settle, count: settlePoints.filter { $0 == index }.count)
            steps.append(.send(event))
        }
        steps += Array(repeating: .settle, count: settlePoints.filter { $0 >= delivered.count }.count)
        var replay = Scenario<Input, InputError>(name: "replay", steps: steps)
        replay.settlesOnlyWhenTold = true
        let replayRun = ScenarioRun(replay, subject: subject, options: options)
        guard runOnKitThread(deadline: options.deadline, { replayRun.runSteps() }),
            runOnKitThread(deadline: options.deadline, { replayRun.finish() })
        else { return nil }
        let expected = replayRun.recorder.outputs
        let actual = run.recorder.outputs
        guard expected != actual else { return nil }
        let reentrant = run.scenario.reentrantValue != nil
        return ContractViolation(
            clause: reentrant ? .e6 : .e5,
            scenario: run.scenario.name,
            explanation: "the output differs from sending the same inputs serially, in the order the input delivered "
                + "them\(reentrant ? ", with the re-entrant value queued" : ""): expected \(expected), got \(actual)",
            trace: run.recorder.trace
        )
    }

    /// A scenario whose call never returned. Stuck while or after running the kit's observer
    /// means the subject holds something (typically its lock) across user code: O7. Stuck before
    /// delivering anything means it blocks: O6.
    private func blocked(_ run: ScenarioRun<Input, InputError, Output, OutputError>) -> Outcome {
        let phase = run.recorder.phase
        let afterUserCode = phase.contains("from inside") || run.recorder.deliveredInPhase
        let explanation =
            afterUserCode
            ? "\(phase) did not return within \(options.deadline) s, and the subject got stuck after calling the "
                + "observer: it seems to hold a lock while it runs user code"
            : "\(phase) did not return within \(options.deadline) s: the subject blocks"
        let violation = ContractViolation(
            clause: afterUserCode ? .o7 : .o6,
            scenario: run.scenario.name,
            explanation: explanation,
            trace: run.recorder.trace
        )
        return Outcome(violations: [violation], blocked: true)
    }
}
