import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct ObserveOnTests {
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

    @Test(.leavesTestSchedulerWorkPending) func aBurstAsksTheSchedulerOnceAndALongBurstYieldsBetweenDrains() {
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

    /// Sends 5 then 0 on two streams, alternately, from this thread before `scheduler` runs.
    static func sendAlternately(observedOn scheduler: Scheduler, into log: ScheduledLog<String>) {
        let (first, firstInput) = Signal<Int, Never>.pipe()
        let (second, secondInput) = Signal<Int, Never>.pipe()
        first.observe(on: scheduler).observeValues { log.append("o0 \($0)") }
        second.observe(on: scheduler).observeValues { log.append("o1 \($0)") }
        firstInput.send(value: 5)
        secondInput.send(value: 5)
        firstInput.send(value: 0)
        secondInput.send(value: 0)
    }

    @Test func twoStreamsOnOneTestSchedulerKeepTheOrderTheyWereSentIn() {
        // As in ReactiveSwift: "loading ends, then data arrives" holds across two signals.
        let scheduler = makeTestScheduler()
        let log = ScheduledLog<String>()
        Self.sendAlternately(observedOn: scheduler, into: log)
        #expect(log.items == [])
        scheduler.advance()
        #expect(log.items == ["o0 5", "o1 5", "o0 0", "o1 0"])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func twoStreamsOnOneQueueSchedulerKeepTheOrderTheyWereSentIn() {
        let scheduler = QueueScheduler(name: "observe-on-two-streams")
        let gate = DispatchSemaphore(value: 0)
        scheduler.queue.async { gate.wait() }
        let log = ScheduledLog<String>()
        Self.sendAlternately(observedOn: scheduler, into: log)
        gate.signal()
        let done = DispatchSemaphore(value: 0)
        scheduler.queue.async { done.signal() }
        #expect(waitFor(done))
        #expect(log.items == ["o0 5", "o1 5", "o0 0", "o1 0"])
    }

    @Test(.leavesTestSchedulerWorkPending) func aStreamObservedOnTwoSchedulersIsDeliveredByEachOnItsOwn() {
        let first = makeTestScheduler()
        let second = makeTestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let onFirst = EventRecorder<Int, Never>()
        let onSecond = EventRecorder<Int, Never>()
        signal.observe(on: first).observe(onFirst.observer)
        signal.observe(on: second).observe(onSecond.observer)
        input.send(value: 1)
        input.send(value: 2)
        second.advance()
        #expect(onFirst.values == [])
        #expect(onSecond.values == [1, 2])
        input.send(value: 3)
        first.advance()
        #expect(onFirst.values == [1, 2, 3])
        #expect(onSecond.values == [1, 2])
        second.advance()
        #expect(onSecond.values == [1, 2, 3])
    }

    @Test(.leavesTestSchedulerWorkPending) func aDisposedStartIsInterruptedAfterOtherStreamsEventsAlreadyQueued_P4() {
        // The dropped values' tickets are skipped; the interruption takes its place in line.
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let (other, otherInput) = Signal<Int, TestError>.pipe()
        let log = ScheduledLog<String>()
        let disposable = upstream.producer.observe(on: scheduler).start { event in
            switch event {
            case let .value(value): log.append("start \(value)")
            case .interrupted: log.append("start interrupted")
            case .failed, .completed: log.append("start ended")
            }
        }
        other.observe(on: scheduler).observeValues { log.append("other \($0)") }
        upstream.send(.value(1))
        otherInput.send(value: 2)
        disposable.dispose()
        otherInput.send(value: 3)
        scheduler.advance()
        #expect(log.items == ["other 2", "start interrupted", "other 3"])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test(.leavesTestSchedulerWorkPending) func aLongBurstOnASharedQueueYieldsBetweenDrains() {
        let scheduler = makeTestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        signal.observe(on: scheduler).observe(recorder.observer)
        for value in 0..<600 { input.send(value: value) }
        #expect(scheduler.pendingActionCount == 1)
        scheduler.advance()
        #expect(recorder.values == Array(0..<600))
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func lateCallbacksDeliverNothingAfterDisposal_P4() {
        expectLateCallbacksDeliverNothing([.value(1), .value(2), .completed]) { $0.observe(on: $1) }
    }
}

@Suite(.checksLiveObjects) struct ObserveOnStressTests {
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

    @Test func concurrentSendersOnSeveralStreamsIntoOneQueueSchedulerLoseNothing() {
        let scheduler = QueueScheduler(name: "observe-on-stress-streams")
        let streams = 4
        let threads = 4
        let perThread = 400
        let overlap = OverlapDetector()
        let done = DispatchSemaphore(value: 0)
        let pipes = (0..<streams).map { _ in Signal<Int, Never>.pipe() }
        let recorders = (0..<streams).map { _ in EventRecorder<Int, Never>() }
        for (pipe, recorder) in zip(pipes, recorders) {
            pipe.output.observe(on: scheduler).observe { event in
                overlap.enter()
                recorder.record(event)
                overlap.leave()
                if event.isTerminating { done.signal() }
            }
        }
        let inputs = pipes.map(\.input)
        runConcurrently(threads) { thread in
            for index in 0..<perThread {
                inputs[(thread + index) % streams].send(value: thread * 10_000 + index)
            }
        }
        for input in inputs { input.sendCompleted() }
        for _ in 0..<streams { #expect(waitFor(done)) }
        #expect(overlap.overlapCount == 0)
        let all = recorders.flatMap(\.values)
        #expect(all.count == threads * perThread)
        #expect(Set(all).count == threads * perThread)
        for (stream, recorder) in recorders.enumerated() {
            #expect(recorder.terminalCount == 1)
            // Each sender's values keep their order in each stream.
            for thread in 0..<threads {
                let mine = recorder.values.filter { $0 / 10_000 == thread }
                #expect(mine == mine.sorted())
                #expect(mine.allSatisfy { ($0 % 10_000 + thread) % streams == stream })
            }
        }
    }
}
