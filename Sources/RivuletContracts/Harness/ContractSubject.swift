import Rivulet

/// What a contract check drives: a signal operator or a producer operator, built afresh for each
/// scenario from the kit's input and its context.
struct ContractSubject<Input: Sendable, InputError: Swift.Error, Output, OutputError: Swift.Error>: Sendable {
    enum Build: Sendable {
        case signal(@Sendable (Signal<Input, InputError>, SubjectContext) -> Signal<Output, OutputError>)
        case producer(@Sendable (SignalProducer<Input, InputError>, SubjectContext) -> SignalProducer<Output, OutputError>)
        /// An operator of two inputs, both driven by the kit.
        case signalPair(
            @Sendable (Signal<Input, InputError>, Signal<Input, InputError>, SubjectContext) -> Signal<Output, OutputError>)
        case producerPair(
            @Sendable (SignalProducer<Input, InputError>, SignalProducer<Input, InputError>, SubjectContext)
                -> SignalProducer<Output, OutputError>
        )
    }

    let build: Build
    /// The subject shifts time on the kit's `TestScheduler`.
    var usesScheduler = false
    /// The subject's closures are wrapped in the kit's `UserCodeProbe`.
    var usesProbe = false

    var isProducer: Bool {
        switch build {
        case .producer, .producerPair: true
        case .signal, .signalPair: false
        }
    }

    /// Whether the subject has two inputs.
    var isPair: Bool {
        switch build {
        case .signalPair, .producerPair: true
        case .signal, .producer: false
        }
    }
}

/// What one scenario hands the subject besides its input.
struct SubjectContext {
    /// For a subject that shifts time; `nil` otherwise.
    let scheduler: TestScheduler?
    let probe: UserCodeProbe
}

/// Something the kit's observer captures, to see whether the observer is released (S5).
final class ObserverToken: Sendable {}

/// A terminal event the kit sent, and where the subject's output stood just before and after.
struct TerminalCheck {
    let input: ScenarioRecorder.OutputEnd
    let before: ScenarioRecorder.OutputEnd
    let after: ScenarioRecorder.OutputEnd
    /// The values the output delivered during the kit's send of the terminal event: a failure or
    /// an interruption must not flush what the operator was holding (E2, E4).
    var valuesDuringTheSend: [String] = []
    let traceLength: Int
}
