import Dispatch
import Foundation
import Rivulet

// The scenarios only a `DateScheduler` goes through. Time is counted in units: 50 ms of wall
// time for a real clock (long enough for dispatch timers to keep their order on a loaded
// machine), one second for a virtual one.
//
// Clauses: running an action before its date, or a clock that goes back, breaks E7, the clause
// that fixes *when* an event is delivered (a date is a scheduler's "when"; an early timer makes
// `delay`, `throttle` or `timeout` deliver too soon). Dates out of order break E5 (delivery in
// order). A repeating schedule that does not repeat loses runs (E1, as for a lost action), and
// one that goes on after disposal ignores cancellation (E4).

extension SchedulerRun where S: DateScheduler {
    /// One unit of the scheduler's time, in seconds.
    var unit: TimeInterval { clock.isRealTime ? 0.05 : 1 }

    /// `schedule(after:)` never runs an action before its date by the scheduler's own
    /// `currentDate` (E7), and a date already past means "now" (E1 if it never runs).
    func notBeforeItsDate() {
        let unit = unit
        step { [self] in
            let now = readClock("before scheduling")
            let date = now.addingTimeInterval(2 * unit)
            let due = probe.action("due") { [self] in
                let at = readClock("inside due")
                if at < date {
                    probe.violation(
                        .e7,
                        "due ran when currentDate was \(at.timeIntervalSince(now)) s past scheduling, before its date \(2 * unit) s past it"
                    )
                }
            }
            keep(probe.kitCall("schedule due at +\(2 * unit) s") { scheduler.schedule(after: date, action: due) })
            let past = probe.action("past")
            keep(
                probe.kitCall("schedule past at -\(unit) s") {
                    scheduler.schedule(after: now.addingTimeInterval(-unit), action: past)
                })
        }
        if !clock.isRealTime {
            // A virtual clock may say "due" while it runs the action; the kit's own count of
            // time passed tells an early run apart.
            pass(unit)
            if probe.runs(of: "due") > 0 {
                probe.violation(.e7, "due ran when only \(unit) s of its \(2 * unit) s had passed")
            }
            pass(2 * unit)
        }
        settle { [probe] in probe.runs(of: "due") > 0 && probe.runs(of: "past") > 0 }
        expectRanOnce(["due", "past"])
        step { [self] in _ = readClock("at the end") }
    }

    /// Actions scheduled for different dates run in date order, whatever order they were
    /// scheduled in (E5).
    func datesInOrder() {
        let unit = unit
        let plan = [("late", 3.0), ("early", 1.0), ("middle", 2.0)]
        step { [self] in
            let now = readClock("before scheduling")
            for (name, units) in plan {
                let action = probe.action(name)
                keep(
                    probe.kitCall("schedule \(name) at +\(units * unit) s") {
                        scheduler.schedule(after: now.addingTimeInterval(units * unit), action: action)
                    })
            }
        }
        if !clock.isRealTime { pass(4 * unit) }
        settle { [probe] in plan.allSatisfy { probe.runs(of: $0.0) > 0 } }
        expectRanOnce(plan.map(\.0))
        expectInOrder(["early", "middle", "late"], "scheduled for increasing dates")
        step { [self] in _ = readClock("at the end") }
    }

    /// A repeating schedule runs again and again (E1), stops once its disposable is disposed of
    /// (E4), and then releases its closure (O7).
    func repeatingStopsAfterDisposal() {
        let unit = unit
        let held = Locked<(disposable: Disposable?, token: WeakToken)?>(nil)
        step { [self] in
            let now = readClock("before scheduling")
            let scheduled = scheduleRepeating(after: now.addingTimeInterval(unit), every: unit)
            held.withLock { $0 = scheduled }
        }
        if !clock.isRealTime { pass(3.5 * unit) }
        settle { [probe] in probe.runs(of: "tick") >= 3 }
        guard !isStuck, let scheduled = held.withLock({ $0 }) else { return }
        let ticks = probe.runs(of: "tick")
        if ticks < 2 {
            probe.violation(
                .e1,
                "the repeating action ran \(ticks) time(s) in \(clock.isRealTime ? options.deadline : 3.5 * unit) s with an interval of \(unit) s"
            )
        }
        step { [self] in cancel("tick", scheduled.disposable) }
        pass(4 * unit)
        expectReleased(scheduled.token, "a repeating action after its disposal")
        step { [self] in _ = readClock("at the end") }
    }

    /// Schedules the repeating "tick" action holding a token; the token is made here so that
    /// only the action's closure keeps it.
    private func scheduleRepeating(after date: Date, every unit: TimeInterval) -> (Disposable?, WeakToken) {
        let token = ReleaseToken()
        let action = probe.action("tick", repeating: true) { withExtendedLifetime(token) {} }
        let interval = DispatchTimeInterval.nanoseconds(Int(unit * 1e9))
        let disposable = probe.kitCall("schedule tick every \(unit) s") {
            scheduler.schedule(after: date, interval: interval, leeway: .nanoseconds(0), action: action)
        }
        keep(disposable)
        return (disposable, WeakToken(token: token))
    }

    /// Reads `currentDate` and checks that it did not go back (E7).
    func readClock(_ context: String) -> Date {
        let date = scheduler.currentDate
        probe.checkClock(date, context)
        return date
    }
}
