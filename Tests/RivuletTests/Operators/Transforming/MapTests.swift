import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct MapTests {
    @Test func mapTransformsEachValueAndForwardsCompletion() {
        expectOperator(
            [.value(1), .value(2), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.map { $0 * 10 } },
            producer: { $0.map { $0 * 10 } },
            yields: [.value(10), .value(20), .completed]
        )
    }

    @Test func mapForwardsFailureAndInterruption_E2_O3() {
        expectOperator(
            [.value(1), .failed(TestError(7))] as [Signal<Int, TestError>.Event],
            signal: { $0.map(String.init) },
            producer: { $0.map(String.init) },
            yields: [.value("1"), .failed(TestError(7))]
        )
        expectOperator(
            [.value(1), .interrupted] as [Signal<Int, TestError>.Event],
            signal: { $0.map(String.init) },
            producer: { $0.map(String.init) },
            yields: [.value("1"), .interrupted]
        )
    }

    @Test func mapValueReplacesEveryValue() {
        expectOperator(
            [.value(1), .value(2), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.map(value: "x") },
            producer: { $0.map(value: "x") },
            yields: [.value("x"), .value("x"), .completed]
        )
    }

    @Test func mapKeyPathReadsTheProperty() {
        expectOperator(
            [.value("ab"), .value("abc")] as [Signal<String, TestError>.Event],
            signal: { $0.map(\.count) },
            producer: { $0.map(\.count) },
            yields: [.value(2), .value(3)]
        )
    }
}

@Suite(.checksLiveObjects) struct FilterTests {
    @Test func filterKeepsMatchingValuesAndTerminalEvents() {
        expectOperator(
            [.value(1), .value(2), .value(3), .value(4), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.filter { $0.isMultiple(of: 2) } },
            producer: { $0.filter { $0.isMultiple(of: 2) } },
            yields: [.value(2), .value(4), .completed]
        )
        expectOperator(
            [.value(1), .failed(TestError(1))] as [Signal<Int, TestError>.Event],
            signal: { $0.filter { _ in false } },
            producer: { $0.filter { _ in false } },
            yields: [.failed(TestError(1))]
        )
    }

    @Test func aTrailingClosureThatInterpolatesItsArgumentIsATransform() {
        // Regression: the closure used to fill `map(value:)`, giving a stream of closures.
        let producer = SignalProducer<Int, Never>(value: 1).map { "\($0)!" }
        let (signal, input) = Signal<Int, Never>.pipe()
        let mapped = signal.map { "\($0)?" }
        let recorder = EventRecorder<String, Never>(streams: 2)
        producer.start(recorder.observer)
        mapped.observe(recorder.observer)
        input.send(value: 2)
        #expect(recorder.values == ["1!", "2?"])
    }
}
