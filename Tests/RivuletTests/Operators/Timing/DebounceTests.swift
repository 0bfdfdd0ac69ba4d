import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct DebounceTests {
    @Test(.leavesTestSchedulerWorkPending) func sendsTheLatestValueAfterAQuietInterval() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.debounce(1, on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.send(value: 2)
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.events == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [Timed(1.5, .value(2))])
        input.send(value: 3)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [Timed(1.5, .value(2)), Timed(2.5, .value(3))])
    }

    @Test func completionDiscardsThePendingValueByDefault() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.debounce(1, on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(250))
        input.sendCompleted()
        scheduler.advance()
        #expect(recorder.events == [Timed(0.25, .completed)])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func completionKeepsThePendingValueWhenAsked() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.debounce(1, on: scheduler, discardWhenCompleted: false).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(250))
        input.sendCompleted()
        scheduler.advance(by: .milliseconds(500))
        #expect(recorder.events == [])
        scheduler.advance(by: .milliseconds(250))
        #expect(recorder.events == [Timed(1, .value(1)), Timed(1, .completed)])
    }

    @Test func completionWithNothingPendingIsForwardedAtOnce() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        signal.debounce(1, on: scheduler, discardWhenCompleted: false).observe(recorder.observer)
        input.sendCompleted()
        scheduler.advance()
        #expect(recorder.events == [Timed(0, .completed)])
    }

    @Test func failureAndInterruptionAreForwardedAtOnce_E2_E4() {
        for terminal in [Signal<Int, TestError>.Event.failed(TestError(4)), .interrupted] {
            let scheduler = makeTestScheduler()
            let (signal, input) = Signal<Int, TestError>.pipe()
            let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
            signal.debounce(1, on: scheduler, discardWhenCompleted: false).observe(recorder.observer)
            input.send(value: 1)
            scheduler.advance(by: .milliseconds(100))
            input.send(terminal)
            scheduler.advance()
            #expect(recorder.events == [Timed(0.1, terminal)])
            scheduler.advance(by: .seconds(2))
            #expect(recorder.events.count == 1)
            #expect(scheduler.pendingActionCount == 0)
        }
    }

    @Test func disposalStopsUpstreamCancelsTheTimerAndInterruptsOnTheScheduler_P4() {
        // As in ReactiveSwift (issue 16): the held value is dropped, and the interruption is
        // delivered on the scheduler, without waiting for the interval.
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = upstream.producer.debounce(1, on: scheduler).start(recorder.observer)
        upstream.send(.value(1))
        #expect(scheduler.pendingActionCount == 1)
        disposable.dispose()
        #expect(upstream.ends.value == 1)
        #expect(scheduler.pendingActionCount == 1)
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func signalAndProducerAgree_P3() {
        let scheduler = ImmediateDateScheduler()
        expectOperator(
            [.value(1), .value(2), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.debounce(0, on: scheduler) },
            producer: { $0.debounce(0, on: scheduler) },
            yields: [.value(1), .value(2), .completed]
        )
        expectOperator(
            [.value(1), .failed(TestError(2))] as [Signal<Int, TestError>.Event],
            signal: { $0.debounce(0, on: scheduler) },
            producer: { $0.debounce(0, on: scheduler) },
            yields: [.value(1), .failed(TestError(2))]
        )
    }

    @Test func lateCallbacksDeliverNothingAfterDisposal_P4() {
        expectLateCallbacksDeliverNothing([.value(1)]) { $0.debounce(1, on: $1) }
        expectLateCallbacksDeliverNothing([.value(1), .completed]) {
            $0.debounce(1, on: $1, discardWhenCompleted: false)
        }
        expectLateCallbacksDeliverNothing([.value(1), .interrupted]) { $0.debounce(1, on: $1) }
    }
}

@Suite(.checksLiveObjects) struct DebounceStressTests {
    @Test func concurrentSendersIntoDebounceEndWithOneTerminal() {
        let scheduler = QueueScheduler(name: "debounce-stress")
        let (signal, input) = Signal<Int, Never>.pipe()
        let overlap = OverlapDetector()
        let recorder = EventRecorder<Int, Never>()
        let done = DispatchSemaphore(value: 0)
        signal.debounce(0.0005, on: scheduler, discardWhenCompleted: false).observe { event in
            overlap.enter()
            recorder.record(event)
            overlap.leave()
            if event.isTerminating { done.signal() }
        }
        runConcurrently(8) { thread in
            for index in 0..<300 { input.send(value: thread * 1_000 + index) }
        }
        input.send(value: -1)
        input.sendCompleted()
        #expect(waitFor(done))
        #expect(recorder.terminalCount == 1)
        #expect(recorder.events.last == .completed)
        // The value sent last, before completion, is never lost.
        #expect(recorder.values.last == -1)
        #expect(overlap.overlapCount == 0)
    }
}
