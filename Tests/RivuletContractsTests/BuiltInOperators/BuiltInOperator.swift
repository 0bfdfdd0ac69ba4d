import Foundation
import Rivulet
import RivuletContracts
import Testing

// The registry of Rivulet's built-in operators as the contract kit checks them. Each operator is
// declared once, in its family's file (`TransformOperatorsContractTests.swift`, ...): its name, how
// to build its `Signal` form and its `SignalProducer` form, and its options. The family's tests
// and `ContractMatrix.swift` (which writes Docs/ContractMatrix.md) both read the declarations, and
// share one report per operator form.

/// Which type an operator is checked on.
enum OperatorForm: String, CaseIterable, Sendable {
    case signal = "Signal"
    case producer = "SignalProducer"
    /// An operator of two inputs with both driven by the kit.
    case signalPair = "Signal, both inputs driven"
    case producerPair = "SignalProducer, both inputs driven"
}

/// The families, in the order of `reference/api-surface.md` section 2 and the matrix.
enum OperatorFamily: String, CaseIterable, Sendable {
    case transform = "Transforming"
    case filter = "Filtering and gating"
    case combining = "Combining"
    case flattening = "Flattening"
    case time = "Time and schedulers"
    case error = "Error handling"
    case aggregate = "Aggregating"
    case lifecycle = "Side effects, sharing and lifting"
}

/// One run of the contract kit on one form of an operator, by name and with the operator's options.
struct FormCheck: Sendable {
    let run: @Sendable (_ name: String, _ options: ContractOptions) -> ContractReport

    // Signal forms.

    /// A signal operator on the kit's default inputs (1, 2, 3, 4), which can fail.
    static func signal<O, E>(_ op: @escaping @Sendable (Signal<Int, ContractError>) -> Signal<O, E>) -> FormCheck {
        FormCheck { name, options in OperatorContract.verify(name, options: options, op) }
    }

    /// A signal operator on the given inputs, which can fail.
    static func signal<I: Sendable, O, E>(
        inputs: [I],
        _ op: @escaping @Sendable (Signal<I, ContractError>) -> Signal<O, E>
    ) -> FormCheck {
        FormCheck { name, options in OperatorContract.verify(name, inputs: inputs, options: options, op) }
    }

    /// A signal operator on an input that cannot fail.
    static func infallibleSignal<I: Sendable, O, E>(
        inputs: [I],
        _ op: @escaping @Sendable (Signal<I, Never>) -> Signal<O, E>
    ) -> FormCheck {
        FormCheck { name, options in OperatorContract.verify(name, inputs: inputs, options: options, op) }
    }

    /// A signal operator that takes a scheduler: the kit's `TestScheduler`.
    static func timedSignal<I: Sendable, O, E>(
        inputs: [I],
        _ op: @escaping @Sendable (Signal<I, ContractError>, TestScheduler) -> Signal<O, E>
    ) -> FormCheck {
        FormCheck { name, options in OperatorContract.verify(name, inputs: inputs, options: options, op) }
    }

    // Producer forms.

    /// A producer operator on the kit's default inputs (1, 2, 3, 4), which can fail.
    static func producer<O, E>(
        _ op: @escaping @Sendable (SignalProducer<Int, ContractError>) -> SignalProducer<O, E>
    ) -> FormCheck {
        FormCheck { name, options in ProducerOperatorContract.verify(name, options: options, op) }
    }

    /// A producer operator on the given inputs, which can fail.
    static func producer<I: Sendable, O, E>(
        inputs: [I],
        _ op: @escaping @Sendable (SignalProducer<I, ContractError>) -> SignalProducer<O, E>
    ) -> FormCheck {
        FormCheck { name, options in ProducerOperatorContract.verify(name, inputs: inputs, options: options, op) }
    }

    /// A producer operator on an input that cannot fail.
    static func infallibleProducer<I: Sendable, O, E>(
        inputs: [I],
        _ op: @escaping @Sendable (SignalProducer<I, Never>) -> SignalProducer<O, E>
    ) -> FormCheck {
        FormCheck { name, options in ProducerOperatorContract.verify(name, inputs: inputs, options: options, op) }
    }

    /// A producer operator that takes a scheduler: the kit's `TestScheduler`.
    static func timedProducer<I: Sendable, O, E>(
        inputs: [I],
        _ op: @escaping @Sendable (SignalProducer<I, ContractError>, TestScheduler) -> SignalProducer<O, E>
    ) -> FormCheck {
        FormCheck { name, options in ProducerOperatorContract.verify(name, inputs: inputs, options: options, op) }
    }

    // Forms of two inputs, both driven.

    /// A signal operator of two inputs of the same type, both driven by the kit.
    static func signalPair<I: Sendable, O, E>(
        inputs: [I],
        _ op: @escaping @Sendable (Signal<I, ContractError>, Signal<I, ContractError>) -> Signal<O, E>
    ) -> FormCheck {
        FormCheck { name, options in OperatorContract.verify(name, inputs: inputs, options: options, op) }
    }

    /// A producer operator of two inputs of the same type, both driven by the kit.
    static func producerPair<I: Sendable, O, E>(
        inputs: [I],
        _ op: @escaping @Sendable (SignalProducer<I, ContractError>, SignalProducer<I, ContractError>) -> SignalProducer<O, E>
    ) -> FormCheck {
        FormCheck { name, options in ProducerOperatorContract.verify(name, inputs: inputs, options: options, op) }
    }
}

/// A check that fails for a reason this suite cannot fix: a false positive of the kit, or an
/// operator bug too large to fix here. The family tests wrap exactly these clauses in
/// `withKnownIssue`; any other violation still fails.
struct KnownIssue: Sendable {
    /// A short name, such as "disposal during start is lost".
    let title: String
    let clauses: Set<ContractClause>
    let explanation: String
    /// Whether the violation depends on thread timing, so a run may not show it.
    var isIntermittent = false
}

/// One built-in operator: its name, its family, its forms and its options, declared once.
struct BuiltInOperator: Sendable {
    let name: String
    let family: OperatorFamily
    /// The forms the operator exists on, each as a test case and a row of the matrix.
    let cases: [OperatorCase]
    /// Why the two forms are given different fixed operands, so that their outputs cannot be
    /// compared (P3); `nil` when they can.
    let formsDiffer: String?

    init(
        _ name: String,
        _ family: OperatorFamily,
        options: ContractOptions = .default,
        signal: FormCheck? = nil,
        producer: FormCheck? = nil,
        signalPair: FormCheck? = nil,
        producerPair: FormCheck? = nil,
        knownIssues: [OperatorForm: [KnownIssue]] = [:],
        formsDiffer: String? = nil
    ) {
        precondition(signal != nil || producer != nil, "\(name): an operator needs at least one form")
        self.name = name
        self.family = family
        self.formsDiffer = formsDiffer
        let forms = [
            (OperatorForm.signal, signal), (.producer, producer), (.signalPair, signalPair), (.producerPair, producerPair),
        ]
        cases = forms.compactMap { form, check in
            check.map {
                OperatorCase(
                    name: name, family: family, form: form, options: options, check: $0,
                    knownIssues: knownIssues[form] ?? []
                )
            }
        }
    }
}

extension BuiltInOperator: CustomTestStringConvertible {
    var testDescription: String { name }

    /// The case of one form, if the operator has it.
    func form(_ form: OperatorForm) -> OperatorCase? { cases.first { $0.form == form } }

    /// Whether the operator has both a signal and a producer form of one input.
    var hasBothForms: Bool { form(.signal) != nil && form(.producer) != nil }

    /// Whether P3 is checked: both forms exist and get the same operands.
    var comparesForms: Bool { hasBothForms && formsDiffer == nil }

    /// The scenarios in which the signal form and the producer form delivered different events
    /// (and, for operators of two driven inputs, the two pair forms).
    var formDisagreements: [(scenario: String, this: [String], other: [String])] {
        guard comparesForms, let signal = form(.signal), let producer = form(.producer) else { return [] }
        var found = signal.report.disagreements(with: producer.report)
        if let signalPair = form(.signalPair), let producerPair = form(.producerPair) {
            found += signalPair.report.disagreements(with: producerPair.report)
        }
        return found
    }
}

/// One form of one operator: a test argument, and a row of the matrix. Its report is computed
/// once per test run, by whichever test needs it first.
struct OperatorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let family: OperatorFamily
    let form: OperatorForm
    let options: ContractOptions
    let check: FormCheck
    let knownIssues: [KnownIssue]
    private let cell = ReportCell()

    init(
        name: String, family: OperatorFamily, form: OperatorForm, options: ContractOptions, check: FormCheck,
        knownIssues: [KnownIssue]
    ) {
        self.name = name
        self.family = family
        self.form = form
        self.options = options
        self.check = check
        self.knownIssues = knownIssues
    }

    /// The name in reports and test names, such as `SignalProducer.map(_:)`.
    var qualifiedName: String { "\(form.rawValue).\(name)" }
    var testDescription: String { qualifiedName }

    var report: ContractReport {
        cell.value { check.run(qualifiedName, options) }
    }

    /// The clauses the known issues expect broken.
    var knownClauses: Set<ContractClause> { Set(knownIssues.flatMap(\.clauses)) }

    /// Expects the report to conform, except for the clauses of the known issues, each of which is
    /// expected to break and recorded as a known issue of its own (so that a fix in the kit shows
    /// up as a known issue that was not recorded).
    func expectConforming(sourceLocation: SourceLocation = #_sourceLocation) {
        let report = report
        let known = knownClauses
        let unexpected = report.violatedClauses.filter { !known.contains($0) }
        #expect(unexpected.isEmpty, "\(report)", sourceLocation: sourceLocation)
        for issue in knownIssues {
            withKnownIssue(Comment(rawValue: "\(issue.title): \(issue.explanation)"), isIntermittent: issue.isIntermittent) {
                #expect(
                    report.violatedClauses.allSatisfy { !issue.clauses.contains($0) },
                    "\(report)",
                    sourceLocation: sourceLocation
                )
            }
        }
    }
}

/// Keeps a report once computed. The kit runs outside the lock (it runs the operator: user code),
/// so two tests asking at once may both compute it; the first one stored is kept.
private final class ReportCell: Sendable {
    private let report = Locked<ContractReport?>(nil)

    func value(_ compute: () -> ContractReport) -> ContractReport {
        if let stored = report.withLock({ $0 }) { return stored }
        let computed = compute()
        return report.withLock { stored in
            if stored == nil { stored = computed }
            return stored!
        }
    }
}

/// Every built-in operator, by family.
enum BuiltInOperators {
    static let all: [BuiltInOperator] =
        transform + filter + combining + flattening + time + error + aggregate + lifecycle

    static var allCases: [OperatorCase] { all.flatMap(\.cases) }
}

/// Applies a binary operator with its other operand fixed, to check it as a unary operator: the
/// other operand is a hot pipe that, once `apply` has attached the operator to it, sends `values`
/// and completes. To the operator, the other side "has already sent" those values and finished
/// by the time the kit sends anything. (A hot signal's values sent before the operator observes
/// it would reach no one; an input observer released without a terminal interrupts its signal.)
func fixingOperand<T, F: Swift.Error, O, E: Swift.Error>(
    sending values: [T],
    failing _: F.Type,
    _ apply: (Signal<T, F>) -> Signal<O, E>
) -> Signal<O, E> {
    let (operand, input) = Signal<T, F>.pipe()
    let output = apply(operand)
    for value in values {
        input.send(value: value)
    }
    input.sendCompleted()
    return output
}

/// `fixingOperand(sending:failing:_:)` for an operand that cannot fail.
func fixingOperand<T, O, E: Swift.Error>(sending values: [T], _ apply: (Signal<T, Never>) -> Signal<O, E>) -> Signal<O, E> {
    fixingOperand(sending: values, failing: Never.self, apply)
}
