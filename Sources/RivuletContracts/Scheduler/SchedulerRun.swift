import Dispatch
import Foundation
import Rivulet

/// How the kit lets a scheduler's time pass.
enum SchedulerClock<S: Scheduler>: Sendable {
    /// The scheduler runs actions on its own; the kit waits (up to the deadline).
    case realTime
    /// The scheduler runs actions only when driven: the kit calls this to run what is due.
    case driven(@Sendable (S) -> Void)
    /// A virtual clock: the kit calls this to let that many seconds pass (0 runs what is due now).
    case virtual(@Sendable (S, TimeInterval) -> Void)

    var isRealTime: Bool {
        if case .realTime = self { return true }
        return false
    }
}

/// One scenario against a fresh scheduler: steps on kit threads under the deadline, waits in
/// between, and the probe's findings at the end.
final class SchedulerRun<S: Scheduler>: Sendable {
    let scenario: String
    let scheduler: S
    let probe: SchedulerProbe
    let clock: SchedulerClock<S>
    let options: ContractOptions

    private struct State {
        /// Disposables the kit keeps for the whole scenario, as a user would: a scheduler must
        /// release an action's closure even while its disposable is alive.
        var disposables: [Disposable] = []
        var isStuck = false
    }

    private let state = Locked(State())

    init(_ scenario: String, scheduler: S, clock: SchedulerClock<S>, isImmediate: Bool, options: ContractOptions) {
        self.scenario = scenario
        self.scheduler = scheduler
        self.clock = clock
        self.options = options
        probe = SchedulerProbe(isImmediate: isImmediate)
    }

    /// Whether a step got stuck: the scenario then stops, and so does the whole check, since
    /// every later scenario would wait out the deadline too.
    var isStuck: Bool { state.withLock { $0.isStuck } }

    /// Runs `body` on a new kit thread and waits up to the deadline; a step that does not finish
    /// is reported (O6 or O7, as the probe tells) and the scenario stops.
    @discardableResult
    func step(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard !isStuck else { return false }
        let finished = probe.runStep(deadline: options.deadline, body)
        if !finished { state.withLock { $0.isStuck = true } }
        return finished
    }

    /// Schedules an action the probe records, from the calling thread, and keeps its disposable.
    @discardableResult
    func scheduleAction(_ name: String, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        let disposable = probe.kitCall("schedule \(name)") { scheduler.schedule(action) }
        keep(disposable)
        return disposable
    }

    /// Schedules a recorded action with `body`.
    @discardableResult
    func schedule(_ name: String, body: @escaping @Sendable () -> Void = {}) -> Disposable? {
        scheduleAction(name, probe.action(name, body))
    }

    /// Schedules a recorded action whose closure holds a token, and returns a weak reference to
    /// the token, to see when the scheduler lets go of the closure.
    func scheduleHoldingToken(_ name: String) -> (Disposable?, WeakToken) {
        let token = ReleaseToken()
        let disposable = schedule(name, body: { withExtendedLifetime(token) {} })
        return (disposable, WeakToken(token: token))
    }

    func keep(_ disposable: Disposable?) {
        guard let disposable else { return }
        state.withLock { $0.disposables.append(disposable) }
    }

    /// Disposes of `disposable` as a kit call; afterwards `name` must never start (E4).
    func cancel(_ name: String, _ disposable: Disposable?) {
        probe.kitCall("dispose \(name)") { disposable?.dispose() }
        probe.cancelled(name)
    }

    // MARK: Letting time pass

    /// Lets the scheduler run until `condition` holds or the deadline passes; returns whether it
    /// holds. A driven scheduler is driven a few times, each a step under the deadline.
    @discardableResult
    func settle(until condition: @escaping @Sendable () -> Bool) -> Bool {
        switch clock {
        case .realTime:
            guard !isStuck else { return false }
            if wait(upTo: options.deadline, until: condition) { return true }
            // An action stuck in a call into the scheduler is what kept the condition false.
            if probe.isStuckInsideAnAction {
                let (clause, explanation) = probe.blocked(deadline: options.deadline)
                probe.violation(clause, explanation)
                state.withLock { $0.isStuck = true }
            }
            return false
        case .driven, .virtual:
            for _ in 0..<3 where !condition() {
                pass(0)
            }
            return condition()
        }
    }

    /// Lets `seconds` of the scheduler's time pass: a virtual clock is advanced by them, a
    /// driven scheduler is driven once, and a real one is waited for.
    func pass(_ seconds: TimeInterval) {
        switch clock {
        case .realTime:
            if !isStuck { Thread.sleep(forTimeInterval: seconds) }
        case let .driven(drive):
            step { [self] in probe.kitCall("drive the scheduler") { drive(scheduler) } }
        case let .virtual(advance):
            step { [self] in probe.kitCall("let \(seconds) s pass") { advance(scheduler, seconds) } }
        }
    }

    /// Waits up to the deadline for the token to be released; reports O7 if it never is.
    func expectReleased(_ token: WeakToken, _ what: String) {
        guard !isStuck else { return }
        if !wait(upTo: options.deadline, until: { token.isReleased }) {
            probe.violation(
                .o7,
                "the scheduler still holds the closure of \(what) \(options.deadline) s later; it should release it once the action ran or was cancelled"
            )
        }
    }

    /// Checks that every action in `names` ran exactly once (E1).
    func expectRanOnce(_ names: [String]) {
        guard !isStuck else { return }
        let missing = names.filter { probe.runs(of: $0) == 0 }
        if !missing.isEmpty {
            probe.violation(
                .e1,
                "\(missing.joined(separator: ", ")) never ran (waited \(options.deadline) s); every scheduled action that is not cancelled runs once"
            )
        }
    }

    // MARK: Report

    var violations: [ContractViolation] {
        let trace = probe.trace
        return probe.findings.map {
            ContractViolation(
                clause: $0.clause, scenario: scenario, explanation: $0.explanation, trace: Array(trace.prefix($0.traceLength)))
        }
    }
}
