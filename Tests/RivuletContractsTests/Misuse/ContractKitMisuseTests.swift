import Rivulet
import RivuletContracts
import Testing

/// Misuse of the contract kit (issue 19, item 6): options and inputs that would make a check
/// meaningless stop with a precondition failure naming the API, the argument and the rule.
@Suite struct ContractKitMisuseTests {
    @Test func anOperatorCheckNeedsTwoInputs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = OperatorContract.verify("map", inputs: [1]) { $0.map { $0 * 2 } }
        }
        expectStandardError(
            result,
            contains:
                "RivuletContracts: OperatorContract.verify: inputs.count is 1; it must be 2 or more (0 for an input of Never)")
    }

    @Test func aProducerOperatorCheckNeedsTwoInputs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ProducerOperatorContract.verify("map", inputs: [Int]()) { $0.map { $0 * 2 } }
        }
        expectStandardError(
            result,
            contains:
                "RivuletContracts: ProducerOperatorContract.verify: inputs.count is 0; it must be 2 or more (0 for an input of Never)"
        )
    }

    @Test func aChannelCheckNeedsThreeInputs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ChannelContract.verify("identity", inputs: [1, 2]) { $0 }
        }
        expectStandardError(result, contains: "RivuletContracts: ChannelContract.verify: inputs.count is 2; it must be 3 or more")
    }

    @Test func aComposedPropertyCheckNeedsThreeValues() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PropertyContract.verify("map", values: [1, 2]) { $0.map { $0 } }
        }
        expectStandardError(
            result,
            contains: "RivuletContracts: PropertyContract.verify(_:values:options:_:): values.count is 2; it must be 3 or more")
    }

    @Test func aStandalonePropertyCheckNeedsTwoValues() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PropertyContract.verify("mutable", values: [1]) {
                let property = MutableProperty(0)
                return (property, { property.value = $0 })
            }
        }
        expectStandardError(
            result,
            contains: "RivuletContracts: PropertyContract.verify(_:values:options:_:): values.count is 1; it must be 2 or more")
    }

    @Test func contractOptionsNeedAPositiveDeadline() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ContractOptions(deadline: 0)
        }
        expectStandardError(
            result, contains: "RivuletContracts: ContractOptions.init: deadline is 0.0; it must be greater than 0")
    }

    @Test func contractOptionsNeedTwoSenderThreads() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ContractOptions(senderThreads: 1)
        }
        expectStandardError(result, contains: "RivuletContracts: ContractOptions.init: senderThreads is 1; it must be 2 or more")
    }

    @Test func contractOptionsNeedASettleTimeOfZeroOrMore() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ContractOptions(settleTime: -1)
        }
        expectStandardError(result, contains: "RivuletContracts: ContractOptions.init: settleTime is -1.0; it must be 0 or more")
    }

    @Test func channelContractOptionsNeedAPositiveDeadline() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ChannelContractOptions(deadline: -1)
        }
        expectStandardError(
            result, contains: "RivuletContracts: ChannelContractOptions.init: deadline is -1.0; it must be greater than 0")
    }

    @Test func channelContractOptionsNeedTwoSenderThreads() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ChannelContractOptions(senderThreads: 0)
        }
        expectStandardError(
            result, contains: "RivuletContracts: ChannelContractOptions.init: senderThreads is 0; it must be 2 or more")
    }
}
