import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct FlattenSequenceTests {
    @Test func sendsEachElementInOrder() {
        expectOperator(
            [.value([1, 2]), .value([]), .value([3]), .completed] as [Signal<[Int], TestError>.Event],
            signal: { $0.flatten() },
            producer: { $0.flatten() },
            yields: [.value(1), .value(2), .value(3), .completed]
        )
    }

    @Test func failureAndInterruptionAreForwarded_E2_E4() {
        expectOperator(
            [.value([1]), .failed(TestError(2))] as [Signal<[Int], TestError>.Event],
            signal: { $0.flatten() },
            producer: { $0.flatten() },
            yields: [.value(1), .failed(TestError(2))]
        )
        expectOperator(
            [.value("ab"), .interrupted] as [Signal<String, TestError>.Event],
            signal: { $0.flatten() },
            producer: { $0.flatten() },
            yields: [.value("a"), .value("b"), .interrupted]
        )
    }

    @Test func disposingDuringAnEndlessSequenceStopsIt() {
        let seen = Locked<[Int]>([])
        SignalProducer<UnfoldSequence<Int, (Int?, Bool)>, Never>(value: sequence(first: 1) { $0 + 1 })
            .flatten()
            .startWithSignal { signal, interrupter in
                signal.observeValues { value in
                    seen.withLock { $0.append(value) }
                    if value == 3 { interrupter.dispose() }
                }
            }
        #expect(seen.withLock { $0 } == [1, 2, 3])
    }

    @Test func disposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream(([Int], TestError).self, signal: { $0.flatten() }, producer: { $0.flatten() })
    }
}
