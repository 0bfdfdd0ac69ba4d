import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct ThrottleTests {
    @Test(.leavesTestSchedulerWorkPending) func sendsTheLatestValueAtMostOncePerInterval() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.throttle(1, on: scheduler).observe(recorder.observer)
        // The first value goes out at once, on the scheduler.
        input.send(value: 0)
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [Timed(0, .value(0))])
        // Values within the interval wait for its end; the latest wins.
        scheduler.advance(by: .milliseconds(250))
        input.send(value: 1)
        input.send(value: 2)
        scheduler.advance(by: .milliseconds(500))
        input.send(value: 3)
        scheduler.advance(by: .milliseconds(250))
        #expect(recorder.events == [Timed(0, .value(0)), Timed(1, .value(3))])
        // Long after the last one, a value goes out at once again.
        scheduler.advance(by: .seconds(5))
        input.send(value: 4)
        scheduler.advance()
        #expect(recorder.events.last == Timed(6, .value(4)))
    }

    @Test func terminationDropsAWaitingValue() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.throttle(1, on: scheduler).observe(recorder.observer)
        input.send(value: 0)
        scheduler.advance()
        input.send(value: 1)
        input.sendCompleted()
        scheduler.advance()
        #expect(recorder.events == [Timed(0, .value(0)), Timed(0, .completed)])
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events.count == 2)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func failureAndInterruptionAreForwardedAtOnce_E2_E4() {
        for terminal in [Signal<Int, TestError>.Event.failed(TestError(1)), .interrupted] {
            let scheduler = makeTestScheduler()
            let (signal, input) = Signal<Int, TestError>.pipe()
            let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
            signal.throttle(10, on: scheduler).observe(recorder.observer)
            input.send(value: 0)
            scheduler.advance()
            input.send(value: 1)
            scheduler.advance(by: .seconds(1))
            input.send(terminal)
            scheduler.advance()
            #expect(recorder.events == [Timed(0, .value(0)), Timed(1, terminal)])
        }
    }

    @Test func disposalStopsUpstreamDropsTheValueAndInterruptsOnTheScheduler_P4() {
        // As in ReactiveSwift (issue 16): the value not yet delivered is dropped, and the
        // interruption is delivered on the scheduler.
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = upstream.producer.throttle(1, on: scheduler).start(recorder.observer)
        upstream.send(.value(1))
        disposable.dispose()
        #expect(upstream.ends.value == 1)
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func signalAndProducerAgree_P3() {
        let scheduler = ImmediateDateScheduler()
        expectOperator(
            [.value(1), .value(2), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.throttle(0, on: scheduler) },
            producer: { $0.throttle(0, on: scheduler) },
            yields: [.value(1), .value(2), .completed]
        )
    }

    // MARK: throttle(while:on:)

    @Test(.leavesTestSchedulerWorkPending) func throttleWhileHoldsTheLatestValueWhileTheConditionIsTrue() {
        let scheduler = makeTestScheduler()
        let (condition, setCondition) = Signal<Bool, Never>.pipe()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.throttle(while: condition, on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance()
        setCondition.send(value: true)
        input.send(value: 2)
        input.send(value: 3)
        scheduler.advance()
        #expect(recorder.events == [Timed(0, .value(1))])
        scheduler.advance(by: .seconds(1))
        setCondition.send(value: false)
        input.send(value: 4)
        scheduler.advance()
        #expect(recorder.events == [Timed(0, .value(1)), Timed(1, .value(3)), Timed(1, .value(4))])
    }

    @Test func throttleWhileAppliesTheConditionsCurrentValueFirst() {
        let scheduler = makeTestScheduler()
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>([1, 2])
            .throttle(while: SignalProducer<Bool, Never>(value: true), on: scheduler)
            .start(recorder.observer)
        scheduler.run()
        // The condition ended while true: values stay held; completion drops the held one.
        #expect(recorder.events == [.completed])
    }

    @Test func throttleWhileForwardsTerminalEventsAndDropsTheHeldValue_E2() {
        let scheduler = makeTestScheduler()
        let (condition, setCondition) = Signal<Bool, Never>.pipe()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.throttle(while: condition, on: scheduler).observe(recorder.observer)
        setCondition.send(value: true)
        input.send(value: 1)
        input.send(error: TestError(9))
        setCondition.send(value: false)
        scheduler.run()
        #expect(recorder.events == [.failed(TestError(9))])
    }

    @Test(.leavesTestSchedulerWorkPending) func throttleWhileDisposalStopsBothSources_P4() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let condition = ManualProducer<Bool, Never>()
        let disposable = upstream.producer.throttle(while: condition.producer, on: scheduler).start()
        #expect(condition.starts.value == 1)
        #expect(upstream.starts.value == 1)
        disposable.dispose()
        #expect(upstream.ends.value == 1)
        #expect(condition.ends.value == 1)
    }

    @Test func throttleWhileSignalAndProducerAgree_P3() {
        let scheduler = ImmediateScheduler()
        expectOperator(
            [.value(1), .value(2), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.throttle(while: SignalProducer<Bool, Never>(value: false), on: scheduler) },
            producer: { $0.throttle(while: SignalProducer<Bool, Never>(value: false), on: scheduler) },
            yields: [.value(1), .value(2), .completed]
        )
    }

    @Test func lateCallbacksDeliverNothingAfterDisposal_P4() {
        expectLateCallbacksDeliverNothing([.value(1), .value(2)]) { $0.throttle(1, on: $1) }
        expectLateCallbacksDeliverNothing([.value(1), .completed]) { $0.throttle(1, on: $1) }
        expectLateCallbacksDeliverNothing([.value(1), .value(2)]) {
            $0.throttle(while: SignalProducer<Bool, Never>(value: false), on: $1)
        }
    }

    /// The thread delivering a value through the gate sends into the condition while another
    /// thread, inside the condition's delivery, sends into the gate: neither waits for the other (E6).
    @Test func throttleWhileFeedbackIntoTheConditionDoesNotDeadlock_E6() {
        let (condition, setCondition) = Signal<Bool, Never>.pipe()
        let (signal, input) = Signal<Int, Never>.pipe()
        let inObserver = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let recorder = EventRecorder<Int, Never>()
        signal.throttle(while: condition, on: ImmediateScheduler()).observe { event in
            recorder.record(event)
            if case .value(1) = event {
                inObserver.signal()
                proceed.wait()
                setCondition.send(value: false)
            }
        }
        let first = DispatchSemaphore(value: 0)
        Thread {
            input.send(value: 1)
            first.signal()
        }.start()
        inObserver.wait()
        let other = DispatchSemaphore(value: 0)
        Thread {
            setCondition.send(value: true)
            other.signal()
        }.start()
        // Let the other thread reach the gate while the first is in the observer.
        Thread.sleep(forTimeInterval: 0.1)
        proceed.signal()
        let firstFinished = waitFor(first, seconds: 300)
        let otherFinished = waitFor(other, seconds: 300)
        #expect(firstFinished && otherFinished, "deadlock")
        guard firstFinished && otherFinished else { return }
        input.send(value: 2)
        #expect(recorder.values == [1, 2])
    }
}
