import Dispatch
import Rivulet
import Testing

@testable import RivuletContracts

/// E1 through the signal audit, with the two senders ordered by hand: an event that a subject's
/// signal drops after its terminal event is the subject's bug when the same sender, or a sender
/// whose call had returned, sent that terminal event; it is a race the subject cannot avoid when
/// the terminal event came from another thread's call that was still running.
@Suite struct TerminalRaceTests {
    @Test func aValueLosingARaceWithAnotherThreadsTerminalIsNotABreach_E1() {
        let recorder = ScenarioRecorder()
        let (input, observation) = observedPipe()
        let firstCallBegan = DispatchSemaphore(value: 0)
        let second = TerminatingSender(recorder: recorder, input: input, startingAfter: firstCallBegan)
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.input, "value(1)") {
            firstCallBegan.signal()
            second.terminalSent.wait()
            input.send(value: 1)
        }
        second.finish()
        withExtendedLifetime(observation) {}
        #expect(recorder.findings.isEmpty, "\(recorder.findings)")
        #expect(recorder.trace.contains { $0.text.contains("lost a race") })
    }

    @Test func aValueSentWhileAnotherThreadsTerminatingCallIsStillRunningIsNotABreach_E1() {
        let recorder = ScenarioRecorder()
        let (input, observation) = observedPipe()
        let second = TerminatingSender(recorder: recorder, input: input)
        recorder.label(currentThreadAs: "sender 1")
        second.terminalSent.wait()
        // This call begins after the terminal event, while the call that sent it still runs.
        recorder.kitCall(.input, "value(1)") { input.send(value: 1) }
        second.finish()
        withExtendedLifetime(observation) {}
        #expect(recorder.findings.isEmpty, "\(recorder.findings)")
    }

    @Test func aValueSentAfterAnotherThreadsTerminatingCallReturnedIsCaught_E1() {
        let recorder = ScenarioRecorder()
        let (input, observation) = observedPipe()
        let secondReturned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            recorder.label(currentThreadAs: "sender 2")
            recorder.kitCall(.input, "completed") { input.sendCompleted() }
            secondReturned.signal()
        }
        secondReturned.wait()
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.input, "value(1)") { input.send(value: 1) }
        withExtendedLifetime(observation) {}
        #expect(recorder.findings.map(\.clause) == [.e1])
        #expect(recorder.findings.first?.explanation.contains("value(1)") == true)
    }

    @Test func aValueSentAfterTheSameThreadsTerminalIsCaught_E1() {
        let recorder = ScenarioRecorder()
        let (input, observation) = observedPipe()
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.input, "completed") { input.sendCompleted() }
        recorder.kitCall(.input, "value(1)") { input.send(value: 1) }
        withExtendedLifetime(observation) {}
        #expect(recorder.findings.map(\.clause) == [.e1])
    }

    @Test func aValueDroppedAfterAnInterruptionEarlierInTheSameCallIsNotABreach_E1() {
        // What a disposed-of start's teardown, or user code disposing of it mid-event, does.
        let recorder = ScenarioRecorder()
        let (input, observation) = observedPipe()
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.action, "dispose") {
            input.sendInterrupted()
            input.send(value: 1)
        }
        withExtendedLifetime(observation) {}
        #expect(recorder.findings.isEmpty, "\(recorder.findings)")
        #expect(recorder.trace.contains { $0.text.contains("interrupted earlier in the same call") })
    }

    @Test func aValueSentInALaterCallAfterAnInterruptionIsCaught_E1() {
        let recorder = ScenarioRecorder()
        let (input, observation) = observedPipe()
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.action, "dispose") { input.sendInterrupted() }
        recorder.kitCall(.input, "value(1)") { input.send(value: 1) }
        withExtendedLifetime(observation) {}
        #expect(recorder.findings.map(\.clause) == [.e1])
        #expect(recorder.findings.first?.explanation.contains("interrupted") == true)
    }

    @Test func aValueSentWhileTheTerminalWaitsForAnotherThreadsDeliveryIsNotABreach_E1() {
        // A terminal event sent while another thread delivers is delivered by that thread, and
        // the operator's teardown comes with it: until then, its inputs still reach it.
        let recorder = ScenarioRecorder()
        let (signal, input) = Signal<Int, Never>.pipe()
        let delivering = DispatchSemaphore(value: 0)
        let mayFinish = DispatchSemaphore(value: 0)
        let observation = signal.observe { event in
            if case .value(0) = event {
                delivering.signal()
                mayFinish.wait()
            }
        }
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            recorder.label(currentThreadAs: "sender 2")
            recorder.kitCall(.input, "value(0)") { input.send(value: 0) }
            finished.signal()
        }
        delivering.wait()
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.input, "completed") { input.sendCompleted() }
        recorder.kitCall(.input, "value(1)") { input.send(value: 1) }
        mayFinish.signal()
        finished.wait()
        withExtendedLifetime(observation) {}
        #expect(recorder.findings.isEmpty, "\(recorder.findings)")
        #expect(recorder.trace.contains { $0.text.contains("still on its way") })
    }

    @Test func aTerminalSentTwiceInOneCallIsCaught_E1() {
        let recorder = ScenarioRecorder()
        let (input, observation) = observedPipe()
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.input, "completed") {
            input.sendCompleted()
            input.sendCompleted()
        }
        withExtendedLifetime(observation) {}
        #expect(recorder.findings.map(\.clause) == [.e1])
    }
}

/// A second sender: on another thread, in one kit call, it completes `input`, says so, and keeps
/// the call running until `finish()`.
private final class TerminatingSender: Sendable {
    let terminalSent = DispatchSemaphore(value: 0)
    private let mayReturn = DispatchSemaphore(value: 0)
    private let returned = DispatchSemaphore(value: 0)

    init(recorder: ScenarioRecorder, input: Signal<Int, Never>.Observer, startingAfter gate: DispatchSemaphore? = nil) {
        DispatchQueue.global().async { [self] in
            recorder.label(currentThreadAs: "sender 2")
            gate?.wait()
            recorder.kitCall(.input, "completed") {
                input.sendCompleted()
                terminalSent.signal()
                mayReturn.wait()
            }
            returned.signal()
        }
    }

    /// Lets the call return, and waits until it has.
    func finish() {
        mayReturn.signal()
        returned.wait()
    }
}

/// A pipe's input, and an observation that keeps its signal observed.
private func observedPipe() -> (Signal<Int, Never>.Observer, Disposable?) {
    let (signal, input) = Signal<Int, Never>.pipe()
    return (input, signal.observe { _ in })
}
