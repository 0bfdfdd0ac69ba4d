import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct LazyMapTests {
    @Test(.leavesTestSchedulerWorkPending) func supersededValuesAreNeverTransformed() {
        let scheduler = makeTestScheduler()
        let transformed = ScheduledLog<Int>()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.lazyMap(on: scheduler) { value in
            transformed.append(value)
            return value * 10
        }.observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        #expect(transformed.items == [])
        scheduler.advance()
        #expect(transformed.items == [3])
        #expect(recorder.events == [.value(30)])
        input.send(value: 4)
        scheduler.advance()
        #expect(transformed.items == [3, 4])
        #expect(recorder.events == [.value(30), .value(40)])
    }

    @Test func completionAndFailureComeAfterThePendingValue() {
        for terminal in [Signal<Int, TestError>.Event.completed, .failed(TestError(2))] {
            let scheduler = makeTestScheduler()
            let (signal, input) = Signal<Int, TestError>.pipe()
            let recorder = EventRecorder<Int, TestError>()
            signal.lazyMap(on: scheduler) { $0 + 1 }.observe(recorder.observer)
            input.send(value: 1)
            input.send(terminal)
            #expect(recorder.events == [])
            scheduler.advance()
            #expect(recorder.events == [.value(2), terminal])
        }
    }

    @Test func interruptionCancelsThePendingTransform_E4() {
        let scheduler = makeTestScheduler()
        let transformed = Counter()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.lazyMap(on: scheduler) { value -> Int in
            transformed.increment()
            return value
        }.observe(recorder.observer)
        input.send(value: 1)
        input.sendInterrupted()
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
        #expect(transformed.value == 0)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func transformRunsOnTheScheduler() {
        let scheduler = QueueScheduler(name: "lazy-map-test")
        let caller = ThreadID.current
        let recorder = recordUntilTerminated(
            SignalProducer<Int, Never>(value: 1).lazyMap(on: scheduler) { _ in ThreadID.current }
        )
        #expect(recorder?.values.count == 1)
        #expect(recorder?.values.first != caller)
    }

    @Test func disposalStopsUpstreamDropsTheTransformAndInterruptsOnTheScheduler_P4() {
        // As in ReactiveSwift (issue 16): the pending value is dropped, and the interruption is
        // delivered on the scheduler.
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let transformed = Counter()
        let disposable = upstream.producer.lazyMap(on: scheduler) { value -> Int in
            transformed.increment()
            return value
        }.start(recorder.observer)
        upstream.send(.value(1))
        disposable.dispose()
        #expect(upstream.ends.value == 1)
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
        #expect(transformed.value == 0)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func signalAndProducerAgree_P3() {
        expectOperator(
            [.value(1), .value(2), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.lazyMap(on: ImmediateScheduler()) { $0 * 2 } },
            producer: { $0.lazyMap(on: ImmediateScheduler()) { $0 * 2 } },
            yields: [.value(2), .value(4), .completed]
        )
    }

    @Test func lateCallbacksNeitherTransformNorDeliverAfterDisposal_P4() {
        let transformed = Counter()
        let transform: @Sendable (Int) -> Int = { value in
            transformed.increment()
            return value
        }
        expectLateCallbacksDeliverNothing([.value(1), .value(2)]) { $0.lazyMap(on: $1, transform: transform) }
        expectLateCallbacksDeliverNothing([.value(1), .completed]) { $0.lazyMap(on: $1, transform: transform) }
        #expect(transformed.value == 0)
    }
}
