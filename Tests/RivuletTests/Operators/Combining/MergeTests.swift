import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct MergeTests {
    @Test func signalMergeForwardsAllValuesAndCompletesWhenAllComplete() {
        let pipes = (0..<3).map { _ in Signal<Int, TestError>.pipe() }
        let recorder = EventRecorder<Int, TestError>()
        Signal<Int, TestError>.merge(pipes.map(\.output)).observe(recorder.observer)
        pipes[0].input.send(value: 1)
        pipes[2].input.send(value: 3)
        pipes[1].input.send(value: 2)
        pipes[0].input.sendCompleted()
        pipes[1].input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(3), .value(2)])
        pipes[2].input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(3), .value(2), .completed])
    }

    @Test func signalVariadicAndMergeWith() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let variadic = EventRecorder<Int, TestError>()
        let with = EventRecorder<Int, TestError>()
        Signal<Int, TestError>.merge(a, b).observe(variadic.observer)
        a.merge(with: b).observe(with.observer)
        aInput.send(value: 1)
        bInput.send(value: 2)
        bInput.send(error: TestError(3))
        aInput.send(value: 4)
        for recorder in [variadic, with] {
            #expect(recorder.events == [.value(1), .value(2), .failed(TestError(3))])
        }
    }

    @Test func mergeForwardsInterruptionOfTheWholeButIgnoresAnInputsInterruption_E4() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        a.merge(with: b).observe(recorder.observer)
        aInput.sendInterrupted()
        bInput.send(value: 1)
        bInput.sendCompleted()
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func mergingTerminatedSignalsEndsAtCreation_S3() {
        // The merge completes inside its generator; a later observer sees a terminated signal.
        let recorder = EventRecorder<Int, Never>()
        Signal<Int, Never>.merge([Signal.empty, Signal.empty]).observe(recorder.observer)
        #expect(recorder.events == [.interrupted])
    }

    @Test func producerMergeStartsAllAndFailsAtOnce_E2() {
        func record(_ producer: SignalProducer<Int, TestError>) -> [Signal<Int, TestError>.Event] {
            let recorder = EventRecorder<Int, TestError>()
            producer.start(recorder.observer)
            return recorder.events
        }
        let one = SignalProducer<Int, TestError>([1, 2])
        let two = SignalProducer<Int, TestError>([3])
        let expected: [Signal<Int, TestError>.Event] = [.value(1), .value(2), .value(3), .completed]
        #expect(record(SignalProducer<Int, TestError>.merge([one, two])) == expected)
        #expect(record(SignalProducer<Int, TestError>.merge(one, two)) == expected)
        #expect(record(one.merge(with: two)) == expected)
        #expect(record(one.merge(with: SignalProducer(error: TestError(1)))) == [.value(1), .value(2), .failed(TestError(1))])
    }

    @Test func producerFixedArityFormsAcceptConvertibles() {
        let p = SignalProducer<Int, Never>(value: 1)
        let (s, input) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>.merge(p, s, p).start(recorder.observer)
        input.send(value: 2)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(1), .value(2), .completed])
        let ten = SignalProducer<Int, Never>.merge(p, p, p, p, p, p, p, p, p, p)
        let recorderTen = EventRecorder<Int, Never>()
        ten.start(recorderTen.observer)
        #expect(recorderTen.values == Array(repeating: 1, count: 10))
        let (w, wInput) = Signal<Int, Never>.pipe()
        let recorderWith = EventRecorder<Int, Never>()
        p.merge(with: w).start(recorderWith.observer)
        wInput.sendCompleted()
        #expect(recorderWith.events == [.value(1), .completed])
    }

    @Test func disposingTheMergeStopsEveryProducer_P4() {
        let a = ControlledProducer<Int, TestError>()
        let b = ControlledProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = a.producer.merge(with: b.producer).start(recorder.observer)
        #expect(a.isRunning && b.isRunning)
        disposable.dispose()
        #expect(a.ended == 1 && b.ended == 1)
        #expect(recorder.events == [.interrupted])
    }

    @Test func signalMergeP3EquivalenceThroughLift() {
        let (other, otherInput) = Signal<Int, TestError>.pipe()
        expectOperator(
            [.value(1), .value(2)] as [Signal<Int, TestError>.Event],
            signal: { $0.merge(with: other) },
            producer: { $0.merge(with: other) },
            yields: [.value(1), .value(2)]
        )
        withExtendedLifetime(otherInput) {}
    }
}

@Suite(.checksLiveObjects) struct MergeStressTests {
    @Test("Signal.merge: 8 signals sending from 8 threads lose nothing and end once")
    func mergeSignalsFromManyThreads() {
        let pipes = (0..<8).map { _ in Signal<Int, TestError>.pipe() }
        let recorder = EventRecorder<Int, TestError>()
        let detector = OverlapDetector()
        Signal<Int, TestError>.merge(pipes.map(\.output)).observe { event in
            detector.enter()
            recorder.record(event)
            detector.leave()
        }
        runConcurrently(8) { thread in
            for index in 0..<1_000 { pipes[thread].input.send(value: thread * 10_000 + index) }
            pipes[thread].input.sendCompleted()
        }
        #expect(detector.overlapCount == 0)
        #expect(recorder.values.count == 8_000)
        #expect(Set(recorder.values).count == 8_000)
        #expect(recorder.terminalCount == 1)
        #expect(recorder.events.last == .completed)
    }
}
