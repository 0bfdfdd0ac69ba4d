import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct ReduceTests {
    typealias Script = [Signal<Int, TestError>.Event]

    @Test func reduceSendsTheFinalResultAtCompletion() {
        expectOperator(
            [.value(1), .value(2), .value(3), .completed] as Script,
            signal: { $0.reduce(10, +) }, producer: { $0.reduce(10, +) },
            yields: [.value(16), .completed])
        expectOperator(
            [.value(1), .value(2), .completed] as Script,
            signal: { $0.reduce(into: [Int]()) { $0.insert($1, at: 0) } },
            producer: { $0.reduce(into: [Int]()) { $0.insert($1, at: 0) } },
            yields: [.value([2, 1]), .completed])
    }

    @Test func reduceOfNothingSendsTheInitialResult() {
        expectOperator(
            [.completed] as Script, signal: { $0.reduce(5, +) }, producer: { $0.reduce(5, +) },
            yields: [.value(5), .completed])
    }

    @Test func noResultWhileOpen() {
        expectOperator(
            [.value(1), .value(2)] as Script, signal: { $0.reduce(0, +) }, producer: { $0.reduce(0, +) },
            yields: [])
    }

    @Test func failureAndInterruptionAreForwardedWithoutAResult_E2_E4() {
        expectOperator(
            [.value(1), .failed(TestError(3))] as Script,
            signal: { $0.reduce(0, +) }, producer: { $0.reduce(0, +) },
            yields: [.failed(TestError(3))])
        expectOperator(
            [.value(1), .interrupted] as Script,
            signal: { $0.reduce(into: 0) { $0 += $1 } }, producer: { $0.reduce(into: 0) { $0 += $1 } },
            yields: [.interrupted])
    }

    @Test func eachStartBeginsFromTheInitialResult_P2() {
        let producer = SignalProducer<Int, TestError>([1, 2]).reduce(into: [Int]()) { $0.append($1) }
        let first = EventRecorder<[Int], TestError>()
        let second = EventRecorder<[Int], TestError>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(first.events == [.value([1, 2]), .completed])
        #expect(second.events == [.value([1, 2]), .completed])
    }

    @Test func disposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream(
            (Int, TestError).self, signal: { $0.reduce(0, +) }, producer: { $0.reduce(into: 0) { $0 += $1 } })
    }
}
