import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct SkipRepeatsTests {
    typealias IntEvent = Signal<Int, TestError>.Event

    @Test func skipRepeatsDropsConsecutiveEqualValues() {
        expectOperator(
            [.value(1), .value(1), .value(2), .value(2), .value(2), .value(1), .value(3), .completed] as [IntEvent],
            signal: { $0.skipRepeats() },
            producer: { $0.skipRepeats() },
            yields: [.value(1), .value(2), .value(1), .value(3), .completed]
        )
    }

    @Test func skipRepeatsComparesWithTheImmediatelyPrecedingValue() {
        // As in ReactiveSwift, each value is compared with the one received just before it, sent
        // or not. "Close enough" is not transitive: 2, 3 and 4 are each close to the value before
        // them, so only 1 and 6 get through.
        let comparisons = Locked<[[Int]]>([])
        let isClose: @Sendable (Int, Int) -> Bool = { a, b in
            comparisons.withLock { $0.append([a, b]) }
            return abs(a - b) <= 1
        }
        let received = events(
            of: [.value(1), .value(2), .value(3), .value(4), .value(6)] as [IntEvent],
            through: { $0.skipRepeats(isClose) }
        )
        #expect(received == [.value(1), .value(6)])
        #expect(comparisons.withLock { $0 } == [[1, 2], [2, 3], [3, 4], [4, 6]])
        expectOperator(
            [.value(1), .value(2), .value(3), .value(4), .value(6), .completed] as [IntEvent],
            signal: { $0.skipRepeats { abs($0 - $1) <= 1 } },
            producer: { $0.skipRepeats { abs($0 - $1) <= 1 } },
            yields: [.value(1), .value(6), .completed]
        )
    }

    @Test func skipRepeatsForwardsFailureAndInterruption_E2_E4_O3() {
        expectOperator(
            [.value(1), .value(1), .failed(TestError(2))] as [IntEvent],
            signal: { $0.skipRepeats() },
            producer: { $0.skipRepeats() },
            yields: [.value(1), .failed(TestError(2))]
        )
        expectOperator(
            [.value(1), .interrupted] as [IntEvent],
            signal: { $0.skipRepeats() },
            producer: { $0.skipRepeats() },
            yields: [.value(1), .interrupted]
        )
    }

    @Test func eachStartHasItsOwnMemory_P2() {
        let producer = SignalProducer<Int, Never>(values: [5, 5, 6]).skipRepeats()
        let first = EventRecorder<Int, Never>()
        let second = EventRecorder<Int, Never>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(first.values == [5, 6])
        #expect(second.values == [5, 6])
    }

    @Test func disposingTheStartStopsTheUpstream_P4() {
        let probe = GateProbe<Int, Never>()
        let recorder = EventRecorder<Int, Never>()
        let disposable = probe.producer.skipRepeats().start(recorder.observer)
        probe.send(.value(1))
        disposable.dispose()
        probe.send(.value(2))
        #expect(probe.ended == 1)
        #expect(recorder.events == [.value(1), .interrupted])
    }
}
