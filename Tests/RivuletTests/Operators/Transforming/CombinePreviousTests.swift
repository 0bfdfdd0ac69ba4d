import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct CombinePreviousTests {
    /// Tuples are not `Equatable`: compare them as two-element arrays.
    private func pairs(_ events: [Signal<(Int, Int), TestError>.Event]) -> [Signal<[Int], TestError>.Event] {
        events.map { $0.map { [$0.0, $0.1] } }
    }

    @Test func pairsWithTheInitialValueFirst() {
        let script: [Signal<Int, TestError>.Event] = [.value(1), .value(2), .value(3), .completed]
        let expected: [Signal<[Int], TestError>.Event] = [.value([0, 1]), .value([1, 2]), .value([2, 3]), .completed]
        #expect(pairs(events(of: script, through: { $0.combinePrevious(0) })) == expected)
        #expect(pairs(events(of: script, throughProducer: { $0.combinePrevious(0) })) == expected)
    }

    @Test func withoutInitialTheFirstValueIsOnlyRemembered() {
        let script: [Signal<Int, TestError>.Event] = [.value(1), .value(2), .value(3), .failed(TestError(4))]
        let expected: [Signal<[Int], TestError>.Event] = [.value([1, 2]), .value([2, 3]), .failed(TestError(4))]
        #expect(pairs(events(of: script, through: { $0.combinePrevious() })) == expected)
        #expect(pairs(events(of: script, throughProducer: { $0.combinePrevious() })) == expected)
    }

    @Test func optionalValuesPairWithANilInitial() {
        let recorder = EventRecorder<String, Never>()
        SignalProducer<Int?, Never>([1, nil]).combinePrevious(nil)
            .map { "\(String(describing: $0.0))->\(String(describing: $0.1))" }
            .start(recorder.observer)
        #expect(recorder.values == ["nil->Optional(1)", "Optional(1)->nil"])
    }

    @Test func interruptionIsForwarded_E4() {
        let script: [Signal<Int, TestError>.Event] = [.value(1), .interrupted]
        #expect(pairs(events(of: script, through: { $0.combinePrevious() })) == [.interrupted])
        #expect(pairs(events(of: script, throughProducer: { $0.combinePrevious(7) })) == [.value([7, 1]), .interrupted])
    }

    @Test func eachStartPairsFromItsOwnFirstValue_P2() {
        let producer = SignalProducer<Int, TestError>([1, 2]).combinePrevious()
        let first = EventRecorder<(Int, Int), TestError>()
        let second = EventRecorder<(Int, Int), TestError>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(pairs(first.events) == [.value([1, 2]), .completed])
        #expect(pairs(second.events) == [.value([1, 2]), .completed])
    }

    @Test func disposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream((Int, TestError).self, signal: { $0.combinePrevious() }, producer: { $0.combinePrevious(0) })
    }
}
