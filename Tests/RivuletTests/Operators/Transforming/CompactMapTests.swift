import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct CompactMapTests {
    @Test func compactMapDropsNilResults() {
        expectOperator(
            [.value("1"), .value("x"), .value("3"), .completed] as [Signal<String, TestError>.Event],
            signal: { $0.compactMap(Int.init) },
            producer: { $0.compactMap(Int.init) },
            yields: [.value(1), .value(3), .completed]
        )
    }

    @Test func filterMapMeansCompactMap() {
        expectOperator(
            [.value("1"), .value("x"), .value("3")] as [Signal<String, TestError>.Event],
            signal: { $0.filterMap(Int.init) },
            producer: { $0.filterMap(Int.init) },
            yields: [.value(1), .value(3)]
        )
    }

    @Test func skipNilUnwraps() {
        expectOperator(
            [.value(nil), .value(2), .value(nil), .value(4), .completed] as [Signal<Int?, TestError>.Event],
            signal: { $0.skipNil() },
            producer: { $0.skipNil() },
            yields: [.value(2), .value(4), .completed]
        )
    }

    @Test func failureAndInterruptionAreForwarded_E2_E4_O3() {
        expectOperator(
            [.value("x"), .failed(TestError(3))] as [Signal<String, TestError>.Event],
            signal: { $0.compactMap(Int.init) },
            producer: { $0.compactMap(Int.init) },
            yields: [.failed(TestError(3))]
        )
        expectOperator(
            [.value(1), .interrupted] as [Signal<Int?, TestError>.Event],
            signal: { $0.skipNil() },
            producer: { $0.skipNil() },
            yields: [.value(1), .interrupted]
        )
    }

    @Test func disposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream((Int, TestError).self, signal: { $0.compactMap { $0 } }, producer: { $0.compactMap { $0 } })
        expectDisposalStopsUpstream((Int?, TestError).self, signal: { $0.skipNil() }, producer: { $0.skipNil() })
    }
}
