import Testing

@testable import Rivulet
import RivuletContracts

/// The documented results of the edge counts the operators accept (issue 19, item 6).
@Suite(.checksLiveObjects) struct CountEdgeTests {
    @Test func takeFirstZeroOnASignalHasAlreadyCompleted() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        signal.take(first: 0).observe(recorder.observer)
        input.send(value: 1)
        // The result completed when it was made; an observer that comes later hears `interrupted` (S3).
        #expect(recorder.events == [.interrupted])
    }

    @Test func takeFirstZeroOnAProducerIsInterruptedWithoutStartingIt() {
        let starts = Counter()
        let producer = SignalProducer<Int, Never> { observer, _ in
            _ = starts.increment()
            observer.send(value: 1)
        }
        #expect(recordedEvents(of: producer.take(first: 0)) == [.interrupted])
        #expect(starts.value == 0)
    }

    @Test func takeLastZeroSendsNoValueAndCompletesWithTheSource() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        signal.take(last: 0).observe(recorder.observer)
        input.send(value: 1)
        #expect(recorder.events.isEmpty)
        input.sendCompleted()
        #expect(recorder.events == [.completed])
        #expect(recordedEvents(of: SignalProducer<Int, Never>([1, 2]).take(last: 0)) == [.completed])
    }

    @Test func skipFirstZeroForwardsEverything() {
        #expect(recordedEvents(of: SignalProducer<Int, Never>([1, 2]).skip(first: 0)) == [.value(1), .value(2), .completed])
    }

    @Test func retryZeroTimesForwardsTheFirstFailure() {
        let starts = Counter()
        let failing = SignalProducer<Int, TestError> { observer, _ in
            observer.send(value: starts.increment())
            observer.send(error: TestError(1))
        }
        #expect(recordedEvents(of: failing.retry(upTo: 0)) == [.value(1), .failed(TestError(1))])
        #expect(starts.value == 1)
    }

    @Test func repeatZeroTimesCompletesWithoutStarting() {
        let starts = Counter()
        let producer = SignalProducer<Int, Never> { observer, _ in
            _ = starts.increment()
            observer.sendCompleted()
        }
        #expect(recordedEvents(of: producer.repeat(0)) == [.completed])
        #expect(starts.value == 0)
    }

    @Test func replayLazilyWithNoCapacityReplaysOnlyTheTerminalEvent() {
        let replayed = SignalProducer<Int, Never>([1, 2, 3]).replayLazily(upTo: 0)
        #expect(recordedEvents(of: replayed) == [.value(1), .value(2), .value(3), .completed])
        #expect(recordedEvents(of: replayed) == [.completed])
    }

    @Test func concurrentFlatteningWithALimitOfOneRunsOneInnerAtATime() {
        let (first, firstInput) = Signal<Int, Never>.pipe()
        let (second, secondInput) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<SignalProducer<Int, Never>, Never>([first.producer, second.producer])
            .flatten(.concurrent(limit: 1))
            .start(recorder.observer)
        secondInput.send(value: 20) // the second inner has not started: not forwarded
        firstInput.send(value: 1)
        firstInput.sendCompleted()
        secondInput.send(value: 21)
        secondInput.sendCompleted()
        #expect(recorder.events == [.value(1), .value(21), .completed])
    }
}
