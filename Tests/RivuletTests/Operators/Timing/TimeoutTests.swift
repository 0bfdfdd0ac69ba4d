import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct TimeoutTests {
    @Test func failsWhenUpstreamHasNotTerminatedInTime() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.timeout(after: 2, raising: TestError(8), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        // Events pass through at once, on the sender's thread (E7).
        #expect(recorder.events == [Timed(0, .value(1))])
        scheduler.advance(by: .milliseconds(1_999))
        #expect(recorder.events.count == 1)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [Timed(0, .value(1)), Timed(2, .failed(TestError(8)))])
        input.send(value: 2)
        #expect(recorder.events.count == 2)
    }

    @Test func terminatingInTimeCancelsTheTimeout() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        upstream.producer.timeout(after: 1, raising: TestError(1), on: scheduler).start(recorder.observer)
        upstream.send(.value(1))
        upstream.send(.completed)
        #expect(scheduler.pendingActionCount == 0)
        scheduler.run()
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func upstreamFailureAndInterruptionPassThrough_E2_E4() {
        expectOperator(
            [.value(1), .failed(TestError(2))] as [Signal<Int, TestError>.Event],
            signal: { $0.timeout(after: 1, raising: TestError(9), on: makeTestScheduler()) },
            producer: { $0.timeout(after: 1, raising: TestError(9), on: makeTestScheduler()) },
            yields: [.value(1), .failed(TestError(2))]
        )
        expectOperator(
            [.value(1), .interrupted] as [Signal<Int, TestError>.Event],
            signal: { $0.timeout(after: 1, raising: TestError(9), on: makeTestScheduler()) },
            producer: { $0.timeout(after: 1, raising: TestError(9), on: makeTestScheduler()) },
            yields: [.value(1), .interrupted]
        )
    }

    @Test func neverFailingStreamsGetANewErrorType() {
        let scheduler = makeTestScheduler()
        let recorder = EventRecorder<Int, TestError>()
        let producer: SignalProducer<Int, TestError> = SignalProducer<Int, Never>.never
            .timeout(after: 1, raising: TestError(5), on: scheduler)
        producer.start(recorder.observer)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.failed(TestError(5))])

        let (signal, input) = Signal<Int, Never>.pipe()
        let signalRecorder = EventRecorder<Int, TestError>()
        signal.timeout(after: 1, raising: TestError(6), on: scheduler).observe(signalRecorder.observer)
        input.send(value: 1)
        input.sendCompleted()
        scheduler.advance(by: .seconds(2))
        #expect(signalRecorder.events == [.value(1), .completed])
    }

    @Test func disposalInterruptsAtOnceEvenBelowADelay_P4() {
        // timeout is a per-start signal operator in ReactiveSwift: a disposed start is interrupted
        // at once, even while a stage above holds the interruption for its scheduler.
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = upstream.producer
            .delay(1, on: scheduler)
            .timeout(after: 5, raising: TestError(9), on: scheduler)
            .start(recorder.observer)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        scheduler.run()
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposalStopsUpstreamAndCancelsTheTimeout_P4() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let disposable = upstream.producer.timeout(after: 1, raising: TestError(1), on: scheduler).start()
        #expect(scheduler.pendingActionCount == 1)
        disposable.dispose()
        #expect(upstream.ends.value == 1)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func aLateTimeoutDeliversNothingAfterDisposal_P4() {
        expectLateCallbacksDeliverNothing([.value(1)], before: [.value(1)]) {
            $0.timeout(after: 1, raising: TestError(1), on: $1)
        }
    }
}
