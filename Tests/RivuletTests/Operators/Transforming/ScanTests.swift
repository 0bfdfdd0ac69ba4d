import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct ScanTests {
    @Test func scanSendsEachRunningResult() {
        expectOperator(
            [.value(1), .value(2), .value(3), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.scan(10, +) },
            producer: { $0.scan(10, +) },
            yields: [.value(11), .value(13), .value(16), .completed]
        )
    }

    @Test func scanIntoUpdatesInPlace() {
        expectOperator(
            [.value(1), .value(2)] as [Signal<Int, TestError>.Event],
            signal: { $0.scan(into: [Int]()) { $0.append($1) } },
            producer: { $0.scan(into: [Int]()) { $0.append($1) } },
            yields: [.value([1]), .value([1, 2])]
        )
    }

    @Test func scanMapKeepsStatePrivate() {
        // Running sum as state; the output is a description of the step.
        expectOperator(
            [.value(1), .value(2), .value(3), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.scanMap(0) { sum, value in (sum + value, "\(sum)+\(value)") } },
            producer: { $0.scanMap(0) { sum, value in (sum + value, "\(sum)+\(value)") } },
            yields: [.value("0+1"), .value("1+2"), .value("3+3"), .completed]
        )
        expectOperator(
            [.value(5), .value(6)] as [Signal<Int, TestError>.Event],
            signal: {
                $0.scanMap(into: 0) { count, value in
                    count += 1; return count * value
                }
            },
            producer: {
                $0.scanMap(into: 0) { count, value in
                    count += 1; return count * value
                }
            },
            yields: [.value(5), .value(12)]
        )
    }

    @Test func failureAndInterruptionAreForwarded_E2_E4_O3() {
        expectOperator(
            [.value(1), .failed(TestError(1))] as [Signal<Int, TestError>.Event],
            signal: { $0.scan(0, +) },
            producer: { $0.scan(0, +) },
            yields: [.value(1), .failed(TestError(1))]
        )
        expectOperator(
            [.interrupted] as [Signal<Int, TestError>.Event],
            signal: { $0.scanMap(into: 0) { _, v in v } },
            producer: { $0.scanMap(into: 0) { _, v in v } },
            yields: [.interrupted]
        )
    }

    @Test func eachStartBeginsFromTheInitialResult_P2() {
        let producer = SignalProducer<Int, Never>([1, 2]).scan(0, +)
        let first = EventRecorder<Int, Never>()
        let second = EventRecorder<Int, Never>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(first.events == [.value(1), .value(3), .completed])
        #expect(second.events == first.events)
    }

    @Test func disposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream((Int, TestError).self, signal: { $0.scan(0, +) }, producer: { $0.scan(0, +) })
        expectDisposalStopsUpstream(
            (Int, TestError).self,
            signal: { $0.scanMap(into: 0) { _, v in v } },
            producer: { $0.scanMap(into: 0) { _, v in v } }
        )
    }
}
