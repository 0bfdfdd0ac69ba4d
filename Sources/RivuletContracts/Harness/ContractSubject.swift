import Rivulet

/// What a contract check drives: a signal operator or a producer operator, built afresh for each
/// scenario from the kit's input and, for a subject that shifts time, a `TestScheduler`.
struct ContractSubject<Input: Sendable, InputError: Swift.Error, Output, OutputError: Swift.Error>: Sendable {
    enum Build: Sendable {
        case signal(@Sendable (Signal<Input, InputError>, TestScheduler?) -> Signal<Output, OutputError>)
        case producer(@Sendable (SignalProducer<Input, InputError>, TestScheduler?) -> SignalProducer<Output, OutputError>)
    }

    let build: Build
    let usesScheduler: Bool

    var isProducer: Bool {
        if case .producer = build { return true }
        return false
    }
}

/// Something the kit's observer captures, to see whether the observer is released (S5).
final class ObserverToken: Sendable {}

/// A terminal event the kit sent, and where the subject's output stood just before and after.
struct TerminalCheck {
    let input: ScenarioRecorder.OutputEnd
    let before: ScenarioRecorder.OutputEnd
    let after: ScenarioRecorder.OutputEnd
    let traceLength: Int
}
