import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct RetryIntervalTests {
    /// A producer that sends its attempt number, then fails with it.
    func failingProducer(_ attempts: Counter) -> SignalProducer<Int, TestError> {
        SignalProducer { observer, _ in
            let attempt = attempts.increment()
            observer.send(value: attempt)
            observer.send(error: TestError(attempt))
        }
    }

    @Test func retriesAfterTheIntervalThenForwardsTheLastFailure() {
        let scheduler = makeTestScheduler()
        let attempts = Counter()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        failingProducer(attempts).retry(upTo: 2, interval: 1, on: scheduler).start(recorder.observer)
        #expect(recorder.events == [Timed(0, .value(1))])
        scheduler.advance(by: .milliseconds(999))
        #expect(attempts.value == 1)
        scheduler.advance(by: .milliseconds(1))
        #expect(attempts.value == 2)
        scheduler.advance(by: .seconds(5))
        #expect(
            recorder.events == [
                Timed(0, .value(1)), Timed(1, .value(2)), Timed(2, .value(3)), Timed(2, .failed(TestError(3))),
            ])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func successAfterARetryCompletes() {
        let scheduler = makeTestScheduler()
        let attempts = Counter()
        let producer = SignalProducer<Int, TestError> { observer, _ in
            let attempt = attempts.increment()
            if attempt < 2 {
                observer.send(error: TestError(attempt))
            } else {
                observer.send(value: attempt)
                observer.sendCompleted()
            }
        }
        let recorder = EventRecorder<Int, TestError>()
        producer.retry(upTo: 5, interval: 0.5, on: scheduler).start(recorder.observer)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.value(2), .completed])
        #expect(attempts.value == 2)
    }

    @Test func eachStartCountsItsOwnRetries_P2() {
        let scheduler = makeTestScheduler()
        let attempts = Counter()
        let producer = failingProducer(attempts).retry(upTo: 1, interval: 1, on: scheduler)
        let first = EventRecorder<Int, TestError>()
        let second = EventRecorder<Int, TestError>()
        producer.start(first.observer)
        scheduler.run()
        producer.start(second.observer)
        scheduler.run()
        #expect(first.values.count == 2)
        #expect(second.values.count == 2)
        #expect(attempts.value == 4)
    }

    @Test func zeroRetriesForwardsTheFirstFailure() {
        let scheduler = makeTestScheduler()
        let attempts = Counter()
        let recorder = EventRecorder<Int, TestError>()
        failingProducer(attempts).retry(upTo: 0, interval: 1, on: scheduler).start(recorder.observer)
        #expect(recorder.events == [.value(1), .failed(TestError(1))])
    }

    @Test func interruptionIsForwardedAtOnce_E4() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        upstream.producer.retry(upTo: 3, interval: 1, on: scheduler).start(recorder.observer)
        upstream.send(.value(1))
        upstream.send(.interrupted)
        #expect(recorder.events == [.value(1), .interrupted])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func disposalDuringTheWaitCancelsTheRetry_P4() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = upstream.producer.retry(upTo: 3, interval: 1, on: scheduler).start(recorder.observer)
        upstream.send(.failed(TestError(1)))
        #expect(upstream.ends.value == 1)
        #expect(scheduler.pendingActionCount == 1)
        disposable.dispose()
        // The wait's timer is cancelled at once. The waiting attempt is a start of its own, whose
        // `delay` delivers its interruption on the scheduler, as in ReactiveSwift: one action due
        // now, which starts nothing.
        #expect(scheduler.pendingActionCount <= 1)
        scheduler.advance()
        #expect(scheduler.pendingActionCount == 0)
        scheduler.run()
        #expect(upstream.starts.value == 1)
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposalStopsTheRunningAttempt_P4() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let disposable = upstream.producer.retry(upTo: 3, interval: 1, on: scheduler).start()
        upstream.send(.failed(TestError(1)))
        scheduler.advance(by: .seconds(1))
        #expect(upstream.starts.value == 2)
        disposable.dispose()
        #expect(upstream.ends.value == 2)
    }

    @Test func aLateRetryCallbackStartsNothingAfterDisposal_P4() {
        expectLateCallbacksDeliverNothing([.value(1), .failed(TestError(1))], before: [.value(1)]) {
            $0.retry(upTo: 2, interval: 1, on: $1)
        }
    }
}
