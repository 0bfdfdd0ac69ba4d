import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct UniqueValuesTests {
    typealias IntEvent = Signal<Int, TestError>.Event

    @Test func uniqueValuesForwardsEachValueOnce() {
        expectOperator(
            [.value(1), .value(2), .value(1), .value(3), .value(2), .value(4), .completed] as [IntEvent],
            signal: { $0.uniqueValues() },
            producer: { $0.uniqueValues() },
            yields: [.value(1), .value(2), .value(3), .value(4), .completed]
        )
    }

    @Test func uniqueValuesByIdentity() {
        expectOperator(
            [.value("a"), .value("bb"), .value("c"), .value("dd"), .value("eee")] as [Signal<String, TestError>.Event],
            signal: { $0.uniqueValues { $0.count } },
            producer: { $0.uniqueValues { $0.count } },
            yields: [.value("a"), .value("bb"), .value("eee")]
        )
    }

    @Test func uniqueValuesForwardsFailureAndInterruption_E2_E4_O3() {
        expectOperator(
            [.value(1), .value(1), .failed(TestError(3))] as [IntEvent],
            signal: { $0.uniqueValues() },
            producer: { $0.uniqueValues() },
            yields: [.value(1), .failed(TestError(3))]
        )
        expectOperator(
            [.value(1), .interrupted] as [IntEvent],
            signal: { $0.uniqueValues() },
            producer: { $0.uniqueValues() },
            yields: [.value(1), .interrupted]
        )
    }

    @Test func eachStartRemembersOnlyItsOwnValues_P2() {
        let producer = SignalProducer<Int, Never>(values: [1, 1, 2]).uniqueValues()
        let first = EventRecorder<Int, Never>()
        let second = EventRecorder<Int, Never>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }

    @Test func disposingTheStartStopsTheUpstream_P4() {
        let probe = GateProbe<Int, Never>()
        let recorder = EventRecorder<Int, Never>()
        probe.producer.uniqueValues().start(recorder.observer).dispose()
        #expect(probe.ended == 1)
        #expect(recorder.events == [.interrupted])
    }
}
