import Rivulet
import RivuletChannels
import RivuletContracts
import Testing

// The samples of Docs/ContractKit.md, line for line (DocumentationSamplesTests checks that they
// are here), run as tests.

extension Signal {
    /// Sends every value twice.
    func stuttered() -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                if case let .value(value) = event { output.send(value: value) }
                output.send(event)
            }
        }
    }
}

@Test func stutteredKeepsTheContracts() {
    let report = OperatorContract.verify("stuttered") { $0.stuttered() }
    #expect(report.isConforming, "\(report)")
}

@Test func stutteredProducerKeepsTheContracts() {
    ProducerOperatorContract.verify("stuttered") { $0.lift { $0.stuttered() } }.expectConforming()
}

@Test func prefixedKeepsTheContracts() {
    let report = OperatorContract.verify("prefixed", inputs: ["a", "b"]) { (signal: Signal<String, Never>) in
        signal.map { "> " + $0 }
    }
    #expect(report.isConforming, "\(report)")
}

@Test func delayedKeepsTheContracts() {
    let report = OperatorContract.verify("delayed", inputs: [1, 2, 3]) {
        (signal: Signal<Int, ContractError>, scheduler: TestScheduler) in
        signal.delay(1, on: scheduler)
    }
    #expect(report.isConforming, "\(report)")
}

@Test func scaledCallsItsClosureSafely() {
    let report = OperatorContract.verify("scaled") { (signal: Signal<Int, ContractError>, probe: UserCodeProbe) in
        signal.map(probe.wrap { $0 * 10 })
    }
    #expect(report.isConforming, "\(report)")
}

@Test func materializedKeepsTheContracts() {
    let options = ContractOptions(handlesFailure: true, turnsInputEndsIntoValues: true)
    let report = OperatorContract.verify("materialized", options: options) { $0.materialize() }
    #expect(report.isConforming, "\(report)")
}

@Test func halvedAgreesInBothForms() {
    let report = OperatorContract.verify(
        "halved", inputs: [2, 4, 6],
        signal: { (signal: Signal<Int, ContractError>) in signal.map { $0 / 2 } },
        producer: { (producer: SignalProducer<Int, ContractError>) in producer.map { $0 / 2 } }
    )
    #expect(report.isConforming, "\(report)")
}

@Test func queueSchedulerKeepsTheContracts() {
    let report = SchedulerContract.verifyDateScheduler("QueueScheduler") { QueueScheduler() }
    #expect(report.isConforming, "\(report)")
}

@Test func virtualAndImmediateSchedulersKeepTheContracts() {
    let immediate = SchedulerContract.verify("ImmediateScheduler", runsActionsImmediately: true) { ImmediateScheduler() }
    let virtual = SchedulerContract.verifyDateScheduler("TestScheduler", advance: { $0.advance(by: $1) }) { TestScheduler() }
    #expect(immediate.isConforming, "\(immediate)")
    #expect(virtual.isConforming, "\(virtual)")
}

@Test func doubledPropertyKeepsTheContracts() {
    let report = PropertyContract.verify("doubled", values: [1, 2, 3]) { (source: MutableProperty<Int>) in
        source.map { $0 * 2 }
    }
    #expect(report.isConforming, "\(report)")
}

@Test func summedKeepsTheContracts() {
    let report = OperatorContract.verify("summed", inputs: [1, 2, 3]) {
        (left: Signal<Int, ContractError>, right: Signal<Int, ContractError>) in
        left.combineLatest(with: right).map { $0 + $1 }
    }
    #expect(report.isConforming, "\(report)")
}

@Test func tripledChannelKeepsTheContracts() {
    let report = ChannelContract.verify("tripled") { (channel: Channel<Int>) in
        channel.map { $0 * 3 }
    }
    #expect(report.isConforming, "\(report)")
}

@Test func scaledChannelCallsItsClosureSafely() {
    let report = ChannelContract.verify("scaled", inputs: [1, 2, 3]) { (channel: Channel<Int>, probe: UserCodeProbe) in
        channel.map(probe.wrap { $0 * 10 })
    }
    #expect(report.isConforming, "\(report)")
}

@Test func latestChannelKeepsTheContracts() {
    let options = ChannelContractOptions(returnsMulti: true, activatesUpstreamAtCreation: true)
    let report = ChannelContract.verify("latest", options: options) { (channel: Channel<Int>) in
        channel.continuous()
    }
    #expect(report.isConforming, "\(report)")
}
