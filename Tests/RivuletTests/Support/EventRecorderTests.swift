import Testing
@testable import Rivulet
import RivuletContracts

/// The recorder most tests use checks E1 itself, so that a stray event after a terminal one fails
/// the test that recorded it even where the test only looks at the values.
@Suite(.checksLiveObjects) struct EventRecorderTests {
    @Test(arguments: [
        Signal<Int, TestError>.Event.completed, .failed(TestError(1)), .interrupted,
    ])
    func anEventAfterATerminalEventIsReported_E1(terminal: Signal<Int, TestError>.Event) {
        let recorder = EventRecorder<Int, TestError>()
        recorder.record(.value(1))
        recorder.record(terminal)
        withKnownIssue("the recorder reports the value after the terminal event") {
            recorder.record(.value(2))
        }
        withKnownIssue("the recorder reports a second terminal event") {
            recorder.record(.completed)
        }
        // Still recorded, so that comparisons of events see the stray ones.
        #expect(recorder.events == [.value(1), terminal, .value(2), .completed])
    }

    @Test func valuesThenOneTerminalEventAreFine_E1() {
        let recorder = EventRecorder<Int, TestError>()
        recorder.record(.value(1))
        recorder.record(.value(2))
        recorder.record(.completed)
        #expect(recorder.events == [.value(1), .value(2), .completed])
        #expect(recorder.terminalCount == 1)
    }

    @Test func aRecorderSharedByStreamsReportsOnlyAfterTheirLastTerminalEvent_E1() {
        let recorder = EventRecorder<Int, TestError>(streams: 2)
        recorder.record(.value(1))
        recorder.record(.completed)
        recorder.record(.value(2))
        recorder.record(.interrupted)
        withKnownIssue("the recorder reports an event after the second stream's terminal event") {
            recorder.record(.value(3))
        }
    }
}
