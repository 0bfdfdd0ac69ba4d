import Rivulet
import RivuletContracts
import Testing

/// The kit against operators that break one clause each: it must name that clause. And against
/// correct operators: it must pass them.
@Suite struct BrokenOperatorTests {
    /// Broken operators that block or deadlock cost the kit one deadline each.
    static let shortDeadline = ContractOptions(deadline: 0.5)

    @Test func correctSignalOperatorPasses() {
        let report = OperatorContract.verify("map") { (signal: Signal<Int, ContractError>) in
            signal.map { $0 * 2 }
        }
        #expect(report.isConforming, "\(report)")
        #expect(report.clausesChecked.contains(.e2) && report.clausesChecked.contains(.s4))
    }

    @Test func correctProducerOperatorPasses() {
        let report = ProducerOperatorContract.verify("filter") { (producer: SignalProducer<Int, ContractError>) in
            producer.filter { $0 % 2 == 0 }
        }
        #expect(report.isConforming, "\(report)")
        #expect(report.clausesChecked.contains(.p1) && report.clausesChecked.contains(.p4))
    }

    @Test func correctOperatorWithAProbedClosurePasses() {
        let report = OperatorContract.verify("map") { (signal: Signal<Int, ContractError>, probe: UserCodeProbe) in
            signal.map(probe.wrap { $0 * 10 })
        }
        #expect(report.isConforming, "\(report)")
        #expect(report.scenarios.contains("disposal from inside the operator's closure"))
    }

    @Test func correctProducerOperatorWithAProbedClosurePasses() {
        let report = ProducerOperatorContract.verify("scan", inputs: [1, 2, 3]) {
            (producer: SignalProducer<Int, ContractError>, probe: UserCodeProbe) in
            producer.scan(0, probe.wrap { $0 + $1 })
        }
        #expect(report.isConforming, "\(report)")
    }

    @Test func closureRunOnTwoThreadsAtOnceIsCaught_E5() {
        let rendezvous = OverlapRendezvous()
        let report = OperatorContract.verify("mapWarmingAhead") { (signal: Signal<Int, ContractError>, probe: UserCodeProbe) in
            signal.mapWarmingAhead(
                probe.wrap {
                    rendezvous.meet()
                    return $0 * 10
                })
        }
        #expect(report.violatedClauses.contains(.e5), "\(report)")
        // The helper thread is not one the kit started.
        #expect(report.violatedClauses.contains(.o5), "\(report)")
    }

    @Test func closureReenteredFromTeardownIsCaught_E6() {
        let report = OperatorContract.verify("mapFlushingOnTeardown") {
            (signal: Signal<Int, ContractError>, probe: UserCodeProbe) in
            signal.mapFlushingOnTeardown(probe.wrap { $0 * 10 })
        }
        #expect(report.violatedClauses == [.e6], "\(report)")
        #expect(report.violations(of: .e6).first?.scenario == "disposal from inside the operator's closure", "\(report)")
    }

    @Test func closureCalledUnderALockIsCaught_O7() {
        let report = OperatorContract.verify("mapUnderItsLock", inputs: [1, 2], options: Self.shortDeadline) {
            (signal: Signal<Int, ContractError>, probe: UserCodeProbe) in
            signal.mapUnderItsLock(probe.wrap { $0 * 10 })
        }
        #expect(report.violatedClauses == [.o7], "\(report)")
        #expect(report.violations(of: .o7).first?.scenario == "disposal from inside the operator's closure", "\(report)")
    }

    @Test func valueAfterCompletionIsCaught_E1() {
        let report = OperatorContract.verify("repeatingLastValueAfterCompletion") { (signal: Signal<Int, ContractError>) in
            signal.repeatingLastValueAfterCompletion()
        }
        // Rivulet drops the value, so no observer sees it: the signal audit reports the attempt.
        #expect(report.violatedClauses == [.e1], "\(report)")
        #expect(report.violations(of: .e1).first?.explanation.contains("value(4)") == true, "\(report)")
    }

    @Test func swallowedFailureIsCaught_E2() {
        let report = OperatorContract.verify("swallowingFailure") { (signal: Signal<Int, ContractError>) in
            signal.swallowingFailure()
        }
        #expect(report.violatedClauses == [.e2], "\(report)")
        // The dropped failure leaves the output with no sender, so Rivulet interrupts it.
        #expect(report.violations(of: .e2).first?.explanation.contains("failure was lost") == true, "\(report)")
    }

    @Test func failureTurnedIntoCompletionIsCaught_E3() {
        let report = OperatorContract.verify("completingOnFailure") { (signal: Signal<Int, ContractError>) in
            signal.completingOnFailure()
        }
        #expect(report.violatedClauses == [.e3], "\(report)")
    }

    @Test func interruptionTurnedIntoCompletionIsCaught_E4() {
        let report = OperatorContract.verify("completingOnInterruption") { (signal: Signal<Int, ContractError>) in
            signal.completingOnInterruption()
        }
        #expect(report.violatedClauses == [.e4], "\(report)")
    }

    @Test func threadHopWithoutSchedulerIsCaught_O5() {
        let report = OperatorContract.verify("hoppingThreads") { (signal: Signal<Int, ContractError>) in
            signal.hoppingThreads()
        }
        #expect(report.violatedClauses.contains(.o5), "\(report)")
        let trace = report.violations(of: .o5).first?.trace.map(\.description) ?? []
        #expect(trace.contains { $0.contains("foreign thread") }, "\(trace)")
    }

    @Test func blockingIsCaught_O6() {
        let report = OperatorContract.verify("blockingOnFirstValue", inputs: [1, 2], options: Self.shortDeadline) {
            (signal: Signal<Int, ContractError>) in signal.blockingOnFirstValue()
        }
        #expect(report.violatedClauses == [.o6], "\(report)")
        #expect(report.violations(of: .o6).first?.explanation.contains("value(1)") == true, "\(report)")
    }

    @Test func userCodeUnderALockIsCaught_O7() {
        let report = OperatorContract.verify("sendingUnderItsLock", inputs: [1, 2], options: Self.shortDeadline) {
            (signal: Signal<Int, ContractError>) in signal.sendingUnderItsLock()
        }
        #expect(report.violatedClauses == [.o7], "\(report)")
    }

    @Test func upstreamKeptAfterDisposalIsCaught_S4() {
        let report = OperatorContract.verify("leakingItsUpstream") { (signal: Signal<Int, ContractError>) in
            signal.leakingItsUpstream()
        }
        #expect(report.violatedClauses.contains(.s4), "\(report)")
        #expect(report.violations(of: .s4).first?.scenario == "values", "\(report)")
    }

    @Test func eagerStartIsCaught_P1() {
        let report = ProducerOperatorContract.verify("startingEagerly") { (producer: SignalProducer<Int, ContractError>) in
            producer.startingEagerly()
        }
        #expect(report.violatedClauses.contains(.p1), "\(report)")
        // The eager start is never disposed of either, so it keeps its source running.
        #expect(report.violatedClauses.contains(.p4), "\(report)")
    }

    @Test func stateSharedAcrossStartsIsCaught_P2() {
        let report = ProducerOperatorContract.verify("numberedAcrossStarts") { (producer: SignalProducer<Int, ContractError>) in
            producer.numberedAcrossStarts()
        }
        #expect(report.violatedClauses == [.p2], "\(report)")
    }

    @Test func sourceLeftRunningAfterDisposalIsCaught_P4() {
        let report = ProducerOperatorContract.verify("detachingItsSource") { (producer: SignalProducer<Int, ContractError>) in
            producer.detachingItsSource()
        }
        #expect(report.violatedClauses.contains(.p4), "\(report)")
    }
}

/// Both forms of an operator, against each other (P3).
@Suite struct LiftingContractTests {
    @Test func matchingFormsPass_P3() {
        let report = OperatorContract.verify(
            "skip(first: 1)", inputs: [1, 2, 3],
            signal: { (signal: Signal<Int, ContractError>) in signal.skip(first: 1) },
            producer: { (producer: SignalProducer<Int, ContractError>) in producer.skip(first: 1) }
        )
        #expect(report.isConforming, "\(report)")
        #expect(report.clausesChecked.contains(.p3))
    }

    @Test func formsThatDisagreeAreCaught_P3() {
        let report = OperatorContract.verify(
            "offByOne", inputs: [1, 2, 3],
            signal: { (signal: Signal<Int, ContractError>) in signal.skip(first: 1) },
            producer: { (producer: SignalProducer<Int, ContractError>) in producer.skip(first: 2) }
        )
        #expect(report.violatedClauses == [.p3], "\(report)")
    }
}
