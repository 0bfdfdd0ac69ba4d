import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

private func at(_ seconds: TimeInterval) -> Date {
    Date(timeIntervalSinceReferenceDate: seconds)
}

/// `sleep` and `timer` on a `TestScheduler`, driven by the async `advance` and `run`.
@Suite(.checksLiveObjects, .timeLimit(.minutes(1)))
struct DateSchedulerAsyncTests {
    @Test func sleepResumesWhenVirtualTimeReachesTheDeadline() async throws {
        let scheduler = TestScheduler()
        let task = Task {
            try await scheduler.sleep(for: .seconds(1))
            return scheduler.currentDate
        }
        #expect(await eventually { scheduler.pendingActionCount == 1 })

        await scheduler.advance(by: .milliseconds(999))
        #expect(scheduler.pendingActionCount == 1)
        await scheduler.advance(by: .milliseconds(1))

        #expect(try await task.value == at(1))
    }

    /// On the main actor the steps are deterministic: see `TestSchedulerSleepRaceTests`.
    @MainActor
    @Test func aResumedTaskCanScheduleItsNextStepWithinTheSameAdvance() async throws {
        let scheduler = TestScheduler()
        let steps = ScheduledLog<Date>()
        let task = Task {
            for _ in 0..<3 {
                try await scheduler.sleep(for: .seconds(1))
                steps.append(scheduler.currentDate)
            }
        }
        #expect(await eventually { scheduler.pendingActionCount == 1 })

        await scheduler.advance(by: .seconds(3))
        try await task.value

        #expect(steps.items == [at(1), at(2), at(3)])
        #expect(scheduler.currentDate == at(3))
    }

    @MainActor
    @Test func asyncRunDrivesATaskToCompletion() async throws {
        let scheduler = TestScheduler()
        let task = Task {
            try await scheduler.sleep(for: 0.5)
            try await scheduler.sleep(until: at(2))
            try await scheduler.sleep(for: .milliseconds(250))
            return scheduler.currentDate
        }
        #expect(await eventually { scheduler.pendingActionCount == 1 })

        await scheduler.run()

        #expect(try await task.value == at(2.25))
    }

    @Test func sleepThrowsCancellationErrorWhenItsTaskIsCancelled() async {
        let scheduler = TestScheduler()
        let task = Task {
            try await scheduler.sleep(for: .seconds(1))
        }
        #expect(await eventually { scheduler.pendingActionCount == 1 })

        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
        // The scheduled wake-up was cancelled along with the task.
        #expect(scheduler.pendingActionCount == 0)
    }

    /// As in ReactiveSwift, whose `sleep` checks for cancellation once the wake-up has come.
    @MainActor
    @Test func aTaskCancelledAfterItsWakeUpStillThrowsCancellationError() async {
        let scheduler = TestScheduler()
        let task = Task {
            try await scheduler.sleep(for: .seconds(1))
        }
        // The task runs on the main actor up to its sleep while this one waits.
        await Task.yield()
        #expect(scheduler.pendingActionCount == 1)

        // The synchronous advance resumes the task, which cannot run before this test yields.
        let advanceSynchronously = { scheduler.advance(by: .seconds(1)) }
        advanceSynchronously()
        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
    }

    /// As in ReactiveSwift, the async `advance` and `run` are `@MainActor`: their actions run on
    /// the main actor (here seen as the main queue, which runs the main actor's jobs).
    @Test func asyncAdvanceAndRunRunTheirActionsOnTheMainActor() async {
        let key = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        let scheduler = TestScheduler()
        let onMain = ScheduledLog<Bool>()
        let check: @Sendable () -> Void = { onMain.append(DispatchQueue.getSpecific(key: key) == 1) }
        scheduler.schedule(check)
        scheduler.schedule(after: .seconds(1), action: check)
        scheduler.schedule(after: .seconds(2), action: check)

        await scheduler.advance()
        await scheduler.advance(by: .seconds(1))
        await scheduler.run()

        #expect(onMain.items == [true, true, true])
        // The isolation is part of the signatures.
        let advanceBy: @MainActor (DispatchTimeInterval) async -> Void = scheduler.advance(by:)
        let advanceTo: @MainActor (Date) async -> Void = scheduler.advance(to:)
        _ = (advanceBy, advanceTo)
    }

    @Test func sleepInAnAlreadyCancelledTaskThrowsAtOnce() async {
        let scheduler = TestScheduler()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await scheduler.sleep(for: .seconds(1))
        }

        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func sleepingForNeverEndsOnlyByCancellation() async {
        let scheduler = TestScheduler()
        let started = ScheduledLog<Bool>()
        let task = Task {
            started.append(true)
            try await scheduler.sleep(for: .never)
        }
        #expect(await eventually { started.count == 1 })
        await scheduler.advance(by: .seconds(1_000_000))

        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func sleepUntilAPastDateResumesOnTheNextAdvance() async throws {
        let scheduler = TestScheduler()
        await scheduler.advance(by: .seconds(5))
        let task = Task {
            try await scheduler.sleep(until: at(1))
            return scheduler.currentDate
        }
        #expect(await eventually { scheduler.pendingActionCount == 1 })

        await scheduler.advance()

        #expect(try await task.value == at(5))
    }

    @Test func cancellationRacingTheWakeUpResumesExactlyOnce() async {
        // Either outcome is fine, but each sleep ends exactly once: a double resume traps in the
        // checked continuation, and a lost one would hang, so the deadline turns it into a failure.
        for round in 0..<200 {
            let scheduler = TestScheduler()
            let task = Task { () -> SleepOutcome in
                do {
                    try await scheduler.sleep(for: .seconds(1))
                    return .woke(at: scheduler.currentDate)
                } catch is CancellationError {
                    return .cancelled
                } catch {
                    return .failed("\(error)")
                }
            }
            #expect(await eventually { scheduler.pendingActionCount == 1 }, "round \(round): the sleep was never scheduled")
            // Two threads released at once: one runs the wake-up, the other cancels the task.
            // (From this task, a cancel would always win: the async `advance` yields first.)
            runConcurrently(2) { thread in
                if thread == 0 {
                    scheduler.advance(by: .seconds(1))
                } else {
                    task.cancel()
                }
            }
            let outcome = await awaitWithDeadline("round \(round): the sleep") { await task.value }
            guard let outcome else { break }
            #expect(outcome == .woke(at: at(1)) || outcome == .cancelled, "round \(round): \(outcome)")
            // The wake-up either ran or was cancelled along with the task: nothing is left behind.
            #expect(scheduler.pendingActionCount == 0, "round \(round)")
            #expect(scheduler.currentDate == at(1), "round \(round)")
        }
    }

    @Test func sleepOnAQueueSchedulerWaitsForTheWallClock() async throws {
        let scheduler = QueueScheduler()
        let due = scheduler.currentDate.addingTimeInterval(0.1)

        try await scheduler.sleep(until: due)

        #expect(Date() >= due)
    }

    @Test func sleepOnAQueueSchedulerIsCancellable() async {
        let scheduler = QueueScheduler()
        let task = Task { try await scheduler.sleep(for: .seconds(600)) }

        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func sleepTakesALeewayAsInReactiveSwiftOnEveryDateScheduler() async throws {
        func sleepTwice<S: DateScheduler>(on scheduler: S, until date: Date) async throws {
            try await scheduler.sleep(for: .milliseconds(500), leeway: .milliseconds(5))
            try await scheduler.sleep(until: date, leeway: .seconds(0))
        }
        let scheduler = TestScheduler()
        let task = Task {
            try await sleepTwice(on: scheduler, until: at(2))
            return scheduler.currentDate
        }
        #expect(await eventually { scheduler.pendingActionCount == 1 })
        await scheduler.advance(by: .milliseconds(500))
        #expect(await eventually { scheduler.pendingActionCount == 1 })
        await scheduler.advance(to: at(2))
        #expect(try await task.value == at(2))

        // The defaults are ReactiveSwift's, so the unapplied forms have its types.
        let sleepFor: (DispatchTimeInterval, DispatchTimeInterval) async throws -> Void = scheduler.sleep(for:leeway:)
        let sleepUntil: (Date, DispatchTimeInterval) async throws -> Void = scheduler.sleep(until:leeway:)
        _ = (sleepFor, sleepUntil)
        try await QueueScheduler().sleep(for: .milliseconds(1), leeway: .milliseconds(1))
    }

    @Test func sleepingForANegativeIntervalOrLeewayIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            try? await TestScheduler().sleep(for: .seconds(-1))
        }
        await #expect(processExitsWith: .failure) {
            try? await TestScheduler().sleep(until: .distantFuture, leeway: .milliseconds(-1))
        }
    }

    @Test func timerDefaultLeewayIsZero() {
        let scheduler = RepeatRecordingScheduler()
        _ = scheduler.timer(interval: .seconds(1))
        _ = scheduler.timer(interval: .seconds(1), leeway: .milliseconds(30))

        #expect(scheduler.requests.map(\.leeway.nanosecondCount) == [0, 30_000_000])
        #expect(scheduler.requests.map(\.date) == [scheduler.currentDate + .seconds(1), scheduler.currentDate + .seconds(1)])
    }

    @Test func timerTicksOncePerIntervalWithTheSchedulersDate() async throws {
        let scheduler = TestScheduler()
        let ticks = scheduler.timer(interval: .seconds(1))
        let consumer = Task {
            var dates: [Date] = []
            for await date in ticks {
                dates.append(date)
                if dates.count == 3 { break }
            }
            return dates
        }

        await scheduler.advance(by: .seconds(3))

        #expect(await consumer.value == [at(1), at(2), at(3)])
    }

    @Test func timerStopsWhenTheConsumerIsCancelled() async {
        let scheduler = TestScheduler()
        let received = ScheduledLog<Date>()
        let consumer = Task {
            for await date in scheduler.timer(interval: .milliseconds(100)) {
                received.append(date)
            }
        }
        #expect(await eventually { scheduler.pendingActionCount == 1 })
        await scheduler.advance(by: .milliseconds(200))
        #expect(await eventually { received.count == 2 })

        consumer.cancel()
        await consumer.value

        #expect(await eventually { scheduler.pendingActionCount == 0 })
        await scheduler.advance(by: .seconds(1))
        #expect(received.items == [at(0.1), at(0.2)])
    }

    @Test func timerOnAQueueSchedulerTicksWithIncreasingDates() async {
        let scheduler = QueueScheduler()
        var dates: [Date] = []
        for await date in scheduler.timer(interval: .milliseconds(20)) {
            dates.append(date)
            if dates.count == 3 { break }
        }

        #expect(dates.count == 3)
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 })
    }
}

/// How a racing `sleep` ended.
private enum SleepOutcome: Equatable, Sendable {
    case woke(at: Date)
    case cancelled
    case failed(String)
}
