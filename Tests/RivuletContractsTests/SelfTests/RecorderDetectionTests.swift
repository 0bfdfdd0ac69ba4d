import Dispatch
import Testing
@testable import RivuletContracts

/// The kit's checks at the observer, driven directly. Rivulet's signal core already enforces
/// E1, E5 and E6 at every observer, so no operator built on it can make these checks fire; they
/// are tested here with deliveries arranged by hand, as a signal that broke the rules would make.
@Suite struct RecorderDetectionTests {
    @Test func overlappingDeliveriesOnTwoThreadsAreCaught_E5() {
        let recorder = ScenarioRecorder()
        recorder.label(currentThreadAs: "sender 1")
        let firstIsInside = DispatchSemaphore(value: 0)
        let secondIsDone = DispatchSemaphore(value: 0)
        recorder.kitCall(.input, "value(1)") {
            recorder.beginDelivery("value(1)", isTerminal: false, terminal: .open)
            DispatchQueue.global().async {
                recorder.label(currentThreadAs: "sender 2")
                firstIsInside.wait()
                recorder.kitCall(.input, "value(2)") {
                    recorder.beginDelivery("value(2)", isTerminal: false, terminal: .open)
                    recorder.endDelivery()
                }
                secondIsDone.signal()
            }
            firstIsInside.signal()
            secondIsDone.wait()
            recorder.endDelivery()
        }
        #expect(recorder.findings.map(\.clause) == [.e5])
    }

    @Test func nestedDeliveryOnOneThreadIsCaught_E6() {
        let recorder = ScenarioRecorder()
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.input, "value(1)") {
            recorder.beginDelivery("value(1)", isTerminal: false, terminal: .open)
            recorder.beginDelivery("value(2)", isTerminal: false, terminal: .open)
            recorder.endDelivery()
            recorder.endDelivery()
        }
        #expect(recorder.findings.map(\.clause) == [.e6])
    }

    @Test func deliveryAfterTheTerminalIsCaught_E1() {
        let recorder = ScenarioRecorder()
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.input, "completed") {
            recorder.beginDelivery("completed", isTerminal: true, terminal: .completed)
            recorder.endDelivery()
            recorder.beginDelivery("value(3)", isTerminal: false, terminal: .open)
            recorder.endDelivery()
        }
        #expect(recorder.findings.map(\.clause) == [.e1])
        #expect(recorder.findings.first?.explanation.contains("value(3)") == true)
    }

    @Test func deliveryAfterTheKitsCallReturnedIsCaught_E7() {
        let recorder = ScenarioRecorder()
        recorder.label(currentThreadAs: "sender 1")
        recorder.kitCall(.input, "value(1)") {}
        recorder.beginDelivery("value(2)", isTerminal: false, terminal: .open)
        recorder.endDelivery()
        #expect(recorder.findings.map(\.clause) == [.e7])
    }
}
