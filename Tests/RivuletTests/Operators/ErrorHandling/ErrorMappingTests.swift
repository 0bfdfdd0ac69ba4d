import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct ErrorMappingTests {
    struct OtherError: Swift.Error, Equatable { let text: String }

    @Test func mapErrorTransformsTheFailure_E2() {
        expectOperator(
            [.value(1), .failed(TestError(4))] as [Signal<Int, TestError>.Event],
            signal: { $0.mapError { OtherError(text: "e\($0.code)") } },
            producer: { $0.mapError { OtherError(text: "e\($0.code)") } },
            yields: [.value(1), .failed(OtherError(text: "e4"))]
        )
        expectOperator(
            [.value(1), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.mapError { OtherError(text: "e\($0.code)") } },
            producer: { $0.mapError { OtherError(text: "e\($0.code)") } },
            yields: [.value(1), .completed]
        )
        expectOperator(
            [.interrupted] as [Signal<Int, TestError>.Event],
            signal: { $0.mapError { _ in OtherError(text: "") } },
            producer: { $0.mapError { _ in OtherError(text: "") } },
            yields: [.interrupted]
        )
    }

    @Test func promoteErrorChangesOnlyTheType() {
        expectOperator(
            [.value(1), .completed] as [Signal<Int, Never>.Event],
            signal: { $0.promoteError(TestError.self) },
            producer: { $0.promoteError(TestError.self) },
            yields: [.value(1), .completed]
        )
        // The inferred form.
        let (signal, input) = Signal<Int, Never>.pipe()
        let promoted: Signal<Int, TestError> = signal.promoteError()
        let recorder = EventRecorder<Int, TestError>()
        promoted.observe(recorder.observer)
        input.send(value: 2)
        input.sendInterrupted()
        #expect(recorder.events == [.value(2), .interrupted])
        let producer: SignalProducer<Int, TestError> = SignalProducer<Int, Never>(value: 3).promoteError()
        #expect(
            events(of: [.value(3)], throughProducer: { (_: SignalProducer<Int, Never>) in producer }) == [.value(3), .completed])
    }

    @Test func promoteValueChangesOnlyTheType() {
        expectOperator(
            [.failed(TestError(1))] as [Signal<Never, TestError>.Event],
            signal: { $0.promoteValue(Int.self) },
            producer: { $0.promoteValue(Int.self) },
            yields: [.failed(TestError(1))]
        )
        expectOperator(
            [.completed] as [Signal<Never, TestError>.Event],
            signal: { $0.promoteValue() },
            producer: { $0.promoteValue() },
            yields: [Signal<String, TestError>.Event.completed]
        )
    }

    @Test func disposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream((Int, TestError).self, signal: { $0.mapError { $0 } }, producer: { $0.mapError { $0 } })
        expectDisposalStopsUpstream(
            (Int, Never).self, signal: { $0.promoteError(TestError.self) }, producer: { $0.promoteError(TestError.self) })
        expectDisposalStopsUpstream(
            (Never, TestError).self, signal: { $0.promoteValue(Int.self) }, producer: { $0.promoteValue(Int.self) })
    }

    @Test func promotingToTheTypeAlreadyThereIsTheIdentity() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let promoted: Signal<Int, TestError> = signal.promoteError(TestError.self).promoteValue(Int.self)
        #expect(promoted === signal)
        let recorder = EventRecorder<Int, TestError>()
        promoted.observe(recorder.observer)
        input.send(value: 1)
        input.send(error: TestError(3))
        #expect(recorder.events == [.value(1), .failed(TestError(3))])
        let producer = SignalProducer<Int, TestError>(value: 2)
        let producerRecorder = EventRecorder<Int, TestError>()
        producer.promoteError(TestError.self).promoteValue(Int.self).start(producerRecorder.observer)
        #expect(producerRecorder.events == [.value(2), .completed])
    }

    @Test func genericCodeCanAskForTheErrorTypeItAlreadyHas() {
        func failable<E: Swift.Error>(_ producer: SignalProducer<Int, E>, as _: E.Type) -> SignalProducer<Int, E> {
            producer.promoteError(E.self)
        }
        let recorder = EventRecorder<Int, TestError>()
        failable(SignalProducer<Int, TestError>(error: TestError(4)), as: TestError.self).start(recorder.observer)
        #expect(recorder.events == [.failed(TestError(4))])
    }
}
