import Dispatch
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct RetryTests {
    typealias Script = [Signal<Int, TestError>.Event]

    private func record(_ producer: SignalProducer<Int, TestError>) -> [Signal<Int, TestError>.Event] {
        let recorder = EventRecorder<Int, TestError>()
        producer.start(recorder.observer)
        return recorder.events
    }

    @Test func retryRestartsAfterEachFailureAndForwardsEveryValue() {
        let source = CountingSource<Int, TestError>([
            [.value(1), .failed(TestError(1))],
            [.value(2), .failed(TestError(2))],
            [.value(3), .completed],
        ])
        #expect(record(source.producer.retry(upTo: 2)) == [.value(1), .value(2), .value(3), .completed])
        #expect(source.starts.value == 3)
        // Every run's lifetime ended: the failed ones when they failed, the last when it completed.
        #expect(source.ends.value == 3)
    }

    @Test func retryForwardsTheFailureOnceTheRetriesAreUsedUp_E2() {
        let source = CountingSource<Int, TestError>([[.value(0), .failed(TestError(5))]])
        #expect(record(source.producer.retry(upTo: 2)) == [.value(0), .value(0), .value(0), .failed(TestError(5))])
        #expect(source.starts.value == 3)
    }

    @Test func retryZeroIsTheProducerItself() {
        let source = CountingSource<Int, TestError>([[.failed(TestError(1))]])
        #expect(record(source.producer.retry(upTo: 0)) == [.failed(TestError(1))])
        #expect(source.starts.value == 1)
    }

    @Test func retryDoesNotRestartAfterCompletionOrInterruption_E4() {
        let completing = CountingSource<Int, TestError>([[.value(1), .completed]])
        #expect(record(completing.producer.retry(upTo: 3)) == [.value(1), .completed])
        #expect(completing.starts.value == 1)
        let interrupted = CountingSource<Int, TestError>([[.value(1), .interrupted]])
        #expect(record(interrupted.producer.retry(upTo: 3)) == [.value(1), .interrupted])
        #expect(interrupted.starts.value == 1)
    }

    @Test func manySynchronousRetriesDoNotGrowTheStack() {
        let source = CountingSource<Int, TestError>([[.failed(TestError(1))]])
        let events = record(source.producer.retry(upTo: 20_000))
        #expect(events == [.failed(TestError(1))])
        #expect(source.starts.value == 20_001)
    }

    @Test func failuresOnAnotherThreadAreRetried() {
        let starts = Counter()
        let producer = SignalProducer<Int, TestError> { observer, _ in
            let run = starts.increment()
            DispatchQueue.global().async {
                observer.send(value: run)
                if run < 3 { observer.send(error: TestError(run)) } else { observer.sendCompleted() }
            }
        }
        let recorder = EventRecorder<Int, TestError>()
        let done = DispatchSemaphore(value: 0)
        producer.retry(upTo: 5).start { event in
            recorder.record(event)
            if event.isTerminating { done.signal() }
        }
        withWatchdog(seconds: 300) { done.wait() }
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func disposingEndsTheCurrentRunAndStartsNoOther_P4() {
        expectDisposalStopsUpstream(
            (Int, TestError).self,
            signal: { $0 },
            producer: { $0.retry(upTo: 3) }
        )
        let source = CountingSource<Int, TestError>([[.value(1)]])
        let recorder = EventRecorder<Int, TestError>()
        let disposable = source.producer.retry(upTo: 3).start(recorder.observer)
        // The run is still going (its start handler let go of its input, which does not end it).
        #expect(recorder.events == [.value(1)])
        disposable.dispose()
        #expect(recorder.events == [.value(1), .interrupted])
        #expect(source.starts.value == 1, "an interrupted run is not retried")
    }

    @Test func repeatRunsTheProducerCountTimes() {
        let source = CountingSource<Int, TestError>([[.value(1), .value(2), .completed]])
        #expect(
            record(source.producer.repeat(3)) == [.value(1), .value(2), .value(1), .value(2), .value(1), .value(2), .completed])
        #expect(source.starts.value == 3)
        #expect(source.ends.value == 3)
    }

    @Test func repeatZeroCompletesWithoutStartingAndOneIsTheProducer() {
        let source = CountingSource<Int, TestError>([[.value(1), .completed]])
        #expect(record(source.producer.repeat(0)) == [.completed])
        #expect(source.starts.value == 0)
        #expect(record(source.producer.repeat(1)) == [.value(1), .completed])
        #expect(source.starts.value == 1)
    }

    @Test func repeatStopsAtAFailureOrAnInterruption_E2_E4() {
        let failing = CountingSource<Int, TestError>([[.value(1), .completed], [.value(2), .failed(TestError(2))]])
        #expect(record(failing.producer.repeat(5)) == [.value(1), .value(2), .failed(TestError(2))])
        #expect(failing.starts.value == 2)
        let interrupted = CountingSource<Int, TestError>([[.value(1), .completed], [.interrupted]])
        #expect(record(interrupted.producer.repeat(5)) == [.value(1), .interrupted])
        #expect(interrupted.starts.value == 2)
    }

    @Test func repeatDisposalStopsTheUpstream_P4() {
        expectDisposalStopsUpstream((Int, TestError).self, signal: { $0 }, producer: { $0.repeat(4) })
    }
}
