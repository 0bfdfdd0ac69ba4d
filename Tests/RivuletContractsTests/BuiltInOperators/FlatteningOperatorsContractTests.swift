import Rivulet
import RivuletContracts
import Testing

/// The strategies, by the name they have in the matrix.
private let strategies: [(name: String, strategy: FlattenStrategy)] = [
    (".merge", .merge),
    (".concat", .concat),
    (".concurrent(limit: 2)", .concurrent(limit: 2)),
    (".latest", .latest),
    (".race", .race),
    (".throttle", .throttle),
]

/// An inner producer that sends `value` and `value * 10` at once, then completes.
private func synchronousInner(_ value: Int) -> SignalProducer<Int, ContractError> {
    SignalProducer(values: [value, value * 10])
}

/// An inner producer that sends `value` at once and then stays open until it is disposed of:
/// the strategies differ on it (concat, race and throttle let only the first one through).
private func openInner(_ value: Int) -> SignalProducer<Int, ContractError> {
    SignalProducer { observer, lifetime in
        observer.send(value: value)
        // Holding the observer keeps the start open (releasing it would interrupt the inner).
        lifetime += AnyDisposable { _ = observer }
    }
}

/// An inner producer that fails for 3: the output then fails before its input ends.
private func failingInner(_ value: Int) -> SignalProducer<Int, ContractError> {
    value == 3 ? SignalProducer(error: ContractError(code: 3)) : SignalProducer(value: value)
}

/// The producers `flatten(_:)` gets as values.
private let innerProducers: [SignalProducer<Int, ContractError>] = [
    SignalProducer(value: 1), SignalProducer(values: [2, 3]), .empty, SignalProducer(value: 4),
]

extension BuiltInOperators {
    /// Flattening operators (api-surface 2.5): an outer stream of inner producers, for every
    /// strategy, with inners that complete at once, inners that stay open, and inners that fail.
    static let flattening: [BuiltInOperator] =
        strategies.flatMap { name, strategy in
            [
                BuiltInOperator(
                    "flatMap(\(name)) completing inners", .flattening,
                    signal: .signal { $0.flatMap(strategy, synchronousInner) },
                    producer: .producer { $0.flatMap(strategy, synchronousInner) }
                ),
                BuiltInOperator(
                    "flatMap(\(name)) open inners", .flattening,
                    signal: .signal { $0.flatMap(strategy, openInner) },
                    producer: .producer { $0.flatMap(strategy, openInner) }
                ),
                BuiltInOperator(
                    "flatMap(\(name)) failing inner", .flattening,
                    signal: .signal { $0.flatMap(strategy, failingInner) },
                    producer: .producer { $0.flatMap(strategy, failingInner) }
                ),
                BuiltInOperator(
                    "flatten(\(name))", .flattening,
                    signal: .signal(inputs: innerProducers) { $0.flatten(strategy) },
                    producer: .producer(inputs: innerProducers) { $0.flatten(strategy) }
                ),
            ]
        } + [
            // The overloads that promote a `Never` error on one side.
            BuiltInOperator(
                "flatMap(.latest) infallible inners", .flattening,
                signal: .signal { $0.flatMap(.latest) { SignalProducer<Int, Never>(values: [$0, $0 * 10]) } },
                producer: .producer { $0.flatMap(.latest) { SignalProducer<Int, Never>(values: [$0, $0 * 10]) } }
            ),
            BuiltInOperator(
                "flatMap(.merge) infallible outer", .flattening,
                signal: .infallibleSignal(inputs: [1, 2, 3, 4]) { $0.flatMap(.merge, failingInner) },
                producer: .infallibleProducer(inputs: [1, 2, 3, 4]) { $0.flatMap(.merge, failingInner) }
            ),
        ]
}

@Suite("Contract kit: flattening operators")
struct FlatteningOperatorsContractTests {
    @Test(arguments: BuiltInOperators.flattening.flatMap(\.cases))
    func keepsTheContracts(_ operatorCase: OperatorCase) {
        operatorCase.expectConforming()
    }
}
