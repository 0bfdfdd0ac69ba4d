import Rivulet
import RivuletContracts
import Testing

/// Operators of two inputs, both driven by the kit.
@Suite struct PairOperatorTests {
    @Test func combineLatestOfTwoDrivenSignalsPasses() {
        let report = OperatorContract.verify("combineLatest(with:)", inputs: [1, 2, 3]) {
            (left: Signal<Int, ContractError>, right: Signal<Int, ContractError>) in
            left.combineLatest(with: right).map { $0 + $1 }
        }
        #expect(report.isConforming, "\(report)")
        #expect(report.scenarios.contains("concurrent senders on both inputs"))
    }

    @Test func zipOfTwoDrivenProducersPasses() {
        let report = ProducerOperatorContract.verify("zip(with:)", inputs: [1, 2, 3]) {
            (left: SignalProducer<Int, ContractError>, right: SignalProducer<Int, ContractError>) in
            left.zip(with: right).map { $0 * $1 }
        }
        #expect(report.isConforming, "\(report)")
    }

    @Test func mergeOfTwoDrivenSignalsPasses() {
        let report = OperatorContract.verify(
            "merge(with:)", inputs: [1, 2, 3], options: ContractOptions(inputInterruptionEndsOnlyTheInput: true)
        ) { (left: Signal<Int, ContractError>, right: Signal<Int, ContractError>) in
            left.merge(with: right)
        }
        #expect(report.isConforming, "\(report)")
    }

    @Test func anOperatorThatIgnoresItsSecondInputsFailureIsCaught_E2() {
        // The swallowed failure never arrives: a short deadline keeps the wait for it short.
        let report = OperatorContract.verify(
            "withLatestIgnoringFailures", inputs: [1, 2, 3], options: ContractOptions(deadline: 0.5)
        ) {
            (left: Signal<Int, ContractError>, right: Signal<Int, ContractError>) in
            left.combiningIgnoringSecondFailure(right)
        }
        #expect(report.violatedClauses.contains(.e2), "\(report)")
        #expect(report.violations(of: .e2).allSatisfy { $0.scenario.contains("second") }, "\(report)")
    }

    @Test func anOperatorThatKeepsItsSecondInputIsCaught_S4() {
        // It also drops the second input's terminal events: a short deadline keeps the wait short.
        let report = OperatorContract.verify("keepingSecondInput", inputs: [1, 2], options: ContractOptions(deadline: 0.5)) {
            (left: Signal<Int, ContractError>, right: Signal<Int, ContractError>) in
            left.mergeKeepingSecondInput(right)
        }
        #expect(report.violatedClauses.contains(.s4), "\(report)")
    }
}

extension Signal where Value == Int, Error == ContractError {
    /// Forwards the first input's events, and the second's values; drops the second's failure.
    func combiningIgnoringSecondFailure(_ other: Signal<Int, ContractError>) -> Signal<Int, ContractError> {
        Signal { output, lifetime in
            lifetime += self.observe(output)
            lifetime += other.observe { event in
                if case let .value(value) = event { output.send(value: value) }
            }
        }
    }

    /// Merges the two inputs, but observes the second without tying it to its lifetime.
    func mergeKeepingSecondInput(_ other: Signal<Int, ContractError>) -> Signal<Int, ContractError> {
        Signal { output, lifetime in
            lifetime += self.observe(output)
            other.observe { event in
                if case let .value(value) = event { output.send(value: value) }
            }
        }
    }
}
