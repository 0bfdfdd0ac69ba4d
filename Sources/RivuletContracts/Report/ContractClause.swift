/// One clause of Rivulet's contracts, by its stable ID.
///
/// The IDs are the same everywhere: in the brief, in the test names of Rivulet's own suite, in
/// `Docs/DesignGuidelines.md` and in every `ContractReport`.
public enum ContractClause: String, CaseIterable, Comparable, Hashable, Sendable, CustomStringConvertible {
    // Events.
    /// E1: Values, then at most one terminal event, then nothing.
    case e1 = "E1"
    /// E2: A failure reaches the observer at once, even through time-shifting operators.
    case e2 = "E2"
    /// E3: Completion means success: a failure never turns into completion.
    case e3 = "E3"
    /// E4: Interruption cancels outstanding work and reaches the observer promptly.
    case e4 = "E4"
    /// E5: Delivery is serial, whatever threads send.
    case e5 = "E5"
    /// E6: Delivery is never recursive: an event sent from inside an observer is queued.
    case e6 = "E6"
    /// E7: Without a scheduler, observers run on the sending thread before send returns.
    case e7 = "E7"

    // Signals.
    /// S1: A signal's generator runs at creation.
    case s1 = "S1"
    /// S2: Observing a signal has no side effects.
    case s2 = "S2"
    /// S3: Every observer sees the same events in the same order; a terminated signal yields interrupted.
    case s3 = "S3"
    /// S4: A signal lives while it is reachable or observed, and is disposed of silently when neither.
    case s4 = "S4"
    /// S5: A terminal event releases the observers and disposes of the signal's resources.
    case s5 = "S5"

    // Producers.
    /// P1: A producer does nothing until it is started.
    case p1 = "P1"
    /// P2: Each start of a producer is independent.
    case p2 = "P2"
    /// P3: A signal operator lifted to producers keeps its semantics.
    case p3 = "P3"
    /// P4: Disposing of a start interrupts it and ends its lifetime.
    case p4 = "P4"

    // Properties.
    /// R1: A property's latest value is readable synchronously.
    case r1 = "R1"
    /// R2: A change is emitted synchronously, after the new value is visible.
    case r2 = "R2"
    /// R3: Reading the value from inside an observer is allowed.
    case r3 = "R3"
    /// R4: A composed property neither causes side effects on, nor retains, its sources.
    case r4 = "R4"

    // Activation channels.
    /// A1: A channel graph is inert until an output attaches; activation is per node, not per subscriber.
    case a1 = "A1"
    /// A2: Activation values are delivered synchronously during activation, before any later value.
    case a2 = "A2"
    /// A3: Generate gets a fresh input on each activation and nil on deactivation.
    case a3 = "A3"
    /// A4: A plain channel has one output: a second subscriber ends at once with duplicate; a multi fans out.
    case a4 = "A4"
    /// A5: A send with no active output returns inactive and the value goes nowhere.
    case a5 = "A5"
    /// A6: Releasing an output deactivates the part of the graph only it used, and its state resets.
    case a6 = "A6"
    /// A7: Releasing an input ends its channel with cancelled.
    case a7 = "A7"
    /// A8: Capture pulls activation values synchronously and holds later values until resumed, in order.
    case a8 = "A8"
    /// A9: Sends from many threads and loopback sends are serialised in order and never deadlock.
    case a9 = "A9"
    /// A10: The graph can be rewired while active; values on a stale connection are dropped, never reordered.
    case a10 = "A10"

    // Operators.
    /// O1: An operator is written once for signals and producers.
    case o1 = "O1"
    /// O2: Operators compose existing operators where they can.
    case o2 = "O2"
    /// O3: Failure and interruption are forwarded as soon as possible.
    case o3 = "O3"
    /// O4: Operators switch exhaustively over events.
    case o4 = "O4"
    /// O5: No concurrency unless the operator takes a scheduler.
    case o5 = "O5"
    /// O6: An operator does not block.
    case o6 = "O6"
    /// O7: No user code runs while an internal lock is held, and user closures are released outside locks.
    case o7 = "O7"

    /// The clause's ID, such as `"E1"`.
    public var id: String { rawValue }

    /// The clause's ID, as `id`: a clause prints as `E1`.
    public var description: String { rawValue }

    /// The clause in one line.
    public var summary: String {
        switch self {
        case .e1: "values, then at most one terminal event, then nothing"
        case .e2: "a failure reaches the observer at once, even through time-shifting operators"
        case .e3: "completion means success: a failure never turns into completion"
        case .e4: "interruption cancels outstanding work and reaches the observer promptly"
        case .e5: "delivery is serial, whatever threads send"
        case .e6: "delivery is never recursive: an event sent from inside an observer is queued"
        case .e7: "without a scheduler, observers run on the sending thread before send returns"
        case .s1: "a signal's generator runs at creation"
        case .s2: "observing a signal has no side effects"
        case .s3: "every observer sees the same events in the same order; a terminated signal yields interrupted"
        case .s4: "a signal lives while it is reachable or observed, and is disposed of silently when neither"
        case .s5: "a terminal event releases the observers and disposes of the signal's resources"
        case .p1: "a producer does nothing until it is started"
        case .p2: "each start of a producer is independent"
        case .p3: "a signal operator lifted to producers keeps its semantics"
        case .p4: "disposing of a start interrupts it and ends its lifetime"
        case .r1: "a property's latest value is readable synchronously"
        case .r2: "a change is emitted synchronously, after the new value is visible"
        case .r3: "reading the value from inside an observer is allowed"
        case .r4: "a composed property neither causes side effects on, nor retains, its sources"
        case .a1: "a channel graph is inert until an output attaches; activation is per node, not per subscriber"
        case .a2: "activation values are delivered synchronously during activation, before any later value"
        case .a3: "generate gets a fresh input on each activation and nil on deactivation"
        case .a4: "a plain channel has one output: a second subscriber ends at once with duplicate; a multi fans out"
        case .a5: "a send with no active output returns inactive and the value goes nowhere"
        case .a6: "releasing an output deactivates the part of the graph only it used, and its state resets"
        case .a7: "releasing an input ends its channel with cancelled"
        case .a8: "capture pulls activation values synchronously and holds later values until resumed, in order"
        case .a9: "sends from many threads and loopback sends are serialised in order and never deadlock"
        case .a10: "the graph can be rewired while active; values on a stale connection are dropped, never reordered"
        case .o1: "an operator is written once for signals and producers"
        case .o2: "operators compose existing operators where they can"
        case .o3: "failure and interruption are forwarded as soon as possible"
        case .o4: "operators switch exhaustively over events"
        case .o5: "no concurrency unless the operator takes a scheduler"
        case .o6: "an operator does not block"
        case .o7: "no user code runs while an internal lock is held, and user closures are released outside locks"
        }
    }

    /// Whether `lhs` comes before `rhs` in the brief's order: E, S, P, R, A, then O, each by
    /// number (so `A2` comes before `A10`).
    ///
    /// - Parameters:
    ///   - lhs: A clause.
    ///   - rhs: Another clause.
    /// - Returns: Whether `lhs` comes first.
    public static func < (lhs: ContractClause, rhs: ContractClause) -> Bool {
        let order = allCases
        return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
    }
}
