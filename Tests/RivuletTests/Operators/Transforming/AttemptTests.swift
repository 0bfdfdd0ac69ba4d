import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct AttemptTests {
    @Test func attemptForwardsValuesThatPassAndFailsAtOnce_E1_E2() {
        let calls = Counter()
        expectOperator(
            [.value(1), .value(2), .value(3), .completed] as [Signal<Int, TestError>.Event],
            signal: {
                $0.attempt { v in
                    calls.increment(); return v < 2 ? .success(()) : .failure(TestError(v))
                }
            },
            producer: {
                $0.attempt { v in
                    calls.increment(); return v < 2 ? .success(()) : .failure(TestError(v))
                }
            },
            yields: [.value(1), .failed(TestError(2))]
        )
        // The action does not run for values after the failure (two per façade).
        #expect(calls.value == 4)
    }

    @Test func attemptMapTransformsOrFails() {
        expectOperator(
            [.value("1"), .value("x"), .value("3")] as [Signal<String, TestError>.Event],
            signal: { $0.attemptMap { Int($0).map(Result.success) ?? .failure(TestError(9)) } },
            producer: { $0.attemptMap { Int($0).map(Result.success) ?? .failure(TestError(9)) } },
            yields: [.value(1), .failed(TestError(9))]
        )
    }

    @Test func upstreamTerminalEventsPassThrough_E2_E4() {
        expectOperator(
            [.value(1), .failed(TestError(1))] as [Signal<Int, TestError>.Event],
            signal: { $0.attemptMap { .success($0 * 2) } },
            producer: { $0.attemptMap { .success($0 * 2) } },
            yields: [.value(2), .failed(TestError(1))]
        )
        expectOperator(
            [.value(1), .interrupted] as [Signal<Int, TestError>.Event],
            signal: { $0.attempt { _ in .success(()) } },
            producer: { $0.attempt { _ in .success(()) } },
            yields: [.value(1), .interrupted]
        )
    }

    private func check(
        _ events: [Signal<Int, Swift.Error>.Event], values: [Int], error code: Int?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(events.compactMap(\.value) == values, sourceLocation: sourceLocation)
        #expect(events.filter(\.isTerminating).count == 1, sourceLocation: sourceLocation)
        #expect((events.last?.error as? TestError)?.code == code, sourceLocation: sourceLocation)
    }

    private func throwIfEven(_ value: Int) throws {
        if value.isMultiple(of: 2) { throw TestError(value) }
    }

    @Test func throwingFormsOnSwiftError() {
        let script: [Signal<Int, Swift.Error>.Event] = [.value(1), .value(2), .value(3), .completed]
        check(events(of: script, through: { $0.attempt(throwIfEven) }), values: [1], error: 2)
        check(events(of: script, throughProducer: { $0.attempt(throwIfEven) }), values: [1], error: 2)
        check(
            events(
                of: script,
                through: {
                    $0.attemptMap {
                        try throwIfEven($0); return $0 * 10
                    }
                }), values: [10], error: 2)
        check(
            events(
                of: script,
                throughProducer: {
                    $0.attemptMap {
                        try throwIfEven($0); return $0 * 10
                    }
                }), values: [10], error: 2)
    }

    @Test func throwingFormsPromoteANeverError() {
        let script: [Signal<Int, Never>.Event] = [.value(1), .value(3), .value(4), .value(5)]
        let signalEvents = events(of: script, through: { $0.attempt(throwIfEven) })
        check(signalEvents, values: [1, 3], error: 4)
        check(
            events(
                of: script,
                throughProducer: {
                    $0.attemptMap {
                        try throwIfEven($0); return $0
                    }
                }), values: [1, 3], error: 4)
        let completed = events(
            of: [.value(1), .completed] as [Signal<Int, Never>.Event], throughProducer: { $0.attempt(throwIfEven) })
        #expect(completed.compactMap(\.value) == [1])
        #expect(completed.last?.isCompleted == true)
    }

    @Test func disposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream(
            (Int, TestError).self, signal: { $0.attempt { _ in .success(()) } }, producer: { $0.attempt { _ in .success(()) } })
        expectDisposalStopsUpstream(
            (Int, TestError).self, signal: { $0.attemptMap { .success($0) } }, producer: { $0.attemptMap { .success($0) } })
        expectDisposalStopsUpstream((Int, Never).self, signal: { $0.attemptMap { $0 } }, producer: { $0.attempt { _ in } })
    }
}
