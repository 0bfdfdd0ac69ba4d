import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct CollectTests {
    typealias Script = [Signal<Int, TestError>.Event]

    @Test func collectSendsOneArrayAtCompletion() {
        expectOperator(
            [.value(1), .value(2), .value(3), .completed] as Script,
            signal: { $0.collect() },
            producer: { $0.collect() },
            yields: [.value([1, 2, 3]), .completed]
        )
    }

    @Test func collectOfNothingSendsAnEmptyArray() {
        expectOperator(
            [.completed] as Script, signal: { $0.collect() }, producer: { $0.collect() },
            yields: [.value([]), .completed])
        expectOperator(
            [.completed] as Script, signal: { $0.collect(count: 2) }, producer: { $0.collect(count: 2) },
            yields: [.value([]), .completed])
    }

    @Test func collectCountSendsFullArraysThenTheRemainder() {
        expectOperator(
            [.value(1), .value(2), .value(3), .value(4), .value(5), .completed] as Script,
            signal: { $0.collect(count: 2) },
            producer: { $0.collect(count: 2) },
            yields: [.value([1, 2]), .value([3, 4]), .value([5]), .completed]
        )
        // Nothing left over: no empty array at the end.
        expectOperator(
            [.value(1), .value(2), .completed] as Script,
            signal: { $0.collect(count: 2) },
            producer: { $0.collect(count: 2) },
            yields: [.value([1, 2]), .completed]
        )
    }

    @Test func collectWhilePredicateOnTheCollectedValues() {
        expectOperator(
            [.value(1), .value(2), .value(3), .value(4), .value(5), .completed] as Script,
            signal: { $0.collect { $0.reduce(0, +) >= 3 } },
            producer: { $0.collect { $0.reduce(0, +) >= 3 } },
            yields: [.value([1, 2]), .value([3]), .value([4]), .value([5]), .completed]
        )
    }

    @Test func collectWithTheNextValueStartsANewArrayWithIt() {
        expectOperator(
            [.value(1), .value(2), .value(7), .value(4), .value(5), .value(7), .completed] as Script,
            signal: { $0.collect { _, next in next == 7 } },
            producer: { $0.collect { _, next in next == 7 } },
            yields: [.value([1, 2]), .value([7, 4, 5]), .value([7]), .completed]
        )
        // The predicate sees the array before the value is added, even the empty one.
        expectOperator(
            [.value(7), .value(1), .completed] as Script,
            signal: { $0.collect { _, next in next == 7 } },
            producer: { $0.collect { _, next in next == 7 } },
            yields: [.value([]), .value([7, 1]), .completed]
        )
    }

    @Test func failureAndInterruptionDropTheCollectedValues_E2_E4() {
        expectOperator(
            [.value(1), .failed(TestError(2))] as Script, signal: { $0.collect() }, producer: { $0.collect() },
            yields: [.failed(TestError(2))])
        expectOperator(
            [.value(1), .value(2), .value(3), .interrupted] as Script,
            signal: { $0.collect(count: 2) }, producer: { $0.collect(count: 2) },
            yields: [.value([1, 2]), .interrupted])
    }

    @Test func eachStartCollectsAfresh_P2() {
        let producer = SignalProducer<Int, Never>([1, 2, 3]).collect(count: 2)
        let first = EventRecorder<[Int], Never>()
        let second = EventRecorder<[Int], Never>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(first.events == [.value([1, 2]), .value([3]), .completed])
        #expect(second.events == first.events)
    }

    @Test func disposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream((Int, TestError).self, signal: { $0.collect() }, producer: { $0.collect() })
        expectDisposalStopsUpstream((Int, TestError).self, signal: { $0.collect(count: 3) }, producer: { $0.collect(count: 3) })
        expectDisposalStopsUpstream(
            (Int, TestError).self, signal: { $0.collect { _, _ in true } }, producer: { $0.collect { _ in true } })
    }

    @Test func collectCountRejectsZero() async {
        await #expect(processExitsWith: .failure) {
            _ = SignalProducer<Int, Never>.empty.collect(count: 0)
        }
    }
}
