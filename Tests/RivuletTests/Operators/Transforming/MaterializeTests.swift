import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct MaterializeTests {
    typealias Inner = Signal<Int, TestError>.Event

    @Test func materializeCarriesEveryEventAndCompletesAfterATerminal() {
        expectOperator(
            [.value(1), .failed(TestError(2))] as [Inner],
            signal: { $0.materialize() },
            producer: { $0.materialize() },
            yields: [.value(.value(1)), .value(.failed(TestError(2))), .completed]
        )
        expectOperator(
            [.value(1), .completed] as [Inner],
            signal: { $0.materialize() },
            producer: { $0.materialize() },
            yields: [.value(.value(1)), .value(.completed), .completed]
        )
    }

    @Test func materializeStaysInterruptedAfterAnInterruption_E4() {
        expectOperator(
            [.value(1), .interrupted] as [Inner],
            signal: { $0.materialize() },
            producer: { $0.materialize() },
            yields: [.value(.value(1)), .value(.interrupted), .interrupted]
        )
    }

    @Test func materializeResultsTurnsAFailureIntoAValue() {
        expectOperator(
            [.value(1), .failed(TestError(2))] as [Inner],
            signal: { $0.materializeResults() },
            producer: { $0.materializeResults() },
            yields: [.value(.success(1)), .value(.failure(TestError(2))), .completed]
        )
        expectOperator(
            [.value(1), .interrupted] as [Inner],
            signal: { $0.materializeResults() },
            producer: { $0.materializeResults() },
            yields: [.value(.success(1)), .interrupted]
        )
    }

    @Test func dematerializeUndoesMaterialize() {
        expectOperator(
            [.value(1), .value(2), .failed(TestError(3))] as [Inner],
            signal: { $0.materialize().dematerialize() },
            producer: { $0.materialize().dematerialize() },
            yields: [.value(1), .value(2), .failed(TestError(3))]
        )
        expectOperator(
            [.value(1), .interrupted] as [Inner],
            signal: { $0.materialize().dematerialize() },
            producer: { $0.materialize().dematerialize() },
            yields: [.value(1), .interrupted]
        )
    }

    @Test func dematerializeSendsNothingAfterACarriedTerminal_E1() {
        expectOperator(
            [.value(.value(1)), .value(.completed), .value(.value(2)), .value(.failed(TestError(1)))]
                as [Signal<Inner, Never>.Event],
            signal: { $0.dematerialize() },
            producer: { $0.dematerialize() },
            yields: [.value(1), .completed]
        )
    }

    @Test func dematerializeResultsFailsWithTheFirstFailure_E1_E2() {
        expectOperator(
            [.value(.success(1)), .value(.failure(TestError(5))), .value(.success(2)), .completed]
                as [Signal<Result<Int, TestError>, Never>.Event],
            signal: { $0.dematerializeResults() },
            producer: { $0.dematerializeResults() },
            yields: [.value(1), .failed(TestError(5))]
        )
        expectOperator(
            [.value(.success(1)), .completed] as [Signal<Result<Int, TestError>, Never>.Event],
            signal: { $0.dematerializeResults() },
            producer: { $0.dematerializeResults() },
            yields: [.value(1), .completed]
        )
    }

    @Test func materializeDeliversTheInterruptionOfADisposedStartAsAValue_P4() {
        // As in ReactiveSwift (issue 16): the interruption comes down from the source, so
        // materialize sends it as a value, then is interrupted.
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Signal<Int, TestError>.Event, Never>()
        let disposable = upstream.producer.materialize().start(recorder.observer)
        upstream.send(.value(1))
        disposable.dispose()
        #expect(recorder.events == [.value(.value(1)), .value(.interrupted), .interrupted])
        let never = EventRecorder<Signal<Int, Never>.Event, Never>()
        SignalProducer<Int, Never>.never.materialize().start(never.observer).dispose()
        #expect(never.events == [.value(.interrupted), .interrupted])
    }

    @Test func disposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream((Int, TestError).self, signal: { $0.materialize() }, producer: { $0.materialize() })
        expectDisposalStopsUpstream(
            (Int, TestError).self, signal: { $0.materializeResults() }, producer: { $0.materializeResults() })
        expectDisposalStopsUpstream(
            (Inner, Never).self,
            signal: { $0.dematerialize() },
            producer: { $0.dematerialize() }
        )
        expectDisposalStopsUpstream(
            (Result<Int, TestError>, Never).self,
            signal: { $0.dematerializeResults() },
            producer: { $0.dematerializeResults() }
        )
    }
}
