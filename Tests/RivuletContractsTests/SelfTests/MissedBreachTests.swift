import Rivulet
import RivuletContracts
import Testing

/// Broken operators the kit used to report as conforming, each caught now with its clause.
@Suite struct MissedBreachTests {
    @Test func aHeldValueFlushedBeforeAFailureIsCaught_E2() {
        let report = OperatorContract.verify("collectingAndFlushingOnAnyEnd") { $0.collectingAndFlushingOnAnyEnd() }
        #expect(report.violatedClauses.contains(.e2), "\(report)")
        #expect(report.violations(of: .e2).contains { $0.explanation.contains("value([1, 2, 3, 4])") }, "\(report)")
    }

    @Test func aHeldValueFlushedBeforeAnInterruptionIsCaught_E4() {
        let report = OperatorContract.verify("collectingAndFlushingOnAnyEnd") { $0.collectingAndFlushingOnAnyEnd() }
        #expect(report.violations(of: .e4).contains { $0.scenario.contains("interrupted") }, "\(report)")
    }

    @Test func aBufferThatDropsWhatItHoldsOnAFailurePasses() {
        let report = OperatorContract.verify("collect") { $0.collect() }
        #expect(report.isConforming, "\(report)")
    }

    @Test func scheduledWorkLeftAfterAnInterruptionIsCaught_E4() {
        let report = OperatorContract.verify("delayingAndForgetting", inputs: [1, 2, 3]) {
            $0.delayingAndForgetting(1, on: $1)
        }
        #expect(report.violations(of: .e4).contains { $0.explanation.contains("on the scheduler") }, "\(report)")
    }

    @Test func scheduledWorkLeftAfterAStartIsDisposedOfIsCaught_P4() {
        let report = ProducerOperatorContract.verify("delayingAndForgetting", inputs: [1, 2, 3]) { producer, scheduler in
            producer.lift { $0.delayingAndForgetting(1, on: scheduler) }
        }
        #expect(report.violations(of: .p4).contains { $0.explanation.contains("on the scheduler") }, "\(report)")
    }

    @Test func aDelayThatCancelsWhatItScheduledPasses() {
        let report = OperatorContract.verify("delay", inputs: [1, 2, 3]) { $0.delay(1, on: $1) }
        #expect(report.isConforming, "\(report)")
    }

    @Test func aClosureKeptAfterTheTerminalEventIsCaught_S5() {
        let report = OperatorContract.verify("mapRememberingTransform") { signal, probe in
            signal.mapRememberingTransform(probe.wrap { $0 * 10 })
        }
        #expect(report.violations(of: .s5).contains { $0.explanation.contains("closures it was given") }, "\(report)")
    }

    @Test func anOperatorThatLetsGoOfItsClosurePasses() {
        let report = OperatorContract.verify("map") { signal, probe in signal.map(probe.wrap { $0 * 10 }) }
        #expect(report.isConforming, "\(report)")
    }

    @Test func aValueSentAfterTheOperatorsOwnInterruptionIsCaught_E1() {
        let report = ProducerOperatorContract.verify("forwardingPastDisposal") { $0.forwardingPastDisposal() }
        #expect(
            report.violations(of: .e1).contains {
                $0.explanation.contains("already been interrupted") && $0.scenario.hasPrefix("disposal")
            },
            "\(report)")
    }

    @Test func blockingShorterThanTheDeadlineIsCaught_O6() {
        let report = OperatorContract.verify("pausingBeforeEachEvent") { $0.pausingBeforeEachEvent() }
        #expect(report.violations(of: .o6).contains { $0.explanation.contains("identity operator") }, "\(report)")
    }
}
