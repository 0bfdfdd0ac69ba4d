/// How a contract check drives its subject. The defaults suit most operators.
///
/// Four options loosen the check: `handlesFailure` drops E2 and E3, `inputInterruptionEndsOnlyTheInput`
/// drops E4's rule that the input's interruption interrupts the output (and the O3 check that it does
/// so at once), `turnsInputEndsIntoValues` drops the rule that a failure or an interruption flushes
/// no value (E2, E4; and P4's that no value follows a start's disposal: a disposed start's
/// interruption comes down the chain and is turned into a value too), and `sharesStarts` drops P2. Each is for operators whose documented purpose is exactly
/// what that clause forbids, so the clause does not apply to them; set one only for such an operator,
/// and every other clause is still checked. The other options (`deadline`, `senderThreads`,
/// `settleTime`) tune how the kit drives the subject and remove no clause. A subject that shifts time
/// is checked with a `TestScheduler` the kit drives (pass one through the closure forms that take a
/// scheduler), and still has to deliver inside the kit's calls.
public struct ContractOptions: Sendable {
    /// How long one scenario may take, in seconds, before the kit reports the subject as blocked
    /// (O6, or O7 when it blocks while the observer disposes of it). Also how long the kit waits for
    /// a failure or interruption that did not arrive at once, to tell late (O3) from never (E2, E4).
    public var deadline: Double

    /// Loosens the check: E2 and E3 are not checked (nor listed among the clauses checked), and a
    /// failure of the input is not owed at the output, at once (O3) or ever.
    ///
    /// For a subject that turns its input's failure into something else by design: `materialize`
    /// makes it a value, `flatMapError` replaces it with another stream, `retry` starts the source
    /// again. Passing the failure through would defeat their purpose. Interruption, E1, serial and
    /// non-recursive delivery, disposal and the rest are still checked.
    public var handlesFailure: Bool

    /// Loosens the check: the input's interruption is not required to interrupt the output (E4's
    /// general rule), at once (O3) or ever; whatever the output does then is accepted. E4 stays
    /// among the clauses checked for everything else.
    ///
    /// For a subject whose input is one of several inputs, or an inner stream, that it flattens
    /// (`merge`, `concat`, `prefix`): E4's flattening rule says an inner stream's interruption ends
    /// only that stream, so the output goes on with the others.
    public var inputInterruptionEndsOnlyTheInput: Bool
    /// Loosens the check: values the output sends in response to the input's failure or
    /// interruption are accepted. Without it, a failure or an interruption must reach the output
    /// with no value before it: what a buffering operator holds is dropped, not flushed (E2, E4).
    ///
    /// For a subject that reports its input's end as a value by design (`materialize`).
    public var turnsInputEndsIntoValues: Bool

    /// Loosens the check: P2 (each start is independent) is not checked, nor listed among the
    /// clauses checked, and the kit's two-starts scenario is skipped.
    ///
    /// For a producer operator that shares one start of its source among all its starts by design
    /// (`replayLazily`): independent starts are what it exists to avoid.
    public var sharesStarts: Bool

    /// How many threads send at once in the concurrent scenarios.
    public var senderThreads: Int

    /// How far the kit moves the test scheduler to let a time-shifting subject finish, in seconds.
    public var settleTime: Double

    /// Options for a check; each parameter sets the property of the same name.
    ///
    /// - Parameters:
    ///   - deadline: How long one scenario may take, in seconds; greater than 0.
    ///   - handlesFailure: Whether the subject turns its input's failure into something else by
    ///     design (E2 and E3 not checked).
    ///   - inputInterruptionEndsOnlyTheInput: Whether the input's interruption may leave the output
    ///     going (a flattening's inner stream).
    ///   - turnsInputEndsIntoValues: Whether values in response to the input's end are accepted.
    ///   - sharesStarts: Whether the subject shares one start of its source by design (P2 not
    ///     checked).
    ///   - senderThreads: How many threads send at once in the concurrent scenarios; 2 or more.
    ///   - settleTime: How far the kit moves the test scheduler to let a time-shifting subject
    ///     finish, in seconds; 0 or more.
    public init(
        deadline: Double = 5,
        handlesFailure: Bool = false,
        inputInterruptionEndsOnlyTheInput: Bool = false,
        turnsInputEndsIntoValues: Bool = false,
        sharesStarts: Bool = false,
        senderThreads: Int = 3,
        settleTime: Double = 3_600
    ) {
        precondition(deadline > 0, "RivuletContracts: ContractOptions.init: deadline is \(deadline); it must be greater than 0")
        precondition(
            senderThreads >= 2, "RivuletContracts: ContractOptions.init: senderThreads is \(senderThreads); it must be 2 or more")
        precondition(settleTime >= 0, "RivuletContracts: ContractOptions.init: settleTime is \(settleTime); it must be 0 or more")
        self.deadline = deadline
        self.handlesFailure = handlesFailure
        self.inputInterruptionEndsOnlyTheInput = inputInterruptionEndsOnlyTheInput
        self.turnsInputEndsIntoValues = turnsInputEndsIntoValues
        self.sharesStarts = sharesStarts
        self.senderThreads = senderThreads
        self.settleTime = settleTime
    }

    /// The defaults: nothing loosened, a 5-second deadline, 3 sender threads, an hour to settle.
    public static let `default` = ContractOptions()
}
