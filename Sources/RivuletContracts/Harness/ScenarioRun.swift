import Dispatch
import Foundation
import Rivulet

/// One scenario run against a fresh instance of the subject: the steps on a kit thread under a
/// deadline, then the end (settle, dispose, release) under another, then the checks.
final class ScenarioRun<Input: Sendable, InputError: Swift.Error, Output, OutputError: Swift.Error>: UserCodeHooks {
    typealias OutputEvent = Signal<Output, OutputError>.Event

    let scenario: Scenario<Input, InputError>
    let subject: ContractSubject<Input, InputError, Output, OutputError>
    let options: ContractOptions
    let recorder = ScenarioRecorder()
    let input: KitInput<Input, InputError>
    /// The second input of an operator of two inputs; unused otherwise.
    let secondInput: KitInput<Input, InputError>
    let scheduler: TestScheduler?
    let probe = UserCodeProbe()

    // @unchecked Sendable: only read and written under the lock of `wiring`.
    private struct Wiring: @unchecked Sendable {
        var output: Signal<Output, OutputError>?
        var observation: Disposable?
        var secondOutputs: [String] = []
        var observerDisposed = false
        var didReenter = false
        var didDisposeFromInside = false
        /// A start was disposed of from inside the operator's closure: the value that closure is
        /// producing is still on its way, and may reach the observer before the interruption
        /// (as in ReactiveSwift, the interruption comes down the chain behind it).
        var valueInFlightAfterDisposal = false
        var userCodeCalls = 0
        var settlePoints: [Int] = []
        var reenteredDuringSetup = false
        var terminalChecks: [TerminalCheck] = []
        var endAfterSettling = ScenarioRecorder.OutputEnd.open
        weak var token: ObserverToken?
    }

    private let wiring = Locked(Wiring())

    init(
        _ scenario: Scenario<Input, InputError>,
        subject: ContractSubject<Input, InputError, Output, OutputError>,
        options: ContractOptions
    ) {
        self.scenario = scenario
        self.subject = subject
        self.options = options
        input = KitInput(recorder: recorder)
        secondInput = KitInput(recorder: recorder)
        scheduler = subject.usesScheduler ? TestScheduler() : nil
        probe.connect(self)
    }

    private var context: SubjectContext { SubjectContext(scheduler: scheduler, probe: probe) }

    /// The clause a subject that keeps its input after being disposed of breaks.
    var releaseClause: ContractClause { subject.isProducer ? .p4 : .s4 }

    // MARK: Steps

    /// Builds and attaches the subject, then runs the scenario's steps. Runs on a kit thread.
    func runSteps() {
        recorder.label(currentThreadAs: "sender 1")
        attach()
        for step in scenario.steps {
            switch step {
            case let .send(event, toSecondInput):
                send(event, into: toSecondInput ? secondInput : input)
            case let .concurrently(lists, second):
                sendConcurrently(lists.map { ($0, input) } + second.map { ($0, secondInput) })
            case .dispose:
                recorder.kitCall(.action, "dispose") { disposeSubject(fromInside: false) }
            case .settle:
                settleNow()
            }
        }
    }

    private func attach() {
        let token = ObserverToken()
        wiring.withLock { $0.token = token }
        let observer = makeObserver(token: token, isSecond: false)
        switch subject.build {
        case .signal, .signalPair:
            // The kit keeps no reference to its input signal: once the subject lets go of it,
            // it is disposed of (S4), which the kit sees through the pipe's disposable.
            let output = recorder.kitCall(.action, "apply the operator") { makeSignal() }
            let observation = recorder.kitCall(.action, "observe") { output.observe(observer) }
            var second: Disposable?
            if scenario.secondObserver {
                second = output.observe(makeObserver(token: token, isSecond: true))
            }
            // As in most real code, nothing but the observation keeps the output alive, so
            // disposing of the observation disposes of the output and runs its teardown (S4),
            // even from inside the observer. Only the two-observer scenario keeps the output,
            // to observe it again once it has terminated (S3).
            wiring.withLock {
                if scenario.secondObserver { $0.output = output }
                $0.observation = observation
            }
            _ = second
        case .producer, .producerPair:
            let producer = recorder.kitCall(.action, "apply the operator") { makeProducer() }
            if input.startCount + secondInput.startCount > 0 {
                recorder.violation(.p1, "applying the operator started its source before the producer was started")
            }
            // The start's interrupter is known before any event flows, so the observer can
            // dispose of the start even while it is starting.
            recorder.kitCall(.action, "start") {
                producer.startWithSignal { signal, interrupter in
                    wiring.withLock { $0.observation = interrupter }
                    signal.observe(observer)
                }
            }
            settleNow()
        }
    }

    private func makeSignal() -> Signal<Output, OutputError> {
        switch subject.build {
        case let .signal(make): make(input.makeSignal(), context)
        case let .signalPair(make): make(input.makeSignal(), secondInput.makeSignal(), context)
        case .producer, .producerPair:
            preconditionFailure(
                "RivuletContracts: a producer subject was asked for a signal; only signal subjects run as signals (internal error)"
            )
        }
    }

    private func makeProducer() -> SignalProducer<Output, OutputError> {
        switch subject.build {
        case let .producer(make): make(input.makeProducer(), context)
        case let .producerPair(make): make(input.makeProducer(), secondInput.makeProducer(), context)
        case .signal, .signalPair:
            preconditionFailure(
                "RivuletContracts: a signal subject was asked for a producer; only producer subjects run as producers (internal error)"
            )
        }
    }

    /// The inputs the subject has.
    private var usedInputs: [KitInput<Input, InputError>] { subject.isPair ? [input, secondInput] : [input] }

    private func makeObserver(token: ObserverToken, isSecond: Bool) -> Signal<Output, OutputError>.Observer {
        Signal<Output, OutputError>.Observer { [self] event in
            withExtendedLifetime(token) {}
            let text = event.auditDescription
            if isSecond {
                wiring.withLock { $0.secondOutputs.append(text) }
                return
            }
            recorder.beginDelivery(text, isTerminal: event.isTerminating, terminal: event.contractEnd)
            // Disposing of a start interrupts it: that one event may follow the disposal, and what
            // the interruption turns into on its way down (a value, for `materialize`), and the
            // value an operator's closure was producing when it disposed of the start.
            let expectedInterruption = subject.isProducer && event.contractEnd == .interrupted
            let expectedValue =
                subject.isProducer && !event.isTerminating
                && (options.turnsInputEndsIntoValues
                    || wiring.withLock { state in
                        defer { state.valueInFlightAfterDisposal = false }
                        return state.valueInFlightAfterDisposal
                    })
            if wiring.withLock({ $0.observerDisposed }), !expectedInterruption, !expectedValue {
                recorder.violation(
                    releaseClause,
                    "\(text) reached the observer after its \(subject.isProducer ? "start" : "observation") was disposed of")
            }
            if !event.isTerminating { react(fromUserCode: false) }
            recorder.endDelivery()
        }
    }

    /// What the observer, or the operator's probed closure, does from inside a call, for the
    /// re-entrancy (E6) and lock (O7) scenarios.
    private func react(fromUserCode: Bool) {
        guard scenario.actsFromUserCode == fromUserCode else { return }
        let place = fromUserCode ? "the operator's closure" : "the observer"
        if let value = scenario.reentrantValue,
            wiring.withLock({ state -> Bool in
                defer { state.didReenter = true }
                return !state.didReenter
            })
        {
            let phase = recorder.phase
            if phase.hasPrefix("doing start") || phase.hasPrefix("doing apply") || phase.hasPrefix("doing observe") {
                wiring.withLock { $0.reenteredDuringSetup = true }
            }
            recorder.kitCall(.input, "value(\(value)) from inside \(place)") { input.send(.value(value)) }
        }
        if scenario.disposesFromInside,
            wiring.withLock({ state -> Bool in
                defer { state.didDisposeFromInside = true }
                return !state.didDisposeFromInside
            })
        {
            recorder.kitCall(.action, "dispose from inside \(place)") { disposeSubject(fromInside: true) }
            if fromUserCode { wiring.withLock { $0.valueInFlightAfterDisposal = true } }
        }
    }

    // MARK: User code

    /// Lingering in the first calls of a scenario makes calls that could overlap overlap.
    private static var lingeringCalls: Int { 2 }

    func userCodeWillRun() {
        recorder.beginUserCode()
        let call = wiring.withLock { state -> Int in
            state.userCodeCalls += 1
            return state.userCodeCalls
        }
        // Only calls on several threads can overlap: a serial scenario does not linger.
        if scenario.hasConcurrentStep, call <= Self.lingeringCalls { usleep(2_000) }
        react(fromUserCode: true)
    }

    func userCodeDidRun() {
        recorder.endUserCode()
    }

    private func send(_ event: Signal<Input, InputError>.Event, into target: KitInput<Input, InputError>) {
        let before = recorder.outputEnd
        let outputsBefore = recorder.outputs.count
        let text = target === secondInput ? "second input: \(event.auditDescription)" : event.auditDescription
        recorder.kitCall(.input, text) { target.send(event) }
        let outputsDuringTheSend = recorder.outputs.dropFirst(outputsBefore)
        if !scenario.settlesOnlyWhenTold { settleNow() }
        guard event.isTerminating else { return }
        if case .interrupted = event, recorder.outputEnd == .interrupted, !options.inputInterruptionEndsOnlyTheInput {
            checkNothingLeftScheduled(.e4, after: "the input was interrupted, and the output with it")
        }
        let check = TerminalCheck(
            input: event.contractEnd,
            before: before,
            after: recorder.outputEnd,
            valuesDuringTheSend: outputsDuringTheSend.filter { $0.hasPrefix("value(") },
            traceLength: recorder.trace.count
        )
        wiring.withLock { $0.terminalChecks.append(check) }
    }

    private func sendConcurrently(_ lists: [([Signal<Input, InputError>.Event], KitInput<Input, InputError>)]) {
        let group = DispatchGroup()
        for (index, (list, target)) in lists.enumerated() {
            group.enter()
            KitThread.start { [self] in
                recorder.label(currentThreadAs: "sender \(index + 2)")
                let prefix = target === secondInput ? "second input: " : ""
                for event in list {
                    recorder.kitCall(.input, prefix + event.auditDescription) { target.send(event) }
                }
                group.leave()
            }
        }
        group.wait()
    }

    /// Runs what a time-shifting subject has due now, as part of the kit's call.
    private func settleNow() {
        guard let scheduler else { return }
        let delivered = input.delivered.count
        wiring.withLock { $0.settlePoints.append(delivered) }
        recorder.kitCall(.action, "run the scheduler's due actions") { scheduler.advance() }
    }

    private func disposeSubject(fromInside: Bool) {
        let before = recorder.outputEnd
        let observation = wiring.withLock { state -> Disposable? in
            defer { state.observation = nil }
            return state.observation
        }
        observation?.dispose()
        wiring.withLock { $0.observerDisposed = true }
        if !fromInside { settleNow() }
        // P4: disposing of a start interrupts it, at once unless the observer is itself busy
        // with an event (then the interruption is queued behind it, E6).
        if subject.isProducer, !fromInside, before == .open, recorder.outputEnd != .interrupted {
            recorder.violation(.p4, "disposing of the start did not deliver interrupted before dispose() returned")
        }
        if subject.isProducer, !fromInside {
            checkNothingLeftScheduled(.p4, after: "the start was disposed of")
        }
    }

    /// An interrupted or disposed-of subject cancels its outstanding work (E4, P4): nothing of it
    /// may be left on the kit's scheduler, where it would still run.
    private func checkNothingLeftScheduled(_ clause: ContractClause, after what: String) {
        guard let count = scheduler?.pendingActionCount, count > 0 else { return }
        recorder.violation(
            clause,
            "\(what), but the operator left \(count) action\(count == 1 ? "" : "s") on the scheduler, where "
                + "\(count == 1 ? "it" : "they") would still run: interruption cancels outstanding work")
    }

    // MARK: End

    /// Lets the subject finish, disposes of it if it is still running, releases it, and checks
    /// that it let go of its input. Runs on a kit thread after `runSteps`.
    func finish() {
        recorder.label(currentThreadAs: "sender 1")
        if let scheduler {
            recorder.kitCall(.action, "let the scheduler run") { scheduler.advance(by: options.settleTime) }
        }
        wiring.withLock { $0.endAfterSettling = recorder.outputEnd }
        usedInputs.forEach { $0.removeTaps() }
        let ended = recorder.outputEnd != .open
        if ended {
            let held = usedInputs.filter { input in !input.delivered.contains { $0.isTerminating } && !input.isReleased }
            if !held.isEmpty {
                recorder.violation(.s5, "the output terminated, but the subject still holds on to its input")
            }
            if wiring.withLock({ $0.token }) != nil {
                recorder.violation(.s5, "the observer was still retained after the terminal event")
            }
            // A producer keeps its closures for its next starts; a signal operator is done with them.
            if !subject.isProducer, case let count = probe.closuresStillAlive, count > 0 {
                recorder.violation(
                    .s5,
                    "the output terminated, but the operator still holds \(count) of the closures it was given "
                        + "(and everything they capture)")
            }
        }
        if scenario.secondObserver, !subject.isProducer { checkSecondObserver(ended: ended) }
        if !ended, !wiring.withLock({ $0.observerDisposed }) {
            recorder.kitCall(.action, "dispose") { disposeSubject(fromInside: false) }
        }
        if subject.isProducer, scenario.disposesFromInside, recorder.outputEnd == .open {
            recorder.violation(.p4, "disposing of the start from inside the observer never delivered interrupted")
        }
        // The output is released after the lock: its disposal runs the subject's teardown (O7).
        let output = wiring.withLock { state -> Signal<Output, OutputError>? in
            defer { state.output = nil }
            return state.output
        }
        withExtendedLifetime(output) {}
        if let scheduler {
            recorder.kitCall(.action, "let the scheduler run") { scheduler.advance(by: options.settleTime) }
        }
        if !usedInputs.allSatisfy(\.isReleased) {
            let what = subject.isProducer ? "its start was disposed of" : "its output was disposed of and released"
            recorder.violation(releaseClause, "the subject still keeps its input alive after \(what)")
        }
    }

    private func checkSecondObserver(ended: Bool) {
        let first = recorder.outputs
        let second = wiring.withLock { $0.secondOutputs }
        if first != second {
            recorder.violation(.s3, "two observers saw different events: \(first) and \(second)")
        }
        guard ended, let output = wiring.withLock({ $0.output }) else { return }
        let late = Locked([String]())
        output.observe { event in late.withLock { $0.append(event.auditDescription) } }
        let seen = late.withLock { $0 }
        if seen != ["interrupted"] {
            recorder.violation(.s3, "observing the terminated output yielded \(seen), not [interrupted] at once")
        }
    }

    // MARK: Checks

    var terminalChecks: [TerminalCheck] { wiring.withLock { $0.terminalChecks } }

    /// How the output stood once the scenario's scheduler had run on (before the kit disposed of
    /// anything): a time-shifting subject's late events have arrived by then.
    var endAfterSettling: ScenarioRecorder.OutputEnd { wiring.withLock { $0.endAfterSettling } }

    /// How many inputs had been delivered each time the kit ran the scheduler.
    var settlePoints: [Int] { wiring.withLock { $0.settlePoints } }

    /// Whether the observer's re-entrant send happened while the subject was being set up.
    var reenteredDuringSetup: Bool { wiring.withLock { $0.reenteredDuringSetup } }
}
