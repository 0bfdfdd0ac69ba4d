import Rivulet
/// Stands in for the user's code inside an operator under test, so the kit can see how the
/// operator calls it.
///
/// Wrap each closure you hand the operator with `probe.wrap`. The kit then checks that the
/// operator never runs it on two threads at once (E5) or re-entrantly (E6), only on the threads
/// that send (O5), and that the closure can dispose of the operator's output from inside it
/// without a deadlock (O7: no lock held around user code), and that a signal operator lets go of
/// the closure once its output has terminated (S5: the closure, and all it captures, are
/// released). It also lingers in the first calls of each scenario, so that calls which could
/// overlap do.
///
/// ```swift
/// let report = OperatorContract.verify("scaled") { (signal: Signal<Int, ContractError>, probe: UserCodeProbe) in
///     signal.map(probe.wrap { $0 * 10 })
/// }
/// ```
public final class UserCodeProbe: Sendable {
    private let hooks = Locked<UserCodeHooksBox>(UserCodeHooksBox())
    /// One token per wrapped closure, captured by it: alive exactly as long as the closure.
    private let tokens = Locked<[WeakClosureToken]>([])

    init() {}

    /// How many of the closures this probe wrapped are still alive.
    var closuresStillAlive: Int {
        tokens.withLock { $0.filter { $0.token != nil }.count }
    }

    /// A token for a closure being wrapped, remembered weakly.
    private func newToken() -> ClosureToken {
        let token = ClosureToken()
        tokens.withLock { $0.append(WeakClosureToken(token: token)) }
        return token
    }

    func connect(_ hooks: any UserCodeHooks) {
        self.hooks.withLock { $0.hooks = hooks }
    }

    /// The closure, watched by the kit.
    ///
    /// - Parameter body: The closure the operator under test is given; the kit records each call
    ///   (thread, nesting, locks held).
    /// - Returns: A closure that calls `body` and records the call.
    public func wrap<Result>(_ body: @escaping @Sendable () -> Result) -> @Sendable () -> Result {
        let token = newToken()
        return { [self] in
            withExtendedLifetime(token) {}
            return call(body)
        }
    }

    /// The closure, watched by the kit.
    ///
    /// - Parameter body: The closure the operator under test is given; the kit records each call
    ///   (thread, nesting, locks held).
    /// - Returns: A closure that calls `body` and records the call.
    public func wrap<A, Result>(_ body: @escaping @Sendable (A) -> Result) -> @Sendable (A) -> Result {
        let token = newToken()
        return { [self] a in
            withExtendedLifetime(token) {}
            return call { body(a) }
        }
    }

    /// The closure, watched by the kit.
    ///
    /// - Parameter body: The closure the operator under test is given; the kit records each call
    ///   (thread, nesting, locks held).
    /// - Returns: A closure that calls `body` and records the call.
    public func wrap<A, B, Result>(_ body: @escaping @Sendable (A, B) -> Result) -> @Sendable (A, B) -> Result {
        let token = newToken()
        return { [self] a, b in
            withExtendedLifetime(token) {}
            return call { body(a, b) }
        }
    }

    private func call<Result>(_ body: () -> Result) -> Result {
        guard let hooks = hooks.withLock({ $0.hooks }) else { return body() }
        hooks.userCodeWillRun()
        defer { hooks.userCodeDidRun() }
        return body()
    }
}

/// What a scenario run does around each call of a probed closure.
protocol UserCodeHooks: AnyObject, Sendable {
    func userCodeWillRun()
    func userCodeDidRun()
}

/// The run a probe reports to, held weakly: the operator (and so the probe) may outlive it.
struct UserCodeHooksBox {
    weak var hooks: (any UserCodeHooks)?
}

/// What a wrapped closure captures, so that the probe can tell whether the closure is alive.
final class ClosureToken: Sendable {}

/// A closure's token, held weakly.
struct WeakClosureToken {
    weak var token: ClosureToken?
}
