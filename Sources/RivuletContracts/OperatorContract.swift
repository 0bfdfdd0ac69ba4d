import Rivulet

/// Checks a signal operator against Rivulet's contracts.
///
/// The kit feeds the operator generated event scripts — values only; values then completed,
/// failed or interrupted; empty; an immediate terminal; a terminal racing values; concurrent
/// senders; disposal at every point; a re-entrant send from the observer; disposal from inside the
/// observer; two observers — each time through a fresh pipe and a fresh application of the
/// operator, and checks E1–E7, S3–S5, O3 and O5–O7 on what comes out.
///
/// ```swift
/// let report = OperatorContract.verify("double") { $0.map { $0 * 2 } }
/// #expect(report.isConforming, "\(report)")
/// ```
///
/// The operator closure runs on the kit's threads, once per scenario; it must build the same
/// operator each time. Outputs are compared by their description, so an operator whose output
/// depends on anything but its input and the kit's `TestScheduler` (the clock, randomness,
/// shared state) cannot be checked for E5 and E6.
public enum OperatorContract {
    /// Checks an operator on `Int` inputs (1, 2, 3, 4) with `ContractError` failures.
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input signal; called once per
    ///     scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    public static func verify<Output, OutputError>(
        _ name: String,
        options: ContractOptions = .default,
        _ operator: @escaping @Sendable (Signal<Int, ContractError>) -> Signal<Output, OutputError>
    ) -> ContractReport {
        verify(name, inputs: [1, 2, 3, 4], options: options, `operator`)
    }

    /// Checks an operator on the given input values, with `ContractError` failures.
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input signal; called once per
    ///     scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator: @escaping @Sendable (Signal<Input, ContractError>) -> Signal<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(build: .signal { signal, _ in `operator`(signal) }),
            options, inputs, error: ContractError(code: 1)
        )
    }

    /// Checks an operator whose input cannot fail: the failure scenarios are left out.
    ///
    /// Disfavoured: a closure that works on either input (`{ $0.map { $0 * 2 } }`) is checked with
    /// failures (the form above), so that it needs no type annotation; this form is chosen when
    /// the closure needs an input that cannot fail (`{ $0.promoteError(MyError.self) }`).
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input signal; called once per
    ///     scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    @_disfavoredOverload
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator: @escaping @Sendable (Signal<Input, Never>) -> Signal<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(build: .signal { signal, _ in `operator`(signal) }),
            options, inputs, error: nil
        )
    }

    /// Checks an operator that shifts time or thread on a scheduler: the kit hands it a
    /// `TestScheduler`, runs the actions due after each of its calls, and lets the scheduler run
    /// on at the end. Everything the operator delivers must still arrive inside the kit's calls,
    /// and a failure or interruption at once, without the clock moving (E2, E4).
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input signal and the
    ///     `TestScheduler` the kit drives; called once per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator: @escaping @Sendable (Signal<Input, ContractError>, TestScheduler) -> Signal<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(build: .signal { signal, context in `operator`(signal, context.scheduler!) }, usesScheduler: true),
            options, inputs, error: ContractError(code: 1)
        )
    }

    /// Checks an operator that takes closures, each wrapped in the kit's `UserCodeProbe`: on top
    /// of the other checks, the kit sees how the operator calls them (E5, E6, O5, O7).
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input signal and a probe whose
    ///     `wrap` the operator's closures go through; called once per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator: @escaping @Sendable (Signal<Input, ContractError>, UserCodeProbe) -> Signal<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(build: .signal { signal, context in `operator`(signal, context.probe) }, usesProbe: true),
            options, inputs, error: ContractError(code: 1)
        )
    }

    /// The probed form on `Int` inputs (1, 2, 3, 4).
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input signal and a probe whose
    ///     `wrap` the operator's closures go through; called once per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    public static func verify<Output, OutputError>(
        _ name: String,
        options: ContractOptions = .default,
        _ operator: @escaping @Sendable (Signal<Int, ContractError>, UserCodeProbe) -> Signal<Output, OutputError>
    ) -> ContractReport {
        verify(name, inputs: [1, 2, 3, 4], options: options, `operator`)
    }
}

/// Checks a producer operator against Rivulet's contracts: the same scenarios as
/// `OperatorContract`, each on a fresh start of a source the kit controls, plus P1 (applying the
/// operator starts nothing), P2 (two starts are independent) and P4 (disposing of a start
/// interrupts it and ends its source's lifetime).
///
/// ```swift
/// let report = ProducerOperatorContract.verify("double") { $0.map { $0 * 2 } }
/// ```
public enum ProducerOperatorContract {
    /// Checks an operator on `Int` inputs (1, 2, 3, 4) with `ContractError` failures.
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input producer; called once per
    ///     scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    public static func verify<Output, OutputError>(
        _ name: String,
        options: ContractOptions = .default,
        _ operator: @escaping @Sendable (SignalProducer<Int, ContractError>) -> SignalProducer<Output, OutputError>
    ) -> ContractReport {
        verify(name, inputs: [1, 2, 3, 4], options: options, `operator`)
    }

    /// Checks an operator on the given input values, with `ContractError` failures.
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input producer; called once per
    ///     scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator: @escaping @Sendable (SignalProducer<Input, ContractError>) -> SignalProducer<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(build: .producer { producer, _ in `operator`(producer) }),
            options, inputs, error: ContractError(code: 1)
        )
    }

    /// Checks an operator whose input cannot fail: the failure scenarios are left out.
    /// Disfavoured, as `OperatorContract`'s form: chosen only when the closure needs it.
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input producer; called once per
    ///     scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    @_disfavoredOverload
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator: @escaping @Sendable (SignalProducer<Input, Never>) -> SignalProducer<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(build: .producer { producer, _ in `operator`(producer) }),
            options, inputs, error: nil
        )
    }

    /// Checks an operator that shifts time or thread on a scheduler, driven by a `TestScheduler`
    /// as in `OperatorContract`.
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input producer and the
    ///     `TestScheduler` the kit drives; called once per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator:
            @escaping @Sendable (SignalProducer<Input, ContractError>, TestScheduler) -> SignalProducer<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(
                build: .producer { producer, context in `operator`(producer, context.scheduler!) }, usesScheduler: true),
            options, inputs, error: ContractError(code: 1)
        )
    }

    /// Checks an operator that takes closures, each wrapped in the kit's `UserCodeProbe`.
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; 2 or more (none for
    ///     an input of `Never`).
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input producer and a probe whose
    ///     `wrap` the operator's closures go through; called once per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    /// - Precondition: `inputs` holds 2 values or more (none for an input of `Never`).
    public static func verify<Input: Sendable, Output, OutputError>(
        _ name: String,
        inputs: [Input],
        options: ContractOptions = .default,
        _ operator:
            @escaping @Sendable (SignalProducer<Input, ContractError>, UserCodeProbe) -> SignalProducer<Output, OutputError>
    ) -> ContractReport {
        ContractRunner.report(
            name,
            ContractSubject(build: .producer { producer, context in `operator`(producer, context.probe) }, usesProbe: true),
            options, inputs, error: ContractError(code: 1)
        )
    }

    /// The probed form on `Int` inputs (1, 2, 3, 4).
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - options: How the kit drives the subject, and which clauses it loosens; see
    ///     `ContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input producer and a probe whose
    ///     `wrap` the operator's closures go through; called once per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    public static func verify<Output, OutputError>(
        _ name: String,
        options: ContractOptions = .default,
        _ operator:
            @escaping @Sendable (SignalProducer<Int, ContractError>, UserCodeProbe) -> SignalProducer<Output, OutputError>
    ) -> ContractReport {
        verify(name, inputs: [1, 2, 3, 4], options: options, `operator`)
    }
}
