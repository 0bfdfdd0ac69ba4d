import Foundation
import Rivulet

/// Checks a custom `Scheduler` or `DateScheduler` against Rivulet's contracts.
///
/// Each scenario runs against a fresh scheduler from `makeScheduler`:
///
/// - actions scheduled from one thread, and from several threads at once, run exactly once (E1:
///   a scheduler that loses or repeats actions makes every stream it carries lose or repeat
///   events, its terminal event among them), in each thread's order and never concurrently with
///   each other (E5; the first actions linger a little so that an overlap shows);
/// - an action scheduled from inside an action runs after the current one returns, not nested in
///   it (E6);
/// - disposing of an action's disposable before it starts means it never runs (E4);
/// - `schedule` returns promptly (O6), also from inside a running action, where a scheduler that
///   holds its lock while it runs actions would deadlock (O7);
/// - the closure of an action, and what it captures, is released once the action ran or was
///   cancelled, even while its disposable is still held (O7's "release user closures").
///
/// ```swift
/// let report = SchedulerContract.verify("MyScheduler") { MyScheduler() }
/// #expect(report.isConforming, "\(report)")
/// ```
///
/// A step that does not finish within `options.deadline` is reported and ends the check (every
/// later scenario would wait out the deadline too); the stuck thread is abandoned.
public enum SchedulerContract {
    /// Checks a scheduler.
    ///
    /// - Parameters:
    ///   - name: The name the report gives the scheduler.
    ///   - options: The deadline for each step (`deadline`) and how many threads schedule at
    ///     once (`senderThreads`).
    ///   - runsActionsImmediately: Set for a scheduler that runs each action synchronously, on
    ///     the calling thread, before `schedule` returns, such as `ImmediateScheduler`. The kit
    ///     then requires exactly that (E7, the clause for synchronous delivery) instead of E6,
    ///     leaves out cancellation (there is nothing left to cancel) and does not require actions
    ///     scheduled from different threads to be serialised: they run on the callers' threads.
    ///   - drive: For a scheduler that runs actions only when told to, such as `TestScheduler`:
    ///     runs what is due, on the calling thread (`{ $0.run() }`). Without it the kit waits for
    ///     the scheduler to run actions on its own.
    ///   - makeScheduler: Makes a fresh scheduler; called once per scenario, on the kit's thread.
    /// - Returns: The clauses checked and every violation, each with its trace.
    public static func verify<S: Scheduler>(
        _ name: String,
        options: ContractOptions = .default,
        runsActionsImmediately: Bool = false,
        drive: (@Sendable (S) -> Void)? = nil,
        _ makeScheduler: @escaping @Sendable () -> S
    ) -> ContractReport {
        let clock: SchedulerClock<S> = drive.map { .driven($0) } ?? .realTime
        let (names, violations) = run(
            plainScenarios(), clock: clock, immediate: runsActionsImmediately, options: options, makeScheduler)
        return ContractReport(
            subject: name,
            clausesChecked: plainClauses(immediate: runsActionsImmediately),
            scenarios: names,
            violations: violations
        )
    }

    /// Checks a date scheduler: everything `verify` checks, then its clock.
    ///
    /// - `schedule(after:)` never runs an action before its date by the scheduler's own
    ///   `currentDate`, and a date already past means "now"; `currentDate` never goes back (E7,
    ///   the clause that fixes when an event is delivered: a date is a scheduler's "when");
    /// - actions run in date order, whatever order they were scheduled in (E5);
    /// - a repeating schedule repeats (E1) and stops once disposed of (E4), then releases its
    ///   closure (O7).
    ///
    /// ```swift
    /// SchedulerContract.verifyDateScheduler("QueueScheduler") { QueueScheduler() }
    /// SchedulerContract.verifyDateScheduler("TestScheduler", advance: { $0.advance(by: $1) }) {
    ///     TestScheduler()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name the report gives the scheduler.
    ///   - options: The deadline for each step and how many threads schedule at once.
    ///   - advance: For a virtual clock: lets the given number of seconds pass, running what
    ///     falls due, on the calling thread (0 runs what is due now). Without it the scheduler
    ///     keeps wall-clock time, and the kit schedules 50 ms apart and waits.
    ///   - makeScheduler: Makes a fresh scheduler; called once per scenario.
    /// - Returns: The clauses checked and every violation, each with its trace.
    public static func verifyDateScheduler<S: DateScheduler>(
        _ name: String,
        options: ContractOptions = .default,
        advance: (@Sendable (S, TimeInterval) -> Void)? = nil,
        _ makeScheduler: @escaping @Sendable () -> S
    ) -> ContractReport {
        let clock: SchedulerClock<S> = advance.map { .virtual($0) } ?? .realTime
        let dateScenarios: [(String, (SchedulerRun<S>) -> Void)] = [
            ("not before its date", { $0.notBeforeItsDate() }),
            ("dates in order", { $0.datesInOrder() }),
            ("repeating until disposed of", { $0.repeatingStopsAfterDisposal() }),
        ]
        let (names, violations) = run(
            plainScenarios() + dateScenarios, clock: clock, immediate: false, options: options, makeScheduler)
        return ContractReport(
            subject: name,
            clausesChecked: plainClauses(immediate: false) + [.e7],
            scenarios: names,
            violations: violations
        )
    }

    // MARK: Running

    private static func plainClauses(immediate: Bool) -> [ContractClause] {
        [.e1, .e5, .o6, .o7] + (immediate ? [.e7] : [.e4, .e6])
    }

    private static func plainScenarios<S>() -> [(String, (SchedulerRun<S>) -> Void)] {
        [
            ("actions from one thread", { $0.actionsFromOneThread() }),
            ("actions from several threads at once", { $0.actionsFromSeveralThreads() }),
            ("scheduling from inside an action", { $0.schedulingFromInsideAnAction() }),
            ("cancellation and release", { $0.cancellationAndRelease() }),
        ]
    }

    private static func run<S: Scheduler>(
        _ scenarios: [(String, (SchedulerRun<S>) -> Void)],
        clock: SchedulerClock<S>,
        immediate: Bool,
        options: ContractOptions,
        _ makeScheduler: @escaping @Sendable () -> S
    ) -> (names: [String], violations: [ContractViolation]) {
        var names: [String] = []
        var violations: [ContractViolation] = []
        for (name, body) in scenarios {
            names.append(name)
            // Making the scheduler is user code too: it runs under the deadline like the rest.
            let made = Locked<S?>(nil)
            guard
                runOnKitThread(
                    deadline: options.deadline,
                    {
                        let scheduler = makeScheduler(); made.withLock { $0 = scheduler }
                    }),
                let scheduler = made.withLock({ $0 })
            else {
                violations.append(
                    ContractViolation(
                        clause: .o6, scenario: name,
                        explanation: "making the scheduler did not return within \(options.deadline) s", trace: []))
                break
            }
            let run = SchedulerRun(name, scheduler: scheduler, clock: clock, isImmediate: immediate, options: options)
            body(run)
            violations += run.violations
            if run.isStuck { break }
        }
        return (names, violations)
    }
}
