/// How a contract check drives its subject. The defaults suit most operators.
///
/// Options describe what a subject legitimately does; they never loosen a check. A subject that
/// shifts time is checked with a `TestScheduler` the kit drives (pass one through the closure
/// forms that take a scheduler), and still has to deliver inside the kit's calls.
public struct ContractOptions: Sendable {
    /// How long one scenario may take, in seconds, before the kit reports the subject as blocked
    /// (O6, or O7 when it blocks while the observer disposes of it). Also how long the kit waits for
    /// a failure or interruption that did not arrive at once, to tell late (O3) from never (E2, E4).
    public var deadline: Double

    /// Set for a subject that turns its input's failure into something else by design, such as
    /// `materialize`, `flatMapError` or `retry`. The kit then does not require a failure to pass
    /// through (E2, E3); every other check stays.
    public var handlesFailure: Bool

    /// Set for a subject whose input is one of several inputs, or an inner stream, that it
    /// flattens (`merge`, `concat`, `prefix`): by E4's flattening rule, the input's interruption
    /// ends only that input, so the output need not be interrupted: it goes on with the others.
    public var inputInterruptionEndsOnlyTheInput: Bool

    /// Set for a producer operator that shares one start of its source among all its starts by
    /// design (`replayLazily`): P2 (each start is independent) is then not required.
    public var sharesStarts: Bool

    /// How many threads send at once in the concurrent scenarios.
    public var senderThreads: Int

    /// How far the kit moves the test scheduler to let a time-shifting subject finish, in seconds.
    public var settleTime: Double

    public init(
        deadline: Double = 5,
        handlesFailure: Bool = false,
        inputInterruptionEndsOnlyTheInput: Bool = false,
        sharesStarts: Bool = false,
        senderThreads: Int = 3,
        settleTime: Double = 3_600
    ) {
        precondition(deadline > 0, "RivuletContracts: the deadline must be positive")
        precondition(senderThreads >= 2, "RivuletContracts: concurrency needs at least two sender threads")
        precondition(settleTime >= 0, "RivuletContracts: the settle time cannot be negative")
        self.deadline = deadline
        self.handlesFailure = handlesFailure
        self.inputInterruptionEndsOnlyTheInput = inputInterruptionEndsOnlyTheInput
        self.sharesStarts = sharesStarts
        self.senderThreads = senderThreads
        self.settleTime = settleTime
    }

    public static let `default` = ContractOptions()
}
