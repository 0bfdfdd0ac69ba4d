import Testing
@testable import Rivulet
import RivuletContracts

/// ReactiveSwift's spellings of the simple producers compile as written: with no type given, a
/// producer that cannot fail has `Never` for its error (these lines compile only if it does).
@Suite(.checksLiveObjects) struct SignalProducerInferenceTests {
    @Test func aSingleValueProducerInfersNeverForItsError() {
        let producer = SignalProducer(value: 1)
        let typed: SignalProducer<Int, Never> = producer
        let recorder = EventRecorder<Int, Never>()
        typed.start(recorder.observer)
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func aSequenceProducerInfersNeverForItsError() {
        let recorder = EventRecorder<Int, Never>()
        let producer = SignalProducer([1, 2, 3])
        producer.start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func aVariadicProducerInfersNeverForItsError() {
        let recorder = EventRecorder<Int, Never>()
        let producer = SignalProducer(values: 1, 2, 3)
        producer.start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func aResultMakesAProducerWithoutALabel() {
        let success = EventRecorder<Int, TestError>()
        let failure = EventRecorder<Int, TestError>()
        SignalProducer(Result<Int, TestError>.success(4)).start(success.observer)
        SignalProducer(Result<Int, TestError>.failure(TestError(2))).start(failure.observer)
        #expect(success.events == [.value(4), .completed])
        #expect(failure.events == [.failed(TestError(2))])
    }

    @Test func aProducerThatCanFailStillTakesTheSameSpellings() {
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError>(value: 5).concat(SignalProducer<Int, TestError>([6, 7]))
            .start(recorder.observer)
        #expect(recorder.events == [.value(5), .value(6), .value(7), .completed])
    }
}
