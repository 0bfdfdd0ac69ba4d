import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

private func at(_ seconds: TimeInterval) -> Date {
    Date(timeIntervalSinceReferenceDate: seconds)
}

/// A task sleeping on a `TestScheduler` and an async `advance` or `run` started right after it,
/// hundreds of times over.
///
/// The hang these tests guard against: the task registered its wake-up (or its next one) after the
/// advance had already moved the clock past the time it asked for, so the wake-up was never run.
/// The advance had only yielded a fixed number of times, which does not wait for a task running on
/// another thread. On the main actor, where the async `advance` runs as in ReactiveSwift and where
/// `sleep` now stays, the task and the advance take turns on one executor and the order is fixed.
/// Nothing here is timed; a lost wake-up hangs, and the deadline turns that into a failure.
@MainActor
@Suite(.checksLiveObjects, .timeLimit(.minutes(1)))
struct TestSchedulerSleepRaceTests {
    static let rounds = 500

    @Test func aTaskStartedJustBeforeAnAdvanceIsWokenByIt() async {
        for round in 0..<Self.rounds {
            let scheduler = TestScheduler()
            let task = Task {
                try await scheduler.sleep(for: .seconds(1))
                return scheduler.currentDate
            }
            // No waiting for the sleep to be scheduled: the advance lets the task get there first.
            await scheduler.advance(by: .seconds(1))

            let woke = await awaitWithDeadline("round \(round): the sleep") { try? await task.value }
            guard let woke else { return }
            #expect(woke == at(1), "round \(round)")
            #expect(scheduler.pendingActionCount == 0, "round \(round)")
        }
    }

    @Test func aTaskSleepingInALoopTakesEveryStepWithinOneAdvance() async {
        for round in 0..<Self.rounds {
            let scheduler = TestScheduler()
            let steps = ScheduledLog<Date>()
            let task = Task {
                for _ in 0..<3 {
                    try await scheduler.sleep(for: .seconds(1))
                    steps.append(scheduler.currentDate)
                }
            }
            await scheduler.advance(by: .seconds(3))

            let finished = await awaitWithDeadline("round \(round): the loop") { (try? await task.value) != nil }
            guard finished != nil else { return }
            #expect(steps.items == [at(1), at(2), at(3)], "round \(round)")
        }
    }

    @Test func asyncRunTakesATaskThroughAllItsSleeps() async {
        for round in 0..<Self.rounds {
            let scheduler = TestScheduler()
            let task = Task {
                try await scheduler.sleep(for: .milliseconds(500))
                try await scheduler.sleep(until: at(2))
                try await scheduler.sleep(for: 0.25)
                return scheduler.currentDate
            }
            await scheduler.run()

            let woke = await awaitWithDeadline("round \(round): the sleeps") { try? await task.value }
            guard let woke else { return }
            #expect(woke == at(2.25), "round \(round)")
            #expect(scheduler.currentDate == .distantFuture, "round \(round)")
        }
    }

    @Test func anAdvanceFromAnotherThreadRacingTheSleepEitherWakesItOrLeavesItDueLater() async {
        // The sync advance on another thread races the task's registration: the wake-up is either
        // run by that advance or due one second after the clock it settled at, never stranded at
        // a time already passed.
        for round in 0..<Self.rounds {
            let scheduler = TestScheduler()
            let task = Task {
                try await scheduler.sleep(for: .seconds(1))
                return scheduler.currentDate
            }
            let advanced = Task.detached { scheduler.advance(by: .seconds(1)) }
            await advanced.value
            await scheduler.advance(by: .seconds(1))

            let woke = await awaitWithDeadline("round \(round): the sleep") { try? await task.value }
            guard let woke else { return }
            #expect(woke == at(1) || woke == at(2), "round \(round): \(String(describing: woke))")
        }
    }
}

/// A task that sleeps off the main actor runs beside the advance, on another thread, so its wake-up
/// is registered at a moment the advance cannot await. The documented rule is to wait for each
/// sleep to be scheduled before advancing past it; following it, every step is taken, whatever the
/// load. (Advancing past several sleeps at once is best effort off the main actor, not a promise,
/// so it is not tested.)
@Suite(.checksLiveObjects, .timeLimit(.minutes(1)))
struct TestSchedulerSleepOffTheMainActorTests {
    @Test func aTaskSleepingInALoopOffTheMainActorTakesEveryStepWhenEachSleepIsAwaited() async {
        for round in 0..<200 {
            let scheduler = TestScheduler()
            let steps = ScheduledLog<Date>()
            let task = Task.detached {
                for _ in 0..<3 {
                    try await scheduler.sleep(for: .seconds(1))
                    steps.append(scheduler.currentDate)
                }
            }
            for _ in 0..<3 {
                #expect(await eventually { scheduler.pendingActionCount == 1 }, "round \(round)")
                await scheduler.advance(by: .seconds(1))
            }

            let finished = await awaitWithDeadline("round \(round): the loop") { (try? await task.value) != nil }
            guard finished != nil else { return }
            #expect(steps.items == [at(1), at(2), at(3)], "round \(round)")
        }
    }
}
