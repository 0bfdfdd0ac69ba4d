import Dispatch
import Rivulet

/// O6 for a subject that blocks for less than the deadline: one that sleeps or waits a while on
/// every send, say, passes the deadline and still holds up every sender.
///
/// Wall-clock times on a loaded machine jump around, so the check is built not to cry wolf: only
/// a first scenario (values only) that took longer than `floor` leads to it, and then the subject
/// is reported only if the best of `runs` further runs of that scenario is still over `floor` and
/// over `factor` times the best of as many runs through an identity operator, run alternately
/// with it in the same conditions. A subject that blocks for 0.1 s on each of four sends is
/// caught every time; ordinary operators never come near.
struct SlownessCheck<Input: Sendable, InputError: Swift.Error, Output, OutputError: Swift.Error> {
    let subject: ContractSubject<Input, InputError, Output, OutputError>
    let options: ContractOptions

    /// Seconds a values-only scenario may take before the check looks closer.
    static var floor: Double { 0.2 }
    /// How many times slower than the identity operator a subject must be to be reported.
    static var factor: Double { 20 }
    /// Runs of the scenario through each of the subject and the identity operator.
    static var runs: Int { 3 }

    /// The violation, if the subject blocks its senders, given how long `scenario` took at first.
    func violation(in scenario: Scenario<Input, InputError>, firstRunTook seconds: Double) -> ContractViolation? {
        guard seconds > Self.floor else { return nil }
        let identity = ContractSubject<Input, InputError, Input, InputError>(
            build: subject.identityBuild, usesScheduler: subject.usesScheduler, usesProbe: subject.usesProbe)
        var subjectBest = Double.infinity
        var identityBest = Double.infinity
        for _ in 0..<Self.runs {
            guard let subjectTime = duration(of: scenario, through: subject),
                let identityTime = duration(of: scenario, through: identity)
            else { return nil }
            subjectBest = min(subjectBest, subjectTime)
            identityBest = min(identityBest, identityTime)
        }
        guard subjectBest > Self.floor, subjectBest > Self.factor * identityBest else { return nil }
        return ContractViolation(
            clause: .o6,
            scenario: scenario.name,
            explanation: "the scenario took at least \(format(subjectBest)) s through the subject (best of \(Self.runs) runs) "
                + "against \(format(identityBest)) s through an identity operator: the subject holds up its senders "
                + "(it sleeps or waits on the sending thread)",
            trace: []
        )
    }

    /// How long `scenario` takes through `subject`, steps and finish; `nil` if it did not finish
    /// within the deadline (reported elsewhere).
    private func duration<SomeOutput, SomeError>(
        of scenario: Scenario<Input, InputError>,
        through subject: ContractSubject<Input, InputError, SomeOutput, SomeError>
    ) -> Double? {
        let run = ScenarioRun(scenario, subject: subject, options: options)
        let start = DispatchTime.now().uptimeNanoseconds
        guard runOnKitThread(deadline: options.deadline, { run.runSteps() }) else { return nil }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard runOnKitThread(deadline: options.deadline, { run.finish() }) else { return nil }
        return elapsed
    }

    private func format(_ seconds: Double) -> String {
        String(Double(Int(seconds * 1_000)) / 1_000)
    }
}

extension ContractSubject {
    /// An operator of the same shape that passes its (first) input through.
    var identityBuild: ContractSubject<Input, InputError, Input, InputError>.Build {
        switch build {
        case .signal: .signal { input, _ in input }
        case .producer: .producer { input, _ in input }
        case .signalPair: .signalPair { first, _, _ in first }
        case .producerPair: .producerPair { first, _, _ in first }
        }
    }
}
