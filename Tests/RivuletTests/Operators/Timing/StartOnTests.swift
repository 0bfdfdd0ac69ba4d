import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct StartOnTests {
    @Test func theStartRunsOnTheScheduler() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        upstream.producer.start(on: scheduler).start(recorder.observer)
        #expect(upstream.starts.value == 0)
        scheduler.advance()
        #expect(upstream.starts.value == 1)
        upstream.send(.value(1))
        upstream.send(.completed)
        #expect(recorder.events == [.value(1), .completed])
        #expect(upstream.ends.value == 1)
    }

    @Test func disposingBeforeTheStartRanCancelsIt_P4() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = upstream.producer.start(on: scheduler).start(recorder.observer)
        disposable.dispose()
        #expect(scheduler.pendingActionCount == 0)
        scheduler.run()
        #expect(upstream.starts.value == 0)
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposingAfterTheStartStopsUpstream_P4() {
        let scheduler = makeTestScheduler()
        let upstream = ManualProducer<Int, TestError>()
        let disposable = upstream.producer.start(on: scheduler).start()
        scheduler.advance()
        disposable.dispose()
        #expect(upstream.ends.value == 1)
    }

    @Test func startHandlerRunsOnTheQueue() {
        let scheduler = QueueScheduler(name: "start-on-test")
        let caller = ThreadID.current
        let startThread = Locked<ThreadID?>(nil)
        let producer = SignalProducer<Int, Never> { observer, _ in
            startThread.withLock { $0 = ThreadID.current }
            observer.send(value: 1)
            observer.sendCompleted()
        }
        let recorder = recordUntilTerminated(producer.start(on: scheduler))
        #expect(recorder?.events == [.value(1), .completed])
        #expect(startThread.withLock { $0 } != nil)
        #expect(startThread.withLock { $0 } != caller)
    }

    @Test func eachStartIsScheduledSeparately_P2() {
        let scheduler = makeTestScheduler()
        let producer = SignalProducer<Int, Never>(value: 1).start(on: scheduler)
        let first = EventRecorder<Int, Never>()
        let second = EventRecorder<Int, Never>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(scheduler.pendingActionCount == 2)
        scheduler.advance()
        #expect(first.events == [.value(1), .completed])
        #expect(second.events == [.value(1), .completed])
    }

    @Test func aLateStartCallbackStartsNothingAfterDisposal_P4() {
        expectLateCallbacksDeliverNothing([]) { $0.start(on: $1) }
    }
}
