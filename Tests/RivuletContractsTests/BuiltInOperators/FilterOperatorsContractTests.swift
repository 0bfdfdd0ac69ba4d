import Rivulet
import RivuletContracts
import Testing

/// Inputs with repeats, for the operators that drop them.
private let repeating = [1, 1, 2, 2, 3, 1]

/// Keeps `take(during:)`'s lifetime alive for the whole test run.
private let unendingToken = Lifetime.Token()

extension BuiltInOperators {
    /// Filtering and gating operators (api-surface 2.3). The gating operators with a second
    /// operand (a trigger, a sampler, a samplee, a replacement) are checked as unary operators with
    /// that operand fixed, as each comment says.
    static let filter: [BuiltInOperator] = [
        BuiltInOperator(
            "filter(_:)", .filter,
            signal: .signal { $0.filter { $0 % 2 == 0 } },
            producer: .producer { $0.filter { $0 % 2 == 0 } }
        ),
        BuiltInOperator(
            "skipRepeats()", .filter,
            signal: .signal(inputs: repeating) { $0.skipRepeats() },
            producer: .producer(inputs: repeating) { $0.skipRepeats() }
        ),
        BuiltInOperator(
            "skipRepeats(_:)", .filter,
            signal: .signal(inputs: repeating) { $0.skipRepeats { $0 % 2 == $1 % 2 } },
            producer: .producer(inputs: repeating) { $0.skipRepeats { $0 % 2 == $1 % 2 } }
        ),
        BuiltInOperator(
            "uniqueValues()", .filter,
            signal: .signal(inputs: repeating) { $0.uniqueValues() },
            producer: .producer(inputs: repeating) { $0.uniqueValues() }
        ),
        BuiltInOperator(
            "uniqueValues(_:)", .filter,
            signal: .signal(inputs: repeating) { $0.uniqueValues { $0 % 2 } },
            producer: .producer(inputs: repeating) { $0.uniqueValues { $0 % 2 } }
        ),
        BuiltInOperator(
            "skip(first:)", .filter,
            signal: .signal { $0.skip(first: 2) },
            producer: .producer { $0.skip(first: 2) }
        ),
        BuiltInOperator(
            "skip(while:)", .filter,
            signal: .signal { $0.skip { $0 < 3 } },
            producer: .producer { $0.skip { $0 < 3 } }
        ),
        // Trigger fixed: it has already fired (and completed), so every value passes.
        BuiltInOperator(
            "skip(until:)", .filter,
            signal: .signal { signal in fixingOperand(sending: [()]) { signal.skip(until: $0) } },
            producer: .producer { $0.skip(until: SignalProducer(value: ())) }
        ),
        // Takes two values, then completes before its input does.
        BuiltInOperator(
            "take(first:)", .filter,
            signal: .signal { $0.take(first: 2) },
            producer: .producer { $0.take(first: 2) }
        ),
        BuiltInOperator(
            "take(last:)", .filter,
            signal: .signal { $0.take(last: 2) },
            producer: .producer { $0.take(last: 2) }
        ),
        BuiltInOperator(
            "take(while:)", .filter,
            signal: .signal { $0.take(while: { $0 < 3 }) },
            producer: .producer { $0.take(while: { $0 < 3 }) }
        ),
        BuiltInOperator(
            "take(until:) predicate", .filter,
            signal: .signal { $0.take(until: { $0 < 3 }) },
            producer: .producer { $0.take(until: { $0 < 3 }) }
        ),
        // Trigger fixed: one that never fires, so every event of the input passes.
        BuiltInOperator(
            "take(until:) trigger", .filter,
            signal: .signal { $0.take(until: Signal<(), Never>.never) },
            producer: .producer { $0.take(until: SignalProducer<(), Never>.never) }
        ),
        // A lifetime that does not end during the test run.
        BuiltInOperator(
            "take(during:)", .filter,
            signal: .signal { $0.take(during: Lifetime(unendingToken)) },
            producer: .producer { $0.take(during: Lifetime(unendingToken)) }
        ),
        // Replacement fixed: one that never sends, so the input's values pass (and its completion
        // does not: the replacement is still to come).
        BuiltInOperator(
            "take(untilReplacement:)", .filter,
            signal: .signal { $0.take(untilReplacement: Signal<Int, ContractError>.never) },
            producer: .producer { $0.take(untilReplacement: SignalProducer<Int, ContractError>.never) }
        ),
        // Sampler fixed: it has completed without sending (before any input value), so no value is
        // sampled; the output ends with the input. Checks how terminals and disposal pass.
        BuiltInOperator(
            "sample(with:)", .filter,
            signal: .signal { signal in fixingOperand(sending: [String]()) { signal.sample(with: $0) } },
            producer: .producer { $0.sample(with: SignalProducer<String, Never>.empty) }
        ),
        BuiltInOperator(
            "sample(on:)", .filter,
            signal: .signal { signal in fixingOperand(sending: [()]) { signal.sample(on: $0) } },
            producer: .producer { $0.sample(on: SignalProducer(value: ())) }
        ),
        // Samplee fixed: it has already sent "a" (and completed, which withLatest ignores).
        BuiltInOperator(
            "withLatest(from:) signal", .filter,
            signal: .signal { signal in fixingOperand(sending: ["a"]) { signal.withLatest(from: $0) } }
        ),
        BuiltInOperator(
            "withLatest(from:) producer", .filter,
            signal: .signal { $0.withLatest(from: SignalProducer<String, Never>(value: "a")) },
            producer: .producer { $0.withLatest(from: SignalProducer<String, Never>(value: "a")) }
        ),
    ]
}

@Suite("Contract kit: filtering and gating operators")
struct FilterOperatorsContractTests {
    @Test(arguments: BuiltInOperators.filter.flatMap(\.cases))
    func keepsTheContracts(_ operatorCase: OperatorCase) {
        operatorCase.expectConforming()
    }
}
