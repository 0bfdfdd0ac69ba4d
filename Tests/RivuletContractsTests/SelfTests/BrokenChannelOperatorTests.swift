import RivuletChannels
import RivuletContracts
import Testing

/// `ChannelContract` against channel operators that break one clause each: it must name that
/// clause. And against correct operators and options: it must pass them, and check declarations.
@Suite struct BrokenChannelOperatorTests {
    /// Broken operators that wait for something that never happens cost the kit one deadline each.
    static let shortDeadline = ChannelContractOptions(deadline: 0.5)

    @Test func correctOperatorPasses() {
        let report = ChannelContract.verify("map", inputs: [1, 2, 3]) { (channel: Channel<Int>, probe: UserCodeProbe) in
            channel.map(probe.wrap { $0 + 1 })
        }
        #expect(report.isConforming, "\(report)")
        let claimed: [ContractClause] = [.a1, .a2, .a3, .a4, .a5, .a6, .a7, .a9, .a10, .e1, .e5, .e6, .o6, .o7]
        #expect(Set(report.clausesChecked) == Set(claimed), "\(report.clausesChecked)")
        #expect(report.scenarios.contains("cancel and send from inside the operator's closure"))
    }

    @Test func eagerActivationIsCaught_A1() {
        let report = ChannelContract.verify("peekingWhenApplied") { (channel: Channel<Int>) in channel.peekingWhenApplied() }
        #expect(report.violatedClauses == [.a1], "\(report)")
        #expect(report.violations(of: .a1).first?.scenario == "applying the operator", "\(report)")
    }

    @Test func lateActivationValuesAreCaught_A2() {
        let report = ChannelContract.verify("holdingValuesWhileConnecting") { (channel: Channel<Int>) in
            channel.holdingValuesWhileConnecting()
        }
        #expect(report.violatedClauses == [.a2], "\(report)")
        #expect(report.violations(of: .a2).first?.explanation.contains("inside subscribe") == true, "\(report)")
    }

    @Test func staleActivationIsCaught_A3() {
        let report = ChannelContract.verify("connectingOnce", options: Self.shortDeadline) { (channel: Channel<Int>) in
            channel.connectingOnce()
        }
        #expect(report.violatedClauses == [.a3], "\(report)")
        #expect(report.violations(of: .a3).first?.explanation.contains("afresh") == true, "\(report)")
    }

    @Test func undeclaredMultiIsCaught_A4() {
        let report = ChannelContract.verify("multicast, undeclared") { (channel: Channel<Int>) in channel.multicast() }
        #expect(report.violatedClauses == [.a4], "\(report)")
    }

    @Test func plainChannelDeclaredMultiIsCaught_A4() {
        let options = ChannelContractOptions(returnsMulti: true)
        let report = ChannelContract.verify("map, declared a multi", options: options) { (channel: Channel<Int>) in
            channel.map { $0 }
        }
        #expect(report.violatedClauses == [.a4], "\(report)")
        #expect(report.violations(of: .a4).contains { $0.scenario.hasPrefix("a second output") }, "\(report)")
    }

    /// An upstream taken without an output is what A1 sees when the operator is applied, A5 when
    /// the kit sends, and A6 when the output goes away: a user operator cannot break A5 alone.
    @Test func sendWithoutOutputTakenIsCaught_A5() {
        let report = ChannelContract.verify("relayingEagerly", options: Self.shortDeadline) { (channel: Channel<Int>) in
            channel.relayingEagerly()
        }
        #expect(report.violatedClauses.contains(.a5), "\(report)")
        #expect(report.violations(of: .a5).first?.scenario == "a send before any output", "\(report)")
    }

    @Test func leakedUpstreamIsCaught_A6() {
        let report = ChannelContract.verify("leakingUpstream", options: Self.shortDeadline) { (channel: Channel<Int>) in
            channel.leakingUpstream()
        }
        #expect(report.violatedClauses == [.a6], "\(report)")
        #expect(report.violations(of: .a6).first?.explanation.contains("never got nil") == true, "\(report)")
    }

    @Test func swallowedEndIsCaught_A7() {
        let report = ChannelContract.verify("swallowingEnds", options: Self.shortDeadline) { (channel: Channel<Int>) in
            channel.swallowingEnds()
        }
        #expect(report.violatedClauses == [.a7], "\(report)")
    }

    @Test func declaredSwallowingPassesAndIsChecked_A7() {
        let declared = ChannelContractOptions(deadline: 0.5, swallowsInputEnds: true)
        let swallowing = ChannelContract.verify("swallowingEnds", options: declared) { (channel: Channel<Int>) in
            channel.swallowingEnds()
        }
        #expect(swallowing.isConforming, "\(swallowing)")
        #expect(swallowing.scenarios.contains("input released (ends swallowed by declaration)"))
        // The declaration is checked, not taken on trust.
        let forwarding = ChannelContract.verify("map, declared swallowing", options: declared) { (channel: Channel<Int>) in
            channel.map { $0 }
        }
        #expect(forwarding.violatedClauses == [.a7], "\(forwarding)")
    }

    @Test func declaredTurningEndsIntoValuesIsChecked_A7() {
        let declared = ChannelContractOptions(deadline: 0.5, turnsInputEndsIntoValues: true)
        let materializing = ChannelContract.verify("materialize", options: declared) { (channel: Channel<Int>) in
            channel.materialize().map { "\($0)" }
        }
        #expect(materializing.isConforming, "\(materializing)")
        #expect(materializing.scenarios.contains("input released (ends turned into values by declaration)"))
        // A map forwards the end as it is: the declaration does not excuse it.
        let forwarding = ChannelContract.verify("map, declared materializing", options: declared) { (channel: Channel<Int>) in
            channel.map { $0 }
        }
        #expect(forwarding.violatedClauses == [.a7], "\(forwarding)")
    }

    @Test func undeclaredEagerMultiIsCaught_A1_A4() {
        let report = ChannelContract.verify("continuous, undeclared") { (channel: Channel<Int>) in channel.continuous() }
        #expect(report.violatedClauses.contains(.a1) && report.violatedClauses.contains(.a4), "\(report)")
    }

    @Test func threadAffineOperatorIsCaught_A9() {
        let report = ChannelContract.verify("assumingItsActivatingThread") { (channel: Channel<Int>) in
            channel.assumingItsActivatingThread()
        }
        #expect(report.violatedClauses == [.a9], "\(report)")
        #expect(report.violations(of: .a9).first?.scenario == "concurrent senders and a loopback send", "\(report)")
    }

    /// A connection kept across activations is a leak (A6) that delivers into the new graph (A10).
    @Test func staleConnectionDeliveringIsCaught_A10() {
        let report = ChannelContract.verify("reusingItsConnection", options: Self.shortDeadline) { (channel: Channel<Int>) in
            channel.reusingItsConnection()
        }
        #expect(report.violatedClauses == [.a6, .a10], "\(report)")
        #expect(report.violations(of: .a10).first?.explanation.contains("stale connection") == true, "\(report)")
    }

    @Test func closureRunAfterTheEndIsCaught_E1() {
        let report = ChannelContract.verify("mapFlushingAfterTheEnd") { (channel: Channel<Int>, probe: UserCodeProbe) in
            channel.mapFlushingAfterTheEnd(probe.wrap { $0 * 2 })
        }
        #expect(report.violatedClauses == [.e1], "\(report)")
    }

    @Test func closureRunOnTwoThreadsAtOnceIsCaught_E5() {
        let rendezvous = OverlapRendezvous()
        let report = ChannelContract.verify("mapWarmingAhead") { (channel: Channel<Int>, probe: UserCodeProbe) in
            channel.mapWarmingAhead(
                probe.wrap {
                    rendezvous.meet()
                    return $0 * 2
                })
        }
        #expect(report.violatedClauses == [.e5], "\(report)")
    }

    @Test func closureNestedInItselfIsCaught_E6() {
        let report = ChannelContract.verify("mapFlushingOnCancel") { (channel: Channel<Int>, probe: UserCodeProbe) in
            channel.mapFlushingOnCancel(probe.wrap { $0 * 2 })
        }
        #expect(report.violatedClauses == [.e6], "\(report)")
        #expect(
            report.violations(of: .e6).first?.scenario == "cancel and send from inside the operator's closure", "\(report)")
    }

    @Test func blockingIsCaught_O6() {
        let report = ChannelContract.verify("blockingOnFirstValue", options: Self.shortDeadline) { (channel: Channel<Int>) in
            channel.blockingOnFirstValue()
        }
        #expect(report.violatedClauses == [.o6], "\(report)")
    }

    @Test func closureCalledUnderALockIsCaught_O7() {
        let report = ChannelContract.verify("mapUnderItsLock", options: Self.shortDeadline) {
            (channel: Channel<Int>, probe: UserCodeProbe) in
            channel.mapUnderItsLock(probe.wrap { $0 * 2 })
        }
        #expect(report.violatedClauses == [.o7], "\(report)")
        #expect(
            report.violations(of: .o7).first?.scenario == "cancel and send from inside the operator's closure", "\(report)")
    }
}
