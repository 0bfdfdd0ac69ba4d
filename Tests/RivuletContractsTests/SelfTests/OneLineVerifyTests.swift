import Rivulet
import RivuletContracts
import Testing

/// Each form of `verify` written as a user would, with no type annotation on the closure: these
/// compile only if the overloads resolve. The checks show which form each one chose.
@Suite struct OneLineVerifyTests {
    @Test func aSignalOperatorNeedsNoAnnotation() {
        let report = OperatorContract.verify("doubled") { $0.map { $0 * 2 } }
        #expect(report.isConforming, "\(report)")
        #expect(report.clausesChecked.contains(.e2))
    }

    @Test func aProducerOperatorNeedsNoAnnotation() {
        let report = ProducerOperatorContract.verify("doubled") { $0.map { $0 * 2 } }
        #expect(report.isConforming, "\(report)")
        #expect(report.clausesChecked.contains(.p2))
    }

    @Test func givenInputsThatCouldFailOrNotTheFormWithFailuresIsChosen() {
        let signal = OperatorContract.verify("shouted", inputs: ["a", "b"]) { $0.map { $0.uppercased() } }
        let producer = ProducerOperatorContract.verify("shouted", inputs: ["a", "b"]) { $0.map { $0.uppercased() } }
        #expect(signal.isConforming && producer.isConforming, "\(signal)\n\(producer)")
        #expect(signal.clausesChecked.contains(.e2) && producer.clausesChecked.contains(.e2))
    }

    @Test func anOperatorThatNeedsAnInputThatCannotFailGetsTheFormWithoutFailures() {
        // Promoting to another error than the kit's needs an input that cannot fail.
        let report = OperatorContract.verify("promoted", inputs: [1, 2]) { $0.promoteError(UnrelatedError.self) }
        #expect(report.isConforming, "\(report)")
        #expect(!report.clausesChecked.contains(.e2))
    }

    @Test func twoInputsASchedulerAndAProbeNeedNoAnnotation() {
        let pair = OperatorContract.verify("summed", inputs: [1, 2, 3]) { $0.combineLatest(with: $1).map { $0 + $1 } }
        let timed = OperatorContract.verify("delayed", inputs: [1, 2]) { $0.delay(1, on: $1) }
        let probed = OperatorContract.verify("scaled") { signal, probe in signal.map(probe.wrap { $0 * 3 }) }
        let probedProducer = ProducerOperatorContract.verify("scaled") { producer, probe in
            producer.map(probe.wrap { $0 * 3 })
        }
        #expect(probedProducer.isConforming, "\(probedProducer)")
        #expect(pair.isConforming, "\(pair)")
        #expect(timed.isConforming, "\(timed)")
        #expect(probed.isConforming, "\(probed)")
    }
}

/// An error type other than the kit's `ContractError`.
private struct UnrelatedError: Swift.Error {}
