import Foundation
import Testing

@testable import Rivulet
import RivuletContracts

/// The documented results of the edge intervals the time-based operators accept (issue 19,
/// item 6).
@Suite(.checksLiveObjects) struct IntervalEdgeTests {
    @Test func aTimeoutOfZeroFailsAtTheSchedulersNextTurn() {
        let scheduler = TestScheduler()
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError>.never.timeout(after: 0, raising: TestError(7), on: scheduler).start(recorder.observer)
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.failed(TestError(7))])
    }

    @Test func aDelayOfZeroSendsEachValueAtTheSchedulersNextTurn() {
        let scheduler = TestScheduler()
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>([1, 2]).delay(0, on: scheduler).start(recorder.observer)
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func anIntervalProducerOfAnEmptySequenceCompletesAtTheFirstTick() {
        let scheduler = TestScheduler()
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>.interval([Int](), interval: .seconds(1), on: scheduler).start(recorder.observer)
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [.completed])
    }
}
