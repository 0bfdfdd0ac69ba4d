import Dispatch
import Foundation
import Testing
@testable import Rivulet

@Suite struct ObserveOnTests {
    @Test func everyEventGoesThroughTheSchedulerInOrder() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.observe(on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        input.send(error: TestError(1))
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [.value(1), .value(2), .failed(TestError(1))])
    }

    @Test func deliversOnTheQueueInOrder() {
        let scheduler = QueueScheduler(name: "observe-on-test")
        let key = DispatchSpecificKey<Int>()
        scheduler.queue.setSpecific(key: key, value: 1)
        let onQueue = ScheduledLog<Bool>()
        let producer = SignalProducer<Int, Never>(0..<1_000)
            .observe(on: scheduler)
            .map { value -> Int in
                onQueue.append(DispatchQueue.getSpecific(key: key) == 1)
                return value
            }
        let recorder = recordUntilTerminated(producer)
        #expect(recorder?.values == Array(0..<1_000))
        #expect(recorder?.events.last == .completed)
        #expect(onQueue.count == 1_000)
        #expect(onQueue.items.allSatisfy { $0 })
        #expect(recorder?.threads.contains(ThreadID.current) == false)
    }

    @Test func immediateSchedulerDeliversSynchronously_E7() {
        expectOperator(
            [.value(1), .value(2), .failed(TestError(3))] as [Signal<Int, TestError>.Event],
            signal: { $0.observe(on: ImmediateScheduler()) },
            producer: { $0.observe(on: ImmediateScheduler()) },
            yields: [.value(1), .value(2), .failed(TestError(3))]
        )
        expectOperator(
            [.value(1), .interrupted] as [Signal<Int, TestError>.Event],
            signal: { $0.observe(on: ImmediateScheduler()) },
            producer: { $0.observe(on: ImmediateScheduler()) },
            yields: [.value(1), .interrupted]
        )
    }

    @Test func disposalStopsUpstreamAndDropsQueuedEvents_P4() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = upstream.producer.observe(on: scheduler).start(recorder.observer)
        upstream.send(.value(1))
        disposable.dispose()
        #expect(upstream.ends.value == 1)
        scheduler.run()
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposalDeliversTheInterruptionOnTheSchedulerAndDropsQueuedValues_P4() {
        // As in ReactiveSwift (issue 16): nothing reaches the observer on the disposing thread.
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = upstream.producer.observe(on: scheduler).start(recorder.observer)
        upstream.send(.value(1))
        upstream.send(.value(2))
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func disposalOfNeverThroughObserveOnInterruptsOnTheScheduler_P4() {
        let scheduler = makeTestScheduler()
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer<Int, Never>.never.observe(on: scheduler).start(recorder.observer)
        disposable.dispose()
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
    }

    @Test func nothingIsDeliveredAfterATerminalEvent_E1() {
        let scheduler = makeTestScheduler()
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError>.fused({ downstream, _ in
            downstream(.value(1))
            downstream(.completed)
            downstream(.value(2))
        }).observe(on: scheduler).start(recorder.observer)
        scheduler.run()
        #expect(recorder.events == [.value(1), .completed])
    }

    /// A scheduler that runs its actions on a concurrent queue, in any order.
    final class ConcurrentScheduler: Scheduler {
        let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)
        func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
            queue.async(execute: action)
            return nil
        }
    }

    @Test func orderAndSerialDeliveryHoldOnAConcurrentScheduler_E5() {
        let overlap = OverlapDetector()
        let recorder = EventRecorder<Int, Never>()
        let done = DispatchSemaphore(value: 0)
        SignalProducer<Int, Never>(0..<500).observe(on: ConcurrentScheduler()).start { event in
            overlap.enter()
            recorder.record(event)
            overlap.leave()
            if event.isTerminating { done.signal() }
        }
        #expect(waitFor(done))
        #expect(recorder.values == Array(0..<500))
        #expect(overlap.overlapCount == 0)
    }

    /// A scheduler that queues its actions until told to run them, and counts them.
    final class CountingScheduler: Scheduler, @unchecked Sendable {
        // @unchecked Sendable: `actions` is a `Locked`.
        let actions = Locked<[@Sendable () -> Void]>([])
        let scheduled = Counter()
        func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
            scheduled.increment()
            actions.withLock { $0.append(action) }
            return nil
        }
        /// Runs the actions queued so far (not those they schedule); returns how many ran.
        @discardableResult
        func runQueued() -> Int {
            let queued = actions.withLock { actions in
                defer { actions = [] }
                return actions
            }
            for action in queued { action() }
            return queued.count
        }
    }

    @Test func aBurstAsksTheSchedulerOnceAndALongBurstYieldsBetweenDrains() {
        let scheduler = CountingScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        signal.observe(on: scheduler).observe(recorder.observer)
        for value in 0..<600 { input.send(value: value) }
        #expect(scheduler.scheduled.value == 1)
        scheduler.runQueued()
        // One drain delivers at most 256 events, then schedules the next behind other work.
        #expect(recorder.values == Array(0..<256))
        #expect(scheduler.scheduled.value == 2)
        scheduler.runQueued()
        scheduler.runQueued()
        #expect(recorder.values == Array(0..<600))
        #expect(scheduler.scheduled.value == 3)
        // The burst is over: the next event asks for a new drain.
        input.send(value: 600)
        #expect(scheduler.scheduled.value == 4)
        scheduler.runQueued()
        #expect(recorder.values.last == 600)
    }

    @Test func lateCallbacksDeliverNothingAfterDisposal_P4() {
        expectLateCallbacksDeliverNothing([.value(1), .value(2), .completed]) { $0.observe(on: $1) }
    }
}

@Suite struct ObserveOnStressTests {
    @Test func concurrentSendersIntoAQueueSchedulerLoseNothing() {
        let scheduler = QueueScheduler(name: "observe-on-stress")
        let (signal, input) = Signal<Int, Never>.pipe()
        let overlap = OverlapDetector()
        let recorder = EventRecorder<Int, Never>()
        let done = DispatchSemaphore(value: 0)
        signal.observe(on: scheduler).observe { event in
            overlap.enter()
            recorder.record(event)
            overlap.leave()
            if event.isTerminating { done.signal() }
        }
        runConcurrently(8) { thread in
            for index in 0..<500 { input.send(value: thread * 1_000 + index) }
        }
        input.sendCompleted()
        input.sendCompleted()
        #expect(waitFor(done))
        #expect(recorder.values.count == 8 * 500)
        #expect(Set(recorder.values).count == 8 * 500)
        #expect(recorder.terminalCount == 1)
        #expect(overlap.overlapCount == 0)
        // Each sender's values keep their order.
        for thread in 0..<8 {
            let mine = recorder.values.filter { $0 / 1_000 == thread }
            #expect(mine == mine.sorted())
        }
    }
}
