import Foundation
import Testing

@testable import Rivulet
import RivuletContracts

/// Schedulers (issue 19, item 6): a `TestScheduler` moved backwards or by an endless interval, a
/// repeating schedule that never repeats, and a sleep of negative length stop with a precondition
/// failure naming the API, the argument and the rule (with the remedy where there is one).
@Suite(.checksLiveObjects) struct SchedulerMisuseTests {
    @Test func advancingByANegativeIntervalIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().advance(by: .seconds(-1))
        }
        expectStandardError(
            result,
            contains: "Rivulet: TestScheduler.advance(by:): interval is seconds(-1); time cannot move backwards, use rewind(by:)")
    }

    @Test func advancingByNeverIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().advance(by: .never)
        }
        expectStandardError(
            result, contains: "Rivulet: TestScheduler.advance(by:): interval is .never; it must be finite, use run()")
    }

    @Test func advancingByNegativeSecondsIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().advance(by: -1.5)
        }
        expectStandardError(
            result, contains: "Rivulet: TestScheduler.advance(by:): interval is -1.5 s; time cannot move backwards")
    }

    @Test func advancingByInfiniteSecondsIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().advance(by: TimeInterval.infinity)
        }
        expectStandardError(result, contains: "Rivulet: TestScheduler.advance(by:): interval is inf s; it must be finite")
    }

    @Test func advancingToAnEarlierDateIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            scheduler.advance(by: .seconds(2))
            scheduler.advance(to: Date(timeIntervalSinceReferenceDate: 1))
        }
        expectStandardError(result, contains: "Rivulet: TestScheduler.advance(to:): date is 2001-01-01 00:00:01")
        expectStandardError(result, contains: "time cannot move backwards")
    }

    @Test func rewindingByANegativeIntervalIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().rewind(by: .nanoseconds(-1))
        }
        expectStandardError(
            result, contains: "Rivulet: TestScheduler.rewind(by:): interval is -1 ns; it must be 0 or more, use advance(by:)")
    }

    @Test func rewindingByNeverIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().rewind(by: .never)
        }
        expectStandardError(
            result, contains: "Rivulet: TestScheduler.rewind(by:): interval is .never; it must be finite and 0 or more")
    }

    @Test func aRepeatingScheduleOfZeroIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = QueueScheduler(name: "misuse").schedule(after: Date(), interval: .seconds(0)) {}
        }
        expectStandardError(
            result,
            contains:
                "Rivulet: QueueScheduler.schedule(after:interval:leeway:action:): interval is seconds(0); it must be greater than 0 and not .never"
        )
    }

    @Test func aRepeatingScheduleOfNeverIsRefusedWithTheRemedy() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestScheduler().schedule(after: .seconds(1), interval: .never) {}
        }
        expectStandardError(
            result,
            contains:
                "Rivulet: TestScheduler.schedule(after:interval:leeway:action:): interval is .never; it must be greater than 0 and not .never, schedule a single action instead"
        )
    }

    @Test func sleepingForANegativeIntervalIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try? await TestScheduler().sleep(for: .milliseconds(-1))
        }
        expectStandardError(
            result, contains: "Rivulet: DateScheduler.sleep(for:leeway:): interval is milliseconds(-1); it must be 0 or more")
    }

    @Test func sleepingForNegativeSecondsIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try? await TestScheduler().sleep(for: -2.0)
        }
        expectStandardError(
            result, contains: "Rivulet: DateScheduler.sleep(for:leeway:): interval is -2.0 s; it must be 0 or more")
    }

    @Test func sleepingWithANegativeLeewayIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try? await TestScheduler().sleep(until: Date(timeIntervalSinceReferenceDate: 1), leeway: .seconds(-1))
        }
        expectStandardError(
            result, contains: "Rivulet: DateScheduler.sleep(until:leeway:): leeway is seconds(-1); it must be 0 or more")
    }
}

/// The documented results of scheduler edges (issue 19, item 6).
@Suite(.checksLiveObjects) struct SchedulerEdgeTests {
    @Test func anActionForAPastDateRunsOnTheNextAdvance() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(5))
        let runs = Counter()
        scheduler.schedule(after: Date(timeIntervalSinceReferenceDate: 1)) { _ = runs.increment() }
        #expect(runs.value == 0)
        scheduler.advance()
        #expect(runs.value == 1)
    }

    @Test func anActionDelayedByNeverDoesNotRunEvenInRun() {
        let scheduler = TestScheduler()
        let runs = Counter()
        scheduler.schedule(after: DispatchTimeInterval.never) { _ = runs.increment() }
        scheduler.run()
        #expect(runs.value == 0)
    }

    @Test func rewindingByZeroLeavesTheClockWhereItIs() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(3))
        scheduler.rewind(by: .seconds(0))
        #expect(scheduler.currentDate == Date(timeIntervalSinceReferenceDate: 3))
    }
}
