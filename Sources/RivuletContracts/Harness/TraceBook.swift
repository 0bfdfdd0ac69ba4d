/// What every probe of the kit keeps alike: the trace, the names of the threads in it, and the
/// violations found, each clause once. It lives inside a probe's locked state.
struct TraceBook {
    /// A violation noticed while a scenario ran, with how much of the trace it had seen.
    struct Finding {
        let clause: ContractClause
        let explanation: String
        let traceLength: Int
    }

    /// How a thread the kit did not name is called in traces: "foreign thread 1", "scheduler thread 1".
    let unknownThreadName: String
    var trace: [ContractTraceEntry] = []
    var labels: [UInt: String] = [:]
    var unknownThreads = 0
    var findings: [Finding] = []
    var reported: Set<ContractClause> = []

    init(unknownThreadName: String) {
        self.unknownThreadName = unknownThreadName
    }

    /// The name of the thread `key`, naming it on first sight if the kit did not.
    mutating func label(of key: UInt) -> String {
        if let label = labels[key] { return label }
        unknownThreads += 1
        let label = "\(unknownThreadName) \(unknownThreads)"
        labels[key] = label
        return label
    }

    /// Records a violation of `clause`, once per clause and scenario.
    mutating func note(_ clause: ContractClause, _ explanation: String) {
        guard reported.insert(clause).inserted else { return }
        findings.append(Finding(clause: clause, explanation: explanation, traceLength: trace.count))
    }

    /// Appends an entry on the thread `key`.
    mutating func record(_ kind: ContractTraceEntry.Kind, _ text: String, on key: UInt) {
        trace.append(ContractTraceEntry(kind: kind, text: text, thread: label(of: key)))
    }
}
