import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// The date `seconds` after the reference date, the default start of a `TestScheduler`.
private func at(_ seconds: TimeInterval) -> Date {
    Date(timeIntervalSinceReferenceDate: seconds)
}

@Suite(.checksLiveObjects, .timeLimit(.minutes(1)))
struct TestSchedulerTests {
    @Test func startsAtTheStartDateAndSchedulingRunsNothing() {
        let scheduler = TestScheduler(startDate: at(100))
        let log = ScheduledLog<String>()

        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: at(101)) { log.append("later") }

        #expect(scheduler.currentDate == at(100))
        #expect(log.items.isEmpty)
        scheduler.advance()
        #expect(log.items == ["now"])
        // As in ReactiveSwift, `advance()` moves the clock by one nanosecond.
        #expect(scheduler.currentDate == at(100).addingTimeInterval(1e-9))
        scheduler.schedule(after: .nanoseconds(2)) { log.append("two nanoseconds later") }
        scheduler.advance()
        #expect(log.items == ["now"])
        scheduler.advance()
        #expect(log.items == ["now", "two nanoseconds later"])
    }

    @Test func actionsRunInDateOrderAndSeeTheirOwnDate() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<(String, Date)>()

        scheduler.schedule(after: at(3)) { log.append(("c", scheduler.currentDate)) }
        scheduler.schedule(after: .seconds(1)) { log.append(("a", scheduler.currentDate)) }
        scheduler.schedule(after: at(2)) { log.append(("b", scheduler.currentDate)) }
        scheduler.advance(by: .seconds(5))

        #expect(log.items.map(\.0) == ["a", "b", "c"])
        #expect(log.items.map(\.1) == [at(1), at(2), at(3)])
        #expect(scheduler.currentDate == at(5))
    }

    @Test func actionsDueAtTheSameDateRunInTheOrderTheyWereScheduled() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<Int>()

        for index in 0..<20 {
            if index.isMultiple(of: 2) {
                scheduler.schedule(after: at(1)) { log.append(index) }
            } else {
                scheduler.schedule(after: .milliseconds(1_000)) { log.append(index) }
            }
        }
        scheduler.schedule(after: at(0.5)) { log.append(-1) }
        scheduler.advance(by: .seconds(1))

        #expect(log.items == [-1] + Array(0..<20))
    }

    @Test func advanceByRunsOnlyTheDueWorkAndMovesTheClock() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<String>()
        scheduler.schedule(after: .seconds(1)) { log.append("1s") }
        scheduler.schedule(after: .seconds(3)) { log.append("3s") }

        scheduler.advance(by: .seconds(2))
        #expect(log.items == ["1s"])
        #expect(scheduler.currentDate == at(2))

        scheduler.advance(by: .milliseconds(999))
        #expect(log.items == ["1s"])
        #expect(scheduler.currentDate == at(2.999))

        scheduler.advance(by: 0.001)
        #expect(log.items == ["1s", "3s"])
        #expect(scheduler.currentDate == at(3))
    }

    @Test func advanceToRunsWorkDueByTheDateAndEndsThere() {
        let scheduler = TestScheduler(startDate: at(1_000))
        let log = ScheduledLog<String>()
        scheduler.schedule(after: at(1_001)) { log.append("a") }
        scheduler.schedule(after: at(1_002.5)) { log.append("b") }
        scheduler.schedule(after: at(1_002.5000001)) { log.append("c") }

        scheduler.advance(to: at(1_002.5))

        #expect(log.items == ["a", "b"])
        #expect(scheduler.currentDate == at(1_002.5))
    }

    @Test func intervalsAddUpExactly() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<Date>()
        scheduler.schedule(after: .milliseconds(300)) { log.append(scheduler.currentDate) }

        for _ in 0..<3 {
            scheduler.advance(by: .milliseconds(100))
        }

        #expect(log.items == [at(0.3)])
        #expect(scheduler.currentDate == at(0.3))
    }

    @Test func workScheduledWhileAdvancingRunsInTheSameAdvanceIfDue() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<(String, Date)>()

        scheduler.schedule(after: .seconds(1)) {
            log.append(("outer", scheduler.currentDate))
            scheduler.schedule { log.append(("now", scheduler.currentDate)) }
            scheduler.schedule(after: .seconds(1)) { log.append(("+1s", scheduler.currentDate)) }
            scheduler.schedule(after: .seconds(5)) { log.append(("+5s", scheduler.currentDate)) }
            scheduler.schedule(after: at(0)) { log.append(("past", scheduler.currentDate)) }
        }
        scheduler.schedule(after: .seconds(1)) { log.append(("sibling", scheduler.currentDate)) }

        scheduler.advance(by: .seconds(3))

        #expect(log.items.map(\.0) == ["outer", "sibling", "now", "past", "+1s"])
        #expect(log.items.map(\.1) == [at(1), at(1), at(1), at(1), at(2)])
        #expect(scheduler.currentDate == at(3))
        #expect(scheduler.pendingActionCount == 1)
    }

    @Test func disposingCancelsTheAction() throws {
        let scheduler = TestScheduler()
        let log = ScheduledLog<String>()

        let cancelled = try #require(scheduler.schedule(after: .seconds(1)) { log.append("cancelled") })
        scheduler.schedule(after: .seconds(1)) { log.append("kept") }
        cancelled.dispose()

        #expect(cancelled.isDisposed)
        #expect(scheduler.pendingActionCount == 1)
        scheduler.run()
        #expect(log.items == ["kept"])
    }

    @Test func anActionCanCancelAnotherDueAtTheSameDate() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<String>()
        let victim = SerialDisposable()

        scheduler.schedule(after: .seconds(1)) {
            log.append("first")
            victim.dispose()
        }
        victim.inner = scheduler.schedule(after: .seconds(1)) { log.append("victim") }
        scheduler.advance(by: .seconds(1))

        #expect(log.items == ["first"])
    }

    @Test func disposingReleasesTheAction() throws {
        final class Token: Sendable {}
        let scheduler = TestScheduler()
        weak var weakToken: Token?
        var disposable: Disposable?
        do {
            let token = Token()
            weakToken = token
            disposable = scheduler.schedule(after: .seconds(1)) { _ = token }
        }
        #expect(weakToken != nil)
        disposable?.dispose()
        #expect(weakToken == nil)
    }

    @Test func runRunsEverythingInOrderAtTheirDates() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<String>()
        scheduler.schedule(after: .seconds(10)) {
            log.append("10s at \(scheduler.currentDate.timeIntervalSinceReferenceDate)")
            scheduler.schedule(after: .seconds(5)) {
                log.append("15s at \(scheduler.currentDate.timeIntervalSinceReferenceDate)")
            }
        }
        scheduler.schedule(after: .seconds(2)) { log.append("2s at \(scheduler.currentDate.timeIntervalSinceReferenceDate)") }

        scheduler.run()

        #expect(log.items == ["2s at 2.0", "10s at 10.0", "15s at 15.0"])
        #expect(scheduler.pendingActionCount == 0)
    }

    /// As ReactiveSwift's `run()`: the clock ends at `Date.distantFuture`, not at the last action.
    @Test func runLeavesCurrentDateAtDistantFuture() {
        let scheduler = TestScheduler()
        scheduler.schedule(after: .seconds(15)) {}
        scheduler.run()
        #expect(scheduler.currentDate == .distantFuture)

        let idle = TestScheduler()
        idle.advance(by: .seconds(4))
        idle.run()
        #expect(idle.currentDate == .distantFuture)
    }

    @Test func asyncRunLeavesCurrentDateAtDistantFuture() async {
        let scheduler = TestScheduler()
        let log = ScheduledLog<Date>()
        scheduler.schedule(after: .seconds(15)) { log.append(scheduler.currentDate) }
        await scheduler.run()
        #expect(log.items == [at(15)])
        #expect(scheduler.currentDate == .distantFuture)
    }

    @Test func workScheduledAfterRunCountsExactlyFromDistantFuture() {
        let scheduler = TestScheduler()
        scheduler.run()
        let log = ScheduledLog<String>()
        scheduler.schedule(after: .seconds(2)) { log.append("2s") }
        scheduler.schedule(after: .seconds(1)) { log.append("1s") }

        scheduler.advance(by: .milliseconds(1_500))
        #expect(log.items == ["1s"])
        #expect(scheduler.currentDate == Date.distantFuture.addingTimeInterval(1.5))
        scheduler.advance(by: .seconds(1))
        #expect(log.items == ["1s", "2s"])

        // Rewinding is still allowed, as in ReactiveSwift.
        scheduler.rewind(by: .seconds(10))
        #expect(scheduler.currentDate == Date.distantFuture.addingTimeInterval(-7.5))
    }

    @Test func runDoesNotMoveAClockAlreadyPastDistantFutureBack() {
        let later = Date.distantFuture.addingTimeInterval(60)
        let scheduler = TestScheduler()
        scheduler.advance(to: later)
        scheduler.run()
        #expect(scheduler.currentDate == later)
    }

    @Test func runStopsARepeatingScheduleOnceItIsDisposed() {
        let scheduler = TestScheduler()
        let fires = ScheduledLog<Date>()
        let timer = SerialDisposable()

        timer.inner = scheduler.schedule(after: .seconds(1), interval: .seconds(1)) {
            fires.append(scheduler.currentDate)
            if fires.count == 3 { timer.dispose() }
        }
        scheduler.run()

        #expect(fires.items == [at(1), at(2), at(3)])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func aNeverDelayNeverRuns() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<String>()

        let disposable = scheduler.schedule(after: .never) { log.append("never") }
        scheduler.run()

        #expect(log.items.isEmpty)
        #expect(disposable != nil)
    }

    @Test func rewindMovesTheClockBackWithoutRunningAnything() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<Date>()
        scheduler.advance(by: .seconds(10))
        scheduler.schedule(after: at(12)) { log.append(scheduler.currentDate) }

        scheduler.rewind(by: .seconds(4))
        #expect(scheduler.currentDate == at(6))
        #expect(log.items.isEmpty)

        scheduler.advance(by: .seconds(5))
        #expect(log.items.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(log.items == [at(12)])

        scheduler.rewind(by: .seconds(12))
        #expect(scheduler.currentDate == at(0))
    }

    @Test func repeatingScheduleFiresOncePerIntervalInAnAdvance() {
        let scheduler = TestScheduler()
        let fires = ScheduledLog<Date>()

        let timer = scheduler.schedule(after: .seconds(1), interval: .milliseconds(100)) {
            fires.append(scheduler.currentDate)
        }
        scheduler.advance(by: .seconds(2))

        #expect(fires.count == 11)
        #expect(fires.items.first == at(1))
        #expect(fires.items.last == at(2))

        scheduler.advance(by: .milliseconds(250))
        #expect(fires.count == 13)

        timer?.dispose()
        scheduler.advance(by: .seconds(10))
        #expect(fires.count == 13)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func repeatingThroughTheProtocolUsesTheDefaultLeeway() {
        let scheduler = TestScheduler()
        let dateScheduler: any DateScheduler = scheduler
        let fires = ScheduledLog<Date>()

        let timer = dateScheduler.schedule(after: at(0.5), interval: .seconds(1)) {
            fires.append(dateScheduler.currentDate)
        }
        scheduler.advance(to: at(3))
        timer?.dispose()

        #expect(fires.items == [at(0.5), at(1.5), at(2.5)])
    }

    /// ReactiveSwift's `schedule(after: DispatchTimeInterval, interval:leeway:action:)` is on every
    /// `DateScheduler`, with no leeway by default.
    @Test func scheduleAfterADelayWithAnIntervalIsOnEveryDateScheduler() {
        func startTicking<S: DateScheduler>(_ scheduler: S, _ tick: @escaping @Sendable () -> Void) -> Disposable? {
            scheduler.schedule(after: .milliseconds(500), interval: .seconds(1), action: tick)
        }

        let recording = RepeatRecordingScheduler()
        _ = startTicking(recording) {}
        let anyScheduler: any DateScheduler = recording
        _ = anyScheduler.schedule(after: .seconds(1), interval: .seconds(1), leeway: .milliseconds(5)) {}
        #expect(
            recording.requests.map(\.date) == [recording.currentDate + .milliseconds(500), recording.currentDate + .seconds(1)])
        #expect(recording.requests.map(\.leeway.nanosecondCount) == [0, 5_000_000])

        let scheduler = TestScheduler()
        let fires = ScheduledLog<Date>()
        let timer = startTicking(scheduler) { fires.append(scheduler.currentDate) }
        scheduler.advance(by: .seconds(3))
        timer?.dispose()
        #expect(fires.items == [at(0.5), at(1.5), at(2.5)])
    }

    @Test func aRepeatingActionCanDisposeOfItself() {
        let scheduler = TestScheduler()
        let fires = Locked(0)
        let timer = SerialDisposable()

        timer.inner = scheduler.schedule(after: .seconds(0), interval: .seconds(1)) {
            if fires.withLock({ count -> Int in
                count += 1; return count
            }) == 2 {
                timer.dispose()
            }
        }
        scheduler.advance(by: .seconds(10))

        #expect(fires.withLock { $0 } == 2)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func actionsCanUseTheSchedulerWithoutDeadlock() {
        let scheduler = TestScheduler()
        let log = ScheduledLog<Date>()
        let other = scheduler.schedule(after: .seconds(2)) { log.append(.distantPast) }

        scheduler.schedule(after: .seconds(1)) {
            log.append(scheduler.currentDate)
            other?.dispose()
            scheduler.schedule(after: .milliseconds(500)) { log.append(scheduler.currentDate) }
            scheduler.advance()
            log.append(scheduler.currentDate)
        }
        scheduler.advance(by: .seconds(3))

        // The nested `advance()` moved the clock by one nanosecond, as in ReactiveSwift.
        #expect(log.items == [at(1), at(1).addingTimeInterval(1e-9), at(1.5)])
    }

    @Test func schedulingFromManyThreadsWhileAdvancingLosesNothing() {
        let scheduler = TestScheduler()
        let ran = Locked(0)
        let dates = ScheduledLog<Date>()
        let perThread = 500
        let threads = 4

        DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
            if index == threads {
                for _ in 0..<200 { scheduler.advance(by: .milliseconds(1)) }
                return
            }
            for step in 0..<perThread {
                scheduler.schedule(after: .milliseconds(step % 50)) {
                    ran.withLock { $0 += 1 }
                    dates.append(scheduler.currentDate)
                }
            }
        }
        scheduler.run()

        #expect(ran.withLock { $0 } == threads * perThread)
        let recorded = dates.items
        #expect(zip(recorded, recorded.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func advancingBackwardsIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = TestScheduler()
            scheduler.advance(by: .seconds(2))
            scheduler.advance(to: Date(timeIntervalSinceReferenceDate: 1))
        }
        await #expect(processExitsWith: .failure) {
            TestScheduler().advance(by: .seconds(-1))
        }
        await #expect(processExitsWith: .failure) {
            TestScheduler().advance(by: .never)
        }
    }

    @Test func rewindingPastTheStartDateIsAProgrammingError() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            scheduler.advance(by: .seconds(1))
            scheduler.rewind(by: .seconds(2))
        }
        #expect(
            String(decoding: result.standardErrorContent, as: UTF8.self).contains(
                "Rivulet: TestScheduler.rewind(by:): interval is 2000000000 ns; time cannot move before the scheduler's start date"
            ))
    }

    @Test func repeatingWithAnInvalidIntervalIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            _ = TestScheduler().schedule(after: .seconds(1), interval: .never) {}
        }
        await #expect(processExitsWith: .failure) {
            _ = TestScheduler().schedule(after: .seconds(1), interval: .seconds(0)) {}
        }
    }

    @Test func runStopsWithAClearFailureInsteadOfHangingOnAnEndlessTimer() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            _ = scheduler.schedule(after: .seconds(1), interval: .seconds(1)) {}
            scheduler.run()
        }
        #expect(
            String(decoding: result.standardErrorContent, as: UTF8.self).contains(
                "Rivulet: TestScheduler.run(): pending work is still there after 1000000 actions"))
    }
}
