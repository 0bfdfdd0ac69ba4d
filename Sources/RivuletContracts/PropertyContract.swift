import Rivulet

/// Checks a custom property against Rivulet's contracts.
///
/// Each scenario runs against a fresh subject, which the kit reads, observes (through `signal`
/// and `producer`) and changes:
///
/// - the value is readable at once, and after each change it is the last value emitted (R1);
///   `producer` sends the current value first, at once (R1), then the same changes as `signal`,
///   which sends changes only (S3: observing it sends nothing);
/// - each change is emitted synchronously, during the call that made it, and inside the
///   observer `value` already is the emitted value (R2);
/// - reading `value` from inside an observer of `signal` and of `producer` works (R3; a read
///   that does not return within the deadline is reported);
/// - changes made from several threads at once are emitted one at a time, and afterwards the
///   value is the last one emitted (E5);
/// - a change made from inside an observer is emitted after the current emission, not nested in
///   it, and does not deadlock (E6);
/// - a composed subject causes nothing on its source when made, read or observed, does not
///   keep it alive, and keeps its last value once the source is gone (R4); and it completes
///   when its source ends, with nothing after (E1).
///
/// Values are compared by their description (`String(describing:)`), so the subject's values
/// need descriptions that tell them apart. A step that does not finish within
/// `options.deadline` is reported and ends the check; the stuck thread is abandoned.
public enum PropertyContract {
    /// Checks a property composed from another, such as `map`: the kit makes a fresh
    /// `MutableProperty` source starting at `values[0]`, hands it to `compose`, and sets the
    /// rest of `values` on it.
    ///
    /// ```swift
    /// let report = PropertyContract.verify("doubled", values: [1, 2, 3]) { (source: MutableProperty<Int>) in
    ///     source.map { $0 * 2 }
    /// }
    /// #expect(report.isConforming, "\(report)")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name the report gives the subject.
    ///   - values: The source's initial value, then the values the kit sets; at least three, so
    ///     that there is a change to make from inside an observer.
    ///   - options: The deadline for each step and how many threads set at once.
    ///   - compose: Makes the subject from the source; called once per scenario, on a kit thread.
    ///     The kit keeps the only reference to the source, so that it can see whether the subject
    ///     keeps it.
    /// - Returns: The clauses checked and every violation, each with its trace.
    public static func verify<Input: Sendable, P: PropertyProtocol & Sendable>(
        _ name: String,
        values: [Input],
        options: ContractOptions = .default,
        _ compose: @escaping @Sendable (MutableProperty<Input>) -> P
    ) -> ContractReport {
        precondition(
            values.count >= 3,
            "RivuletContracts: PropertyContract.verify(_:values:options:_:): values.count is \(values.count); it must be 3 or more (the source's initial value and two changes)"
        )
        return run(name, composed: true, options: options) { PropertyFixture<P.Value>.composed(values: values, compose) }
    }

    /// Checks a standalone property that the kit changes through `set`: `make` returns a fresh
    /// property and a closure that changes it; the kit calls it with each of `values`.
    ///
    /// ```swift
    /// let report = PropertyContract.verify("MutableProperty", values: [1, 2, 3]) {
    ///     let property = MutableProperty(0)
    ///     return (property, { property.value = $0 })
    /// }
    /// ```
    ///
    /// A property that cannot change, such as `Property(value:)`, passes a `set` that does
    /// nothing: the kit only requires that what is emitted agrees with what is read.
    ///
    /// - Parameters:
    ///   - name: The name the report gives the subject.
    ///   - values: The values the kit sets, in order; at least two.
    ///   - options: The deadline for each step and how many threads set at once.
    ///   - make: Makes a fresh property and its setter; called once per scenario, on a kit
    ///     thread. `set` is called on the kit's threads, several at once in one scenario.
    /// - Returns: The clauses checked and every violation, each with its trace.
    public static func verify<P: PropertyProtocol & Sendable>(
        _ name: String,
        values: [P.Value],
        options: ContractOptions = .default,
        _ make: @escaping @Sendable () -> (property: P, set: @Sendable (P.Value) -> Void)
    ) -> ContractReport where P.Value: Sendable {
        precondition(
            values.count >= 2,
            "RivuletContracts: PropertyContract.verify(_:values:options:_:): values.count is \(values.count); it must be 2 or more"
        )
        return run(name, composed: false, options: options) { PropertyFixture<P.Value>.standalone(values: values, make()) }
    }

    // MARK: Running

    private static func run<Value>(
        _ name: String,
        composed: Bool,
        options: ContractOptions,
        _ makeFixture: @escaping @Sendable () -> PropertyFixture<Value>
    ) -> ContractReport {
        var scenarios: [(String, (PropertyRun<Value>) -> Void)] = [
            ("reading", { $0.reading() }),
            ("sets", { $0.sets() }),
            ("sets from several threads at once", { $0.concurrentSets() }),
            ("a set from inside the observer", { $0.setFromInsideTheObserver() }),
        ]
        if composed {
            scenarios.append(("the source ends", { $0.sourceEnds() }))
        }
        var names: [String] = []
        var violations: [ContractViolation] = []
        for (scenario, body) in scenarios {
            names.append(scenario)
            let run = PropertyRun(scenario, options: options, makeFixture)
            body(run)
            violations += run.violations
            // Every later scenario would wait out the deadline too.
            if run.isStuck { break }
        }
        var clauses: [ContractClause] = [.e1, .e5, .e6, .r1, .r2, .r3, .s3, .o6, .o7]
        if composed { clauses.append(.r4) }
        return ContractReport(subject: name, clausesChecked: clauses, scenarios: names, violations: violations)
    }
}
