import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct DelayTests {
    @Test func valuesAndCompletionAreShiftedByTheInterval() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.delay(1, on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(250))
        input.send(value: 2)
        input.sendCompleted()
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.events == [Timed(1, .value(1))])
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [Timed(1, .value(1)), Timed(1.25, .value(2)), Timed(1.25, .completed)])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func failureIsForwardedAtOnceAndDropsWaitingValues_E2() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.delay(1, on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.send(error: TestError(3))
        // The failure hops onto the scheduler without delay.
        scheduler.advance()
        #expect(recorder.events == [Timed(0.5, .failed(TestError(3)))])
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events.count == 1)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func interruptionIsForwardedAtOnce_E4() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        upstream.producer.delay(2, on: scheduler).start(recorder.observer)
        upstream.send(.value(1))
        upstream.send(.interrupted)
        scheduler.advance()
        #expect(recorder.events == [Timed(0, .interrupted)])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func disposalStopsUpstreamCancelsTimersAndInterruptsOnTheScheduler_P4() {
        // As in ReactiveSwift (issue 16): the delayed values are dropped, and the interruption
        // is delivered on the scheduler, without the delay.
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        let disposable = upstream.producer.delay(1, on: scheduler).start(recorder.observer)
        upstream.send(.value(1))
        upstream.send(.value(2))
        #expect(scheduler.pendingActionCount == 2)
        disposable.dispose()
        #expect(upstream.ends.value == 1)
        #expect(scheduler.pendingActionCount == 1)
        #expect(recorder.events == [])
        scheduler.run()
        #expect(recorder.events == [Timed(0, .interrupted)])
    }

    @Test func signalAndProducerAgree_P3() {
        let scheduler = ImmediateDateScheduler()
        expectOperator(
            [.value(1), .value(2), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.delay(0, on: scheduler) },
            producer: { $0.delay(0, on: scheduler) },
            yields: [.value(1), .value(2), .completed]
        )
        expectOperator(
            [.value(1), .failed(TestError(1))] as [Signal<Int, TestError>.Event],
            signal: { $0.delay(0, on: scheduler) },
            producer: { $0.delay(0, on: scheduler) },
            yields: [.value(1), .failed(TestError(1))]
        )
    }

    @Test func deliversOnTheQueueInOrder() {
        let scheduler = QueueScheduler(name: "delay-test")
        let recorder = recordUntilTerminated(SignalProducer<Int, Never>(0..<100).delay(0.001, on: scheduler))
        #expect(recorder?.values == Array(0..<100))
        #expect(recorder?.events.last == .completed)
        #expect(recorder?.threads.allSatisfy { $0 != ThreadID.current } == true)
    }

    @Test func lateCallbacksDeliverNothingAfterDisposal_P4() {
        expectLateCallbacksDeliverNothing([.value(1), .value(2), .completed]) { $0.delay(1, on: $1) }
        expectLateCallbacksDeliverNothing([.value(1), .failed(TestError(1))]) { $0.delay(1, on: $1) }
    }

    /// The scheduler's thread is delivering (inside the stage) and its observer sends into the
    /// source, while another thread is inside the source sending into the stage: neither may wait
    /// for the other (E6; ReactiveSwift does not deadlock here either).
    @Test(
        .keepsLiveObjects(
            "the observer sends feedback through the source's input, so it keeps that input: a cycle the test makes on purpose (the input's release would end the signal and release the observer)"
        )
    )
    func aFeedbackSendFromTheSchedulerDoesNotDeadlockWithAnotherSender_E6() {
        let scheduler = QueueScheduler(name: "delay-feedback")
        let (signal, input) = Signal<Int, Never>.pipe()
        let inObserver = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let recorder = EventRecorder<Int, Never>()
        signal.delay(0, on: scheduler).observe { event in
            recorder.record(event)
            guard case let .value(value) = event else { return }
            if value == 1 {
                inObserver.signal()
                proceed.wait()
                input.send(value: 3)
            }
            if recorder.values.count == 3 { done.signal() }
        }
        input.send(value: 1)
        inObserver.wait()
        Thread { input.send(value: 2) }.start()
        // Let the other sender reach the stage while the scheduler's thread is in the observer.
        Thread.sleep(forTimeInterval: 0.1)
        proceed.signal()
        #expect(done.wait(timeout: .now() + 300) == .success, "deadlock")
        #expect(recorder.values == [1, 2, 3])
    }
}

@Suite(.checksLiveObjects) struct DelayStressTests {
    /// 8 threads send into the source while the scheduler's thread, delivering, sends feedback
    /// values into the same source: nothing is lost, delivery stays serial and on the queue,
    /// and nobody deadlocks (E5, E6).
    @Test func concurrentSendersAndFeedbackFromTheSchedulerLoseNothing() {
        let scheduler = QueueScheduler(name: "delay-stress")
        let key = DispatchSpecificKey<Int>()
        scheduler.queue.setSpecific(key: key, value: 1)
        let (signal, input) = Signal<Int, Never>.pipe()
        let overlap = OverlapDetector()
        let recorder = EventRecorder<Int, Never>()
        let offQueue = Counter()
        let allValues = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let expected = 8 * 200 + 8 * 20
        signal.delay(0, on: scheduler).observe { event in
            overlap.enter()
            recorder.record(event)
            if DispatchQueue.getSpecific(key: key) != 1 { offQueue.increment() }
            overlap.leave()
            if case let .value(value) = event {
                // Every tenth value comes back once, as a negative value.
                if value >= 0 && value % 10 == 0 { input.send(value: -1 - value) }
                if recorder.values.count == expected { allValues.signal() }
            }
            if event.isTerminating { done.signal() }
        }
        runConcurrently(8) { thread in
            for index in 0..<200 { input.send(value: thread * 1_000 + index) }
        }
        #expect(waitFor(allValues), "deadlock or lost values")
        input.sendCompleted()
        #expect(waitFor(done))
        let values = recorder.values
        #expect(values.count == expected)
        #expect(Set(values).count == expected)
        #expect(recorder.terminalCount == 1)
        #expect(overlap.overlapCount == 0)
        #expect(offQueue.value == 0)
    }
}
