import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct ConcatTests {
    @Test func concatRunsTheNextProducerAfterCompletion() {
        let first = ControlledProducer<Int, TestError>()
        let second = ControlledProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        first.producer.concat(second.producer).start(recorder.observer)
        first.send(value: 1)
        #expect(second.starts == 0)
        first.sendCompleted()
        #expect(first.ended == 1)
        #expect(second.starts == 1)
        second.send(value: 2)
        second.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func concatValueErrorAndConvertible() {
        func record(_ producer: SignalProducer<Int, TestError>) -> [Signal<Int, TestError>.Event] {
            let recorder = EventRecorder<Int, TestError>()
            producer.start(recorder.observer)
            return recorder.events
        }
        let base = SignalProducer<Int, TestError>([1, 2])
        #expect(record(base.concat(value: 3)) == [.value(1), .value(2), .value(3), .completed])
        #expect(record(base.concat(error: TestError(4))) == [.value(1), .value(2), .failed(TestError(4))])
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        base.concat(signal).start(recorder.observer)
        input.send(value: 5)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .value(5), .completed])
    }

    @Test func concatForwardsFailureWithoutStartingNext_E2() {
        let next = ControlledProducer<Int, TestError>()
        #expect(
            events(of: [.value(1), .failed(TestError(1))], throughProducer: { $0.concat(next.producer) })
                == [.value(1), .failed(TestError(1))])
        #expect(next.starts == 0)
    }

    @Test func concatTreatsAnInterruptedFirstProducerAsCompleted_E4() {
        // As in ReactiveSwift: concat is a `.concat` flattening, which ignores inner interruption.
        #expect(
            events(
                of: [.value(1), .interrupted] as [Signal<Int, TestError>.Event],
                throughProducer: { $0.concat(value: 2) })
                == [.value(1), .value(2), .completed])
    }

    @Test func disposingConcatStopsTheRunningProducer_P4() {
        let first = ControlledProducer<Int, TestError>()
        let second = ControlledProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = first.producer.concat(second.producer).start(recorder.observer)
        first.sendCompleted()
        disposable.dispose()
        #expect(second.ended == 1)
        #expect(recorder.events == [.interrupted])
    }

    @Test func prefixRunsTheOtherProducerFirst() {
        func record(_ producer: SignalProducer<Int, TestError>) -> [Signal<Int, TestError>.Event] {
            let recorder = EventRecorder<Int, TestError>()
            producer.start(recorder.observer)
            return recorder.events
        }
        let base = SignalProducer<Int, TestError>([3, 4])
        #expect(record(base.prefix(value: 1)) == [.value(1), .value(3), .value(4), .completed])
        #expect(record(base.prefix(SignalProducer([1, 2]))) == [.value(1), .value(2), .value(3), .value(4), .completed])
        #expect(record(base.prefix(SignalProducer(error: TestError(2)))) == [.failed(TestError(2))])
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        base.prefix(signal).start(recorder.observer)
        input.send(value: 0)
        input.sendCompleted()
        #expect(recorder.events == [.value(0), .value(3), .value(4), .completed])
    }
}

@Suite(.checksLiveObjects) struct ThenTests {
    @Test func thenIgnoresValuesAndStartsTheReplacementAfterCompletion() {
        #expect(
            events(
                of: [.value(1), .value(2), .completed] as [Signal<Int, TestError>.Event],
                throughProducer: { $0.then(SignalProducer<String, TestError>(value: "a")) })
                == [.value("a"), .completed])
    }

    @Test func nothingTheUpstreamSendsAfterItsCompletionGoesThrough_E1() {
        #expect(
            events(
                of: [.value(1), .completed, .value(2), .failed(TestError(1))] as [Signal<Int, TestError>.Event],
                throughProducer: { $0.then(SignalProducer<String, TestError>(value: "a")) })
                == [.value("a"), .completed])
    }

    @Test func thenForwardsFailureAndInterruptionAtOnce_E2_E4() {
        let replacement = ControlledProducer<String, TestError>()
        #expect(
            events(
                of: [.value(1), .failed(TestError(3))] as [Signal<Int, TestError>.Event],
                throughProducer: { $0.then(replacement.producer) })
                == [.failed(TestError(3))])
        #expect(
            events(
                of: [.value(1), .interrupted] as [Signal<Int, TestError>.Event],
                throughProducer: { $0.then(replacement.producer) })
                == [.interrupted])
        #expect(replacement.starts == 0)
    }

    @Test func thenReleasesSelfThenDisposalStopsTheReplacement_P4() {
        let first = ControlledProducer<Int, TestError>()
        let replacement = ControlledProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = first.producer.then(replacement.producer).start(recorder.observer)
        first.send(value: 1)
        first.sendCompleted()
        #expect(first.ended == 1)
        #expect(replacement.isRunning)
        replacement.send(value: 2)
        disposable.dispose()
        #expect(replacement.ended == 1)
        #expect(recorder.events == [.value(2), .interrupted])
    }

    @Test func thenTypedErrorVariants() {
        let failing = SignalProducer<Int, TestError>(value: 1)
        let safe = SignalProducer<Int, Never>(value: 1)
        let a: SignalProducer<String, TestError> = failing.then(SignalProducer<String, Never>(value: "a"))
        let b: SignalProducer<String, TestError> = failing.then(SignalProducer<String, TestError>(value: "b"))
        let c: SignalProducer<Int, TestError> = failing.then(SignalProducer<Int, TestError>(value: 3))
        let d: SignalProducer<String, TestError> = safe.then(SignalProducer<String, TestError>(value: "d"))
        let e: SignalProducer<String, Never> = safe.then(SignalProducer<String, Never>(value: "e"))
        let f: SignalProducer<Int, Never> = safe.then(SignalProducer<Int, Never>(value: 6))
        let g: SignalProducer<Int, TestError> = failing.then(Signal<Int, Never>.never)
        let recorderA = EventRecorder<String, TestError>()
        a.start(recorderA.observer)
        #expect(recorderA.events == [.value("a"), .completed])
        let recorderD = EventRecorder<String, TestError>()
        d.start(recorderD.observer)
        #expect(recorderD.events == [.value("d"), .completed])
        let recorderF = EventRecorder<Int, Never>()
        f.start(recorderF.observer)
        #expect(recorderF.events == [.value(6), .completed])
        _ = (b, c, e, g)
    }
}
