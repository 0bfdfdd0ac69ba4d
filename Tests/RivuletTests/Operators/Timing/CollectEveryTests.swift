import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct CollectEveryTests {
    @Test(.leavesTestSchedulerWorkPending) func sendsTheValuesOfEachInterval() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<[Int], TestError>(clock: scheduler)
        signal.collect(every: .seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        scheduler.advance(by: .seconds(1))
        scheduler.advance(by: .milliseconds(500))
        input.send(value: 3)
        scheduler.advance(by: .milliseconds(500))
        #expect(recorder.events == [Timed(1, .value([1, 2])), Timed(2, .value([3]))])
    }

    @Test(.leavesTestSchedulerWorkPending) func emptyIntervalsSendEmptyArraysUnlessSkipped() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<[Int], TestError>(clock: scheduler)
        let skipping = TimedRecorder<[Int], TestError>(clock: scheduler)
        signal.collect(every: .seconds(1), on: scheduler).observe(recorder.observer)
        signal.collect(every: .seconds(1), on: scheduler, skipEmpty: true).observe(skipping.observer)
        scheduler.advance(by: .seconds(2))
        withExtendedLifetime(input) {}
        #expect(recorder.events == [Timed(1, .value([])), Timed(2, .value([]))])
        #expect(skipping.events == [])
    }

    @Test func completionDiscardsByDefaultOrWaitsForTheNextTick() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let discarding = TimedRecorder<[Int], TestError>(clock: scheduler)
        let keeping = TimedRecorder<[Int], TestError>(clock: scheduler)
        signal.collect(every: .seconds(1), on: scheduler).observe(discarding.observer)
        signal.collect(every: .seconds(1), on: scheduler, discardWhenCompleted: false).observe(keeping.observer)
        scheduler.advance(by: .milliseconds(500))
        input.send(value: 1)
        input.sendCompleted()
        scheduler.advance()
        #expect(discarding.events == [Timed(0.5, .completed)])
        #expect(keeping.events == [])
        scheduler.advance(by: .milliseconds(500))
        #expect(keeping.events == [Timed(1, .value([1])), Timed(1, .completed)])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func failureAndInterruptionAreForwardedAtOnce_E2_E4() {
        for terminal in [Signal<[Int], TestError>.Event.failed(TestError(3)), .interrupted] {
            let scheduler = makeTestScheduler()
            let (signal, input) = Signal<Int, TestError>.pipe()
            let recorder = TimedRecorder<[Int], TestError>(clock: scheduler)
            signal.collect(every: .seconds(1), on: scheduler, discardWhenCompleted: false).observe(recorder.observer)
            input.send(value: 1)
            scheduler.advance(by: .milliseconds(250))
            switch terminal {
            case let .failed(error): input.send(error: error)
            default: input.sendInterrupted()
            }
            scheduler.advance()
            #expect(recorder.events == [Timed(0.25, terminal)])
            #expect(scheduler.pendingActionCount == 0)
        }
    }

    @Test func disposalStopsUpstreamAndTheTimerAndInterruptsOnTheScheduler_P4() {
        // As in ReactiveSwift (issue 16): the values collected are dropped, and the interruption
        // is delivered on the scheduler.
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<[Int], TestError>()
        let disposable = upstream.producer.collect(every: .seconds(1), on: scheduler).start(recorder.observer)
        upstream.send(.value(1))
        #expect(scheduler.pendingActionCount == 1)
        disposable.dispose()
        #expect(upstream.ends.value == 1)
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func signalAndProducerAgree_P3() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let fromSignal = EventRecorder<[Int], TestError>()
        let fromProducer = EventRecorder<[Int], TestError>()
        signal.collect(every: .seconds(1), on: scheduler, discardWhenCompleted: false).observe(fromSignal.observer)
        signal.producer.collect(every: .seconds(1), on: scheduler, discardWhenCompleted: false).start(fromProducer.observer)
        input.send(value: 1)
        scheduler.advance(by: .seconds(1))
        input.send(value: 2)
        input.sendCompleted()
        scheduler.advance(by: .seconds(1))
        #expect(fromSignal.events == [.value([1]), .value([2]), .completed])
        #expect(fromProducer.events == fromSignal.events)
    }

    @Test func lateTicksDeliverNothingAfterDisposal_P4() {
        expectLateCallbacksDeliverNothing([.value(1)]) { $0.collect(every: .seconds(1), on: $1).map(\.count) }
        expectLateCallbacksDeliverNothing([.value(1), .completed]) {
            $0.collect(every: .seconds(1), on: $1, discardWhenCompleted: false).map(\.count)
        }
        expectLateCallbacksDeliverNothing([.value(1), .failed(TestError(2))]) {
            $0.collect(every: .seconds(1), on: $1).map(\.count)
        }
    }

    @Test func aNonPositiveIntervalIsAProgrammingErrorNamingTheOperator() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.never.collect(every: .seconds(0), on: TestScheduler())
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                "Rivulet: collect(every:on:skipEmpty:discardWhenCompleted:): interval is seconds(0); it must be greater than 0 and not .never"
            ))
        await #expect(processExitsWith: .failure) {
            _ = Signal<Int, Never>.never.collect(every: .never, on: TestScheduler())
        }
    }
}
