import Dispatch
import Foundation
import Rivulet

// The scenarios every scheduler goes through. Each runs against a fresh scheduler; the probe
// notices overlap (E5), nesting (E6), double runs (E1) and runs after cancellation (E4) as the
// actions start, and the scenario checks what must have happened once time has passed.

extension SchedulerRun {
    /// How many actions the one-thread scenario schedules.
    static var actionCount: Int { 20 }
    /// How many actions each thread schedules in the several-threads scenario.
    static var actionsPerThread: Int { 8 }

    /// Actions scheduled one after another from one thread run once each, in order, one at a
    /// time (E1, E5); an immediate scheduler runs each before `schedule` returns (E7).
    func actionsFromOneThread() {
        let names = (1...Self.actionCount).map { "a\($0)" }
        step { [self] in
            for name in names {
                schedule(name)
                if probe.isImmediate, probe.runs(of: name) == 0 {
                    probe.violation(.e7, "\(name) had not run when schedule returned, but the scheduler was declared immediate")
                }
            }
        }
        settle { [probe] in names.allSatisfy { probe.runs(of: $0) > 0 } }
        expectRanOnce(names)
        expectInOrder(names, "scheduled one after another from one thread")
    }

    /// Actions scheduled from several threads at once run once each, in each thread's order,
    /// and never concurrently with each other (E1, E5). An immediate scheduler runs them on the
    /// callers' threads, so only the order is checked for it.
    func actionsFromSeveralThreads() {
        let threads = options.senderThreads
        let lists = (1...threads).map { thread in (1...Self.actionsPerThread).map { "t\(thread).a\($0)" } }
        step { [self] in
            let group = DispatchGroup()
            let start = DispatchSemaphore(value: 0)
            for (index, names) in lists.enumerated() {
                group.enter()
                let thread = Thread { [self] in
                    probe.label(currentThreadAs: "sender \(index + 1)")
                    start.wait()
                    for name in names { schedule(name) }
                    group.leave()
                }
                thread.start()
            }
            for _ in lists { start.signal() }
            group.wait()
        }
        let all = lists.flatMap { $0 }
        settle { [probe] in all.allSatisfy { probe.runs(of: $0) > 0 } }
        expectRanOnce(all)
        for (index, names) in lists.enumerated() {
            expectInOrder(names, "scheduled one after another from sender \(index + 1)")
        }
    }

    /// An action that schedules another and cancels a third. The second runs after the first
    /// returns, not nested in it (E6), or, for an immediate scheduler, before the inner
    /// `schedule` returns (E7); the third never runs (E4); and neither call gets stuck, as it
    /// would if the scheduler held its lock while running the action (O7).
    func schedulingFromInsideAnAction() {
        step { [self] in
            schedule("outer") { [self] in
                schedule("inner")
                if probe.isImmediate {
                    if probe.runs(of: "inner") == 0 {
                        probe.violation(
                            .e7,
                            "inner, scheduled from inside outer, had not run when schedule returned, but the scheduler was declared immediate"
                        )
                    }
                    return
                }
                let disposable = schedule("cancelled inside")
                cancel("cancelled inside", disposable)
            }
        }
        settle { [probe] in probe.runs(of: "inner") > 0 }
        step { [self] in schedule("sentinel") }
        settle { [probe] in probe.runs(of: "sentinel") > 0 }
        // The sentinel is scheduled only after outer has scheduled and disposed of "cancelled
        // inside" and returned, so once the sentinel ran, the cancelled action would have too.
        expectRanOnce(["outer", "inner", "sentinel"])
    }

    /// Disposing of an action's disposable before it starts means it never runs (E4); the
    /// closures of a cancelled action and of one that ran are released (O7). A real-time
    /// scheduler is kept busy with a gate action meanwhile, so that the kit's action cannot
    /// start before the kit disposes of it.
    func cancellationAndRelease() {
        if probe.isImmediate {
            let token = Locked(WeakToken())
            step { [self] in
                let (_, weak) = scheduleHoldingToken("ran")
                token.withLock { $0 = weak }
            }
            expectReleased(token.withLock { $0 }, "an action that ran")
            return
        }
        let gate = DispatchSemaphore(value: 0)
        let tokens = Locked([WeakToken]())
        if clock.isRealTime {
            step { [self] in
                schedule("gate") { [probe, options] in
                    // An action run synchronously inside the kit's own call must not wait for it.
                    if !probe.isInsideKitCallOnThisThread { _ = gate.wait(timeout: .now() + options.deadline) }
                }
            }
            settle { [probe] in probe.runs(of: "gate") > 0 }
        }
        step { [self] in
            let (disposable, token) = scheduleHoldingToken("cancelled")
            if disposable == nil, probe.runs(of: "cancelled") == 0 {
                probe.violation(
                    .e4, "schedule returned no disposable for an action that had not run yet, so it cannot be cancelled")
            }
            cancel("cancelled", disposable)
            gate.signal()
            let (_, ran) = scheduleHoldingToken("sentinel")
            tokens.withLock { $0 = [token, ran] }
        }
        // Actions from one thread run in order (E5): once the sentinel ran, so would have the
        // cancelled action.
        settle { [probe] in probe.runs(of: "sentinel") > 0 }
        expectRanOnce(["sentinel"])
        let weak = tokens.withLock { $0 }
        if weak.count == 2 {
            expectReleased(weak[0], "an action cancelled before it ran")
            expectReleased(weak[1], "an action that ran")
        }
    }

    /// Reports E5 if `names` did not start in the order given.
    func expectInOrder(_ names: [String], _ how: String) {
        guard !isStuck else { return }
        let wanted = Set(names)
        let started = probe.order.filter { wanted.contains($0) }
        var seen = Set<String>()
        let firstRuns = started.filter { seen.insert($0).inserted }
        let ran = names.filter { seen.contains($0) }
        if firstRuns != ran {
            probe.violation(.e5, "actions \(how) ran out of order: \(firstRuns.joined(separator: " "))")
        }
    }
}
