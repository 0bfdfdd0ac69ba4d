/// One clause of Rivulet's contracts, by its stable ID.
///
/// The IDs are the same everywhere: in the brief, in the test names of Rivulet's own suite, in
/// `Docs/DesignGuidelines.md` and in every `ContractReport`.
public enum ContractClause: String, CaseIterable, Comparable, Hashable, Sendable, CustomStringConvertible {
    case e1 = "E1", e2 = "E2", e3 = "E3", e4 = "E4", e5 = "E5", e6 = "E6", e7 = "E7"
    case s1 = "S1", s2 = "S2", s3 = "S3", s4 = "S4", s5 = "S5"
    case p1 = "P1", p2 = "P2", p3 = "P3", p4 = "P4"
    case r1 = "R1", r2 = "R2", r3 = "R3", r4 = "R4"
    case a1 = "A1", a2 = "A2", a3 = "A3", a4 = "A4", a5 = "A5", a6 = "A6", a7 = "A7", a8 = "A8", a9 = "A9", a10 = "A10"
    case o1 = "O1", o2 = "O2", o3 = "O3", o4 = "O4", o5 = "O5", o6 = "O6", o7 = "O7"

    /// The clause's ID, such as `"E1"`.
    public var id: String { rawValue }

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

    public static func < (lhs: ContractClause, rhs: ContractClause) -> Bool {
        let order = allCases
        return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
    }
}
