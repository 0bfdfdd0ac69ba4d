/// One step of a scenario as the kit saw it: an event the kit sent in, an event the subject
/// delivered, or something the kit did (dispose, run a scheduler).
public struct ContractTraceEntry: Sendable, Equatable, CustomStringConvertible {
    /// Who did what.
    public enum Kind: String, Sendable {
        /// The kit sent an event into the subject.
        case input = "→"
        /// The subject delivered an event to the kit's observer.
        case output = "←"
        /// The kit acted on the subject: disposed of it, started it, ran its scheduler.
        case action = "•"
        /// The subject called the closure the kit probes (`UserCodeProbe`).
        case userCode = "λ"
    }

    /// Who did what: the kit's input, the subject's output, an action of the kit, or user code.
    public let kind: Kind
    /// The event or action, such as `value(2)` or `dispose`.
    public let text: String
    /// The thread it happened on, such as `sender 1`, or `foreign thread 2` for a thread the kit
    /// did not start.
    public let thread: String

    /// An entry of a trace.
    ///
    /// - Parameters:
    ///   - kind: Who did what.
    ///   - text: The event or action, such as `value(2)` or `dispose`.
    ///   - thread: The thread it happened on, such as `sender 1`.
    public init(kind: Kind, text: String, thread: String) {
        self.kind = kind
        self.text = text
        self.thread = thread
    }

    /// The entry in one line: its kind's arrow, the text, and the thread in brackets.
    public var description: String { "\(kind.rawValue) \(text)  [\(thread)]" }
}

/// A broken clause: which one, in which scenario, why, and the events that showed it.
public struct ContractViolation: Sendable, CustomStringConvertible {
    /// The clause broken.
    public let clause: ContractClause
    /// The scenario that showed it, such as `values then failed`.
    public let scenario: String
    /// What went wrong, in a sentence.
    public let explanation: String
    /// The scenario's events up to the point the violation was found.
    public let trace: [ContractTraceEntry]

    /// A violation of `clause`, found in `scenario`.
    ///
    /// - Parameters:
    ///   - clause: The clause broken.
    ///   - scenario: The scenario that showed it.
    ///   - explanation: What went wrong, in a sentence.
    ///   - trace: The scenario's events up to the point the violation was found.
    public init(clause: ContractClause, scenario: String, explanation: String, trace: [ContractTraceEntry]) {
        self.clause = clause
        self.scenario = scenario
        self.explanation = explanation
        self.trace = trace
    }

    /// The clause with its summary, the scenario and the explanation on one line, then the
    /// trace, one indented entry per line.
    public var description: String {
        var lines = ["\(clause.id) (\(clause.summary)) broken in scenario \"\(scenario)\": \(explanation)"]
        if trace.isEmpty {
            lines.append("    (no events)")
        } else {
            lines += trace.map { "    \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

/// What a contract check found: the clauses it checked and every violation.
public struct ContractReport: Sendable, CustomStringConvertible {
    /// The name given to the check, such as `"map"`.
    public let subject: String
    /// The clauses the check exercised, in ID order.
    public let clausesChecked: [ContractClause]
    /// The scenarios the check ran, in order.
    public let scenarios: [String]
    /// Every violation found, in the order found.
    public let violations: [ContractViolation]
    /// What the observer saw in each scenario played from one thread (no concurrent senders), up
    /// to the kit's disposal, by scenario name: two forms of one operator must agree on it (P3).
    public let serialOutputs: [String: [String]]

    /// A report on `subject`.
    ///
    /// - Parameters:
    ///   - subject: The name given to the check.
    ///   - clausesChecked: The clauses the check exercised, in any order and with repeats: the
    ///     report keeps each once, in ID order.
    ///   - scenarios: The scenarios the check ran, in order.
    ///   - violations: Every violation found, in the order found.
    ///   - serialOutputs: What the observer saw in each scenario played from one thread, by
    ///     scenario name.
    public init(
        subject: String,
        clausesChecked: [ContractClause],
        scenarios: [String],
        violations: [ContractViolation],
        serialOutputs: [String: [String]] = [:]
    ) {
        self.subject = subject
        self.clausesChecked = Array(Set(clausesChecked)).sorted()
        self.scenarios = scenarios
        self.violations = violations
        self.serialOutputs = serialOutputs
    }

    /// The scenarios in which this report's subject and `other` delivered different events (P3),
    /// with what each delivered. Only scenarios both played from one thread are compared.
    ///
    /// - Parameter other: The report of the other form of the operator.
    /// - Returns: For each scenario in which the two delivered different events, what each
    ///   delivered.
    public func disagreements(with other: ContractReport) -> [(scenario: String, this: [String], other: [String])] {
        serialOutputs.keys.sorted().compactMap { scenario in
            guard let mine = serialOutputs[scenario], let theirs = other.serialOutputs[scenario], mine != theirs
            else { return nil }
            return (scenario, mine, theirs)
        }
    }

    /// Whether no clause was broken.
    public var isConforming: Bool { violations.isEmpty }

    /// The clauses broken at least once, in ID order.
    public var violatedClauses: [ContractClause] { Array(Set(violations.map(\.clause))).sorted() }

    /// The violations of one clause.
    ///
    /// - Parameter clause: The clause.
    /// - Returns: The violations of `clause`, in the order found.
    public func violations(of clause: ContractClause) -> [ContractViolation] {
        violations.filter { $0.clause == clause }
    }

    /// The subject and whether it conforms, with the scenarios run and the clauses checked; for
    /// a subject that does not, every violation below, indented.
    public var description: String {
        let checked = clausesChecked.map(\.id).joined(separator: " ")
        if isConforming {
            return "\(subject): conforms (\(scenarios.count) scenarios; checked \(checked))"
        }
        let broken = violatedClauses.map(\.id).joined(separator: " ")
        var lines = ["\(subject): breaks \(broken) (\(scenarios.count) scenarios; checked \(checked))"]
        lines += violations.map { "  " + $0.description.split(separator: "\n").joined(separator: "\n  ") }
        return lines.joined(separator: "\n")
    }

    /// This report and `other` as one, for a subject checked in several ways.
    ///
    /// - Parameter other: Another report, of the same subject checked in another way.
    /// - Returns: One report with both reports' clauses, scenarios and violations.
    public func merged(with other: ContractReport) -> ContractReport {
        ContractReport(
            subject: subject,
            clausesChecked: clausesChecked + other.clausesChecked,
            scenarios: scenarios + other.scenarios,
            violations: violations + other.violations,
            serialOutputs: serialOutputs.merging(other.serialOutputs) { mine, _ in mine }
        )
    }
}

/// The error the kit sends into subjects to check how they handle failure.
public struct ContractError: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// Which failure of a scenario this is.
    public let code: Int

    /// The failure with the given code.
    ///
    /// - Parameter code: Which failure of a scenario this is.
    public init(code: Int) {
        self.code = code
    }

    /// `ContractError(<code>)`.
    public var description: String { "ContractError(\(code))" }
}
