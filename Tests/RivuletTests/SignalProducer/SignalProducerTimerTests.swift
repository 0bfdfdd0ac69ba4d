import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct SignalProducerTimerTests {
    @Test func timerSendsTheCurrentDateEveryInterval() {
        let scheduler = makeTestScheduler()
        let recorder = EventRecorder<Date, Never>()
        let disposable = SignalProducer.timer(interval: .seconds(1), on: scheduler).start(recorder.observer)
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.events == [])
        scheduler.advance(by: .milliseconds(2_001))
        #expect(recorder.values.map(\.timeIntervalSinceReferenceDate) == [1, 2, 3])
        disposable.dispose()
        #expect(scheduler.pendingActionCount == 0)
        #expect(recorder.events.last == .interrupted)
    }

    @Test func materializeAfterATimerSeesTheInterruptionOfADisposedStart_P4() {
        let scheduler = makeTestScheduler()
        let events = Locked<[String]>([])
        let disposable = SignalProducer.timer(interval: .seconds(1), on: scheduler)
            .materialize()
            .start { event in events.withLock { $0.append("\(event)") } }
        scheduler.advance(by: .seconds(1))
        disposable.dispose()
        let recorded = events.withLock { $0 }
        #expect(recorded.count == 3)
        #expect(Array(recorded.suffix(2)) == ["VALUE INTERRUPTED", "INTERRUPTED"])
    }

    @Test func materializeAfterAnIntervalSeesTheInterruptionOfADisposedStart_P4() {
        let scheduler = makeTestScheduler()
        let recorder = EventRecorder<Signal<Int, Never>.Event, Never>()
        let disposable = SignalProducer.interval(0..., interval: .seconds(1), on: scheduler)
            .materialize()
            .start(recorder.observer)
        scheduler.advance(by: .seconds(2))
        disposable.dispose()
        #expect(recorder.events == [.value(.value(0)), .value(.value(1)), .value(.interrupted), .interrupted])
        #expect(scheduler.pendingActionCount == 0)
    }

    /// ReactiveSwift's default for the producer: 10% of the interval (the async
    /// `DateScheduler.timer(interval:leeway:)` defaults to none, also as in ReactiveSwift).
    @Test func timerDefaultLeewayIsTenPercentOfTheInterval() {
        let scheduler = RepeatRecordingScheduler()
        SignalProducer.timer(interval: .seconds(2), on: scheduler).startWithValues { _ in }.dispose()
        SignalProducer.interval(0..., interval: .seconds(1), on: scheduler).startWithValues { _ in }.dispose()

        #expect(scheduler.requests.map(\.leeway.nanosecondCount) == [200_000_000, 100_000_000])
        #expect(scheduler.requests.map(\.date) == [scheduler.currentDate + .seconds(2), scheduler.currentDate + .seconds(1)])
    }

    @Test(.leavesAStartRunning) func timerWithLeewayAndIndependentStarts_P2() {
        let scheduler = makeTestScheduler()
        let timer = SignalProducer.timer(interval: .milliseconds(500), on: scheduler, leeway: .milliseconds(10))
        let first = EventRecorder<Date, Never>()
        let second = EventRecorder<Date, Never>()
        timer.start(first.observer)
        scheduler.advance(by: .milliseconds(250))
        timer.start(second.observer)
        scheduler.advance(by: .milliseconds(750))
        #expect(first.values.map(\.timeIntervalSinceReferenceDate) == [0.5, 1])
        #expect(second.values.map(\.timeIntervalSinceReferenceDate) == [0.75])
    }

    @Test func intervalSendsEachElementThenCompletes() {
        let scheduler = makeTestScheduler()
        let recorder = TimedRecorder<Character, Never>(clock: scheduler)
        SignalProducer.interval("abc", interval: .seconds(1), on: scheduler).start(recorder.observer)
        scheduler.advance(by: .milliseconds(900))
        #expect(recorder.events == [])
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events == [Timed(1, .value("a")), Timed(2, .value("b")), Timed(3, .value("c")), Timed(4, .completed)])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func intervalCounterNeverCompletes() {
        let scheduler = makeTestScheduler()
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer.interval(.milliseconds(100), on: scheduler).start(recorder.observer)
        scheduler.advance(by: .milliseconds(500))
        #expect(recorder.events == [.value(0), .value(1), .value(2), .value(3), .value(4)])
        disposable.dispose()
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func timerRunsOnTheQueue() {
        let scheduler = QueueScheduler(name: "timer-test")
        let recorder = recordUntilTerminated(
            SignalProducer.interval([1, 2, 3], interval: .milliseconds(1), on: scheduler)
        )
        #expect(recorder?.events == [.value(1), .value(2), .value(3), .completed])
        #expect(recorder?.threads.contains(ThreadID.current) == false)
    }

    @Test func lateTicksDeliverNothingAfterDisposal_P4() {
        let scheduler = UncancellableScheduler()
        let dates = EventRecorder<Date, Never>()
        let numbers = EventRecorder<Int, Never>()
        let timer = SignalProducer.timer(interval: .seconds(1), on: scheduler).start(dates.observer)
        let counter = SignalProducer.interval(.seconds(1), on: scheduler).start(numbers.observer)
        #expect(scheduler.pendingCount == 2)
        timer.dispose()
        counter.dispose()
        scheduler.runAll()
        #expect(dates.events == [.interrupted])
        #expect(numbers.events == [.interrupted])
    }

    @Test func aNonPositiveIntervalIsAProgrammingErrorNamingTheOperator() async throws {
        // Rejected when the producer is built, not when a scheduler meets the interval.
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer.timer(interval: .seconds(0), on: TestScheduler())
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                "Rivulet: timer(interval:on:leeway:): interval is seconds(0); it must be greater than 0 and not .never"))
        await #expect(processExitsWith: .failure) {
            _ = SignalProducer<Int, Never>.interval(.milliseconds(-5), on: TestScheduler())
        }
        await #expect(processExitsWith: .failure) {
            _ = SignalProducer<Int, Never>.interval([1, 2], interval: .never, on: TestScheduler())
        }
    }
}
