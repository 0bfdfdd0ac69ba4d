import Testing
import Rivulet
import RivuletContracts

@Test func mapConforms() {
    let report = OperatorContract.verify("map") { (signal: Signal<Int, ContractError>) in
        signal.map { $0 * 2 }
    }
    print(report)
    #expect(report.isConforming, "\(report)")
}

@Test func producerMapConforms() {
    let report = ProducerOperatorContract.verify("map") { (producer: SignalProducer<Int, ContractError>) in
        producer.map { $0 * 2 }
    }
    print(report)
    #expect(report.isConforming, "\(report)")
}
