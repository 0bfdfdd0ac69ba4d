import Rivulet

extension OperatorContract {
    /// Checks an operator in both its forms: the signal operator and the producer operator each
    /// against the contracts, and the two against each other (P3): in every scenario played from
    /// one thread, both forms deliver the same events (up to the kit's disposal, which a signal's
    /// observer hears nothing of and a producer's start hears as `interrupted`).
    ///
    /// ```swift
    /// let report = OperatorContract.verify("doubled", inputs: [1, 2, 3],
    ///     signal: { (signal: Signal<Int, ContractError>) in signal.map { $0 * 2 } },
    ///     producer: { (producer: SignalProducer<Int, ContractError>) in producer.map { $0 * 2 } })
    /// ```
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - signal: Applies the signal form of the operator to the kit's input signal; called once
    ///     per scenario.
    ///   - producer: Applies the producer form of the operator to the kit's input producer; called
    ///     once per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        signal: @escaping @Sendable (Signal<Input, ContractError>) -> Signal<Output, OutputError>,
        producer: @escaping @Sendable (SignalProducer<Input, ContractError>) -> SignalProducer<Output, OutputError>
    ) -> ContractReport {
        let error = ContractError(code: 1)
        let signalReport = ContractRunner.report(
            "\(name) (signal)", ContractSubject(build: .signal { input, _ in signal(input) }), options, inputs, error: error
        )
        let producerReport = ContractRunner.report(
            "\(name) (producer)", ContractSubject(build: .producer { input, _ in producer(input) }), options, inputs, error: error
        )
        var violations = signalReport.violations + producerReport.violations
        for (scenario, fromSignal, fromProducer) in signalReport.disagreements(with: producerReport) {
            violations.append(
                ContractViolation(
                    clause: .p3,
                    scenario: scenario,
                    explanation: "the signal form delivered \(fromSignal), the producer form \(fromProducer)",
                    trace: []
                ))
        }
        return ContractReport(
            subject: name,
            clausesChecked: signalReport.clausesChecked + producerReport.clausesChecked + [.p3],
            scenarios: signalReport.scenarios.map { "signal: \($0)" } + producerReport.scenarios.map { "producer: \($0)" },
            violations: violations
        )
    }
}
