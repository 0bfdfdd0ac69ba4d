import Rivulet

extension OperatorContract {
    /// Checks an operator of two signals, driving both: values interleaved on the two inputs;
    /// each input failing or interrupted while the other goes on; a terminal event on one input
    /// racing values on the other; both inputs sent into from several threads at once; disposal at
    /// every point; a re-entrant send; disposal from inside the observer; two observers.
    ///
    /// The same clauses are checked as for one input, except that outputs are not compared with a
    /// serial replay: when two threads send into two inputs, the order in which the operator takes
    /// them is its own, and no replay can know it.
    ///
    /// ```swift
    /// let report = OperatorContract.verify("sum", inputs: [1, 2, 3]) {
    ///     (left: Signal<Int, ContractError>, right: Signal<Int, ContractError>) in
    ///     left.combineLatest(with: right).map { $0 + $1 }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's two input signals; called once
    ///     per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator:
            @escaping @Sendable (Signal<Input, ContractError>, Signal<Input, ContractError>) -> Signal<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(build: .signalPair { first, second, _ in `operator`(first, second) }),
            options, inputs, error: ContractError(code: 1)
        )
    }
}

extension ProducerOperatorContract {
    /// Checks an operator of two producers, driving both sources, as `OperatorContract` does for
    /// two signals; plus P1, P2 and P4 (disposing of a start ends both sources' starts).
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's two input producers; called once
    ///     per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator:
            @escaping @Sendable (SignalProducer<Input, ContractError>, SignalProducer<Input, ContractError>)
            -> SignalProducer<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(build: .producerPair { first, second, _ in `operator`(first, second) }),
            options, inputs, error: ContractError(code: 1)
        )
    }
}
