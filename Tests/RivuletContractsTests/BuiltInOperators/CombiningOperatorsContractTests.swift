import Rivulet
import RivuletContracts
import Testing

private let booleans = [true, false, false, true]

extension BuiltInOperators {
    /// Combining operators (api-surface 2.4, and the Boolean combinations of 2.2). Each is checked
    /// as a unary operator of the kit's input, with the other operands fixed (and those of two
    /// inputs of one type also with both inputs driven by the kit):
    /// - on signals, by `fixingOperand`: a hot operand that has already sent its values and
    ///   completed by the time the kit sends (`Signal.never` where the operator must not end early);
    /// - on producers, by a synchronous producer (`SignalProducer(value:)`), which each start of
    ///   the combination starts afresh.
    static let combining: [BuiltInOperator] = [
        // The other side has sent "a" and completed: every input value makes a pair.
        BuiltInOperator(
            "combineLatest(with:)", .combining,
            signal: .signal { signal in
                fixingOperand(sending: ["a"], failing: ContractError.self) { signal.combineLatest(with: $0) }
            },
            producer: .producer { $0.combineLatest(with: SignalProducer<String, ContractError>(value: "a")) },
            signalPair: .signalPair(inputs: [1, 2, 3]) { $0.combineLatest(with: $1) },
            producerPair: .producerPair(inputs: [1, 2, 3]) { $0.combineLatest(with: $1) }
        ),
        BuiltInOperator(
            "combineLatest(_:_:)", .combining,
            signal: .signal { signal in
                fixingOperand(sending: ["a"], failing: ContractError.self) {
                    Signal<Int, ContractError>.combineLatest(signal, $0)
                }
            },
            producer: .producer {
                SignalProducer<Int, ContractError>.combineLatest($0, SignalProducer<String, ContractError>(value: "a"))
            },
            signalPair: .signalPair(inputs: [1, 2, 3]) { Signal<Int, ContractError>.combineLatest($0, $1) },
            producerPair: .producerPair(inputs: [1, 2, 3]) { SignalProducer<Int, ContractError>.combineLatest($0, $1) }
        ),
        BuiltInOperator(
            "combineLatest(_:_:_:)", .combining,
            signal: .signal { signal in
                fixingOperand(sending: ["a"], failing: ContractError.self) { strings in
                    fixingOperand(sending: [true], failing: ContractError.self) { flags in
                        Signal<Int, ContractError>.combineLatest(signal, strings, flags)
                    }
                }
            },
            producer: .producer { producer in
                SignalProducer<Int, ContractError>.combineLatest(
                    producer,
                    SignalProducer<String, ContractError>(value: "a"),
                    SignalProducer<Bool, ContractError>(value: true)
                )
            }
        ),
        BuiltInOperator(
            "combineLatest(_ sequence:)", .combining,
            signal: .signal { signal in
                fixingOperand(sending: [10], failing: ContractError.self) {
                    Signal<Int, ContractError>.combineLatest([signal, $0])
                }
            },
            producer: .producer { SignalProducer<Int, ContractError>.combineLatest([$0, SignalProducer(value: 10)]) }
        ),
        BuiltInOperator(
            "combineLatest(_:emptySentinel:)", .combining,
            producer: .producer {
                SignalProducer<Int, ContractError>.combineLatest([$0, SignalProducer(value: 10)], emptySentinel: [0])
            }
        ),
        // The other side has sent three values and completed: the third input value makes the
        // last pair, and the output completes before its input does.
        BuiltInOperator(
            "zip(with:)", .combining,
            signal: .signal { signal in
                fixingOperand(sending: ["a", "b", "c"], failing: ContractError.self) { signal.zip(with: $0) }
            },
            producer: .producer { $0.zip(with: SignalProducer<String, ContractError>(values: ["a", "b", "c"])) },
            signalPair: .signalPair(inputs: [1, 2, 3]) { $0.zip(with: $1) },
            producerPair: .producerPair(inputs: [1, 2, 3]) { $0.zip(with: $1) }
        ),
        BuiltInOperator(
            "zip(_:_:)", .combining,
            signal: .signal { signal in
                fixingOperand(sending: ["a", "b", "c"], failing: ContractError.self) {
                    Signal<Int, ContractError>.zip(signal, $0)
                }
            },
            producer: .producer {
                SignalProducer<Int, ContractError>.zip($0, SignalProducer<String, ContractError>(values: ["a", "b", "c"]))
            },
            signalPair: .signalPair(inputs: [1, 2, 3]) { Signal<Int, ContractError>.zip($0, $1) },
            producerPair: .producerPair(inputs: [1, 2, 3]) { SignalProducer<Int, ContractError>.zip($0, $1) }
        ),
        BuiltInOperator(
            "zip(_:_:_:)", .combining,
            signal: .signal { signal in
                fixingOperand(sending: ["a", "b", "c"], failing: ContractError.self) { strings in
                    fixingOperand(sending: [true, false, true], failing: ContractError.self) { flags in
                        Signal<Int, ContractError>.zip(signal, strings, flags)
                    }
                }
            },
            producer: .producer { producer in
                SignalProducer<Int, ContractError>.zip(
                    producer,
                    SignalProducer<String, ContractError>(values: ["a", "b", "c"]),
                    SignalProducer<Bool, ContractError>(values: [true, false, true])
                )
            }
        ),
        BuiltInOperator(
            "zip(_ sequence:)", .combining,
            signal: .signal { signal in
                fixingOperand(sending: [10, 20, 30], failing: ContractError.self) {
                    Signal<Int, ContractError>.zip([signal, $0])
                }
            },
            producer: .producer { SignalProducer<Int, ContractError>.zip([$0, SignalProducer(values: [10, 20, 30])]) }
        ),
        BuiltInOperator(
            "zip(_:emptySentinel:)", .combining,
            producer: .producer {
                SignalProducer<Int, ContractError>.zip([$0, SignalProducer(values: [10, 20, 30])], emptySentinel: [0])
            }
        ),
        // merge ends when all its operands have ended, and an operand's interruption counts as
        // its completion (E4's flattening exception). On signals the other side has completed
        // without a value: the output ends with the kit's input. On producers it sends 10 (or 10
        // and 20) and completes, on each start.
        BuiltInOperator(
            "merge(with:)", .combining,
            options: flattenedOperand,
            signal: .signal { signal in
                fixingOperand(sending: [Int](), failing: ContractError.self) { signal.merge(with: $0) }
            },
            producer: .producer { $0.merge(with: SignalProducer(value: 10)) },
            signalPair: .signalPair(inputs: [1, 2, 3]) { $0.merge(with: $1) },
            producerPair: .producerPair(inputs: [1, 2, 3]) { $0.merge(with: $1) },
            formsDiffer: mergeOperands
        ),
        BuiltInOperator(
            "merge(_ sequence:)", .combining,
            options: flattenedOperand,
            signal: .signal { signal in
                fixingOperand(sending: [Int](), failing: ContractError.self) { Signal<Int, ContractError>.merge([signal, $0]) }
            },
            producer: .producer { SignalProducer<Int, ContractError>.merge([$0, SignalProducer(value: 10)]) },
            formsDiffer: mergeOperands
        ),
        BuiltInOperator(
            "merge(_:...)", .combining,
            options: flattenedOperand,
            signal: .signal { signal in
                fixingOperand(sending: [Int](), failing: ContractError.self) { first in
                    fixingOperand(sending: [Int](), failing: ContractError.self) {
                        Signal<Int, ContractError>.merge(signal, first, $0)
                    }
                }
            },
            producer: .producer {
                SignalProducer<Int, ContractError>.merge($0, SignalProducer(value: 10), SignalProducer(value: 20))
            },
            formsDiffer: mergeOperands
        ),
        // concat, prefix and then exist on producers only.
        BuiltInOperator(
            "concat(_:)", .combining,
            options: flattenedOperand,
            producer: .producer { $0.concat(SignalProducer(values: [10, 20])) }
        ),
        BuiltInOperator(
            "concat(value:)", .combining,
            options: flattenedOperand,
            producer: .producer { $0.concat(value: 10) }
        ),
        // Completes into a failure by design; the input's own failure must still pass.
        BuiltInOperator(
            "concat(error:)", .combining,
            options: flattenedOperand,
            producer: .producer { $0.concat(error: ContractError(code: 9)) }
        ),
        BuiltInOperator(
            "prefix(_:)", .combining,
            options: flattenedOperand,
            producer: .producer { $0.prefix(SignalProducer(values: [10, 20])) }
        ),
        BuiltInOperator(
            "prefix(value:)", .combining,
            options: flattenedOperand,
            producer: .producer { $0.prefix(value: 0) }
        ),
        BuiltInOperator(
            "then(_:)", .combining,
            producer: .producer { $0.then(SignalProducer<String, ContractError>(value: "done")) }
        ),
        BuiltInOperator(
            "then(_:) infallible replacement", .combining,
            producer: .producer { $0.then(SignalProducer<String, Never>(value: "done")) }
        ),
        BuiltInOperator(
            "then(_:) infallible input", .combining,
            producer: .infallibleProducer(inputs: [1, 2, 3, 4]) {
                $0.then(SignalProducer<String, ContractError>(value: "done"))
            }
        ),
        // Boolean combinations: the other side has sent one Boolean and completed.
        BuiltInOperator(
            "and(_:)", .combining,
            signal: .signal(inputs: booleans) { signal in
                fixingOperand(sending: [true], failing: ContractError.self) { signal.and($0) }
            },
            producer: .producer(inputs: booleans) { $0.and(SignalProducer(value: true)) },
            signalPair: .signalPair(inputs: booleans) { $0.and($1) },
            producerPair: .producerPair(inputs: booleans) { $0.and($1) }
        ),
        BuiltInOperator(
            "or(_:)", .combining,
            signal: .signal(inputs: booleans) { signal in
                fixingOperand(sending: [false], failing: ContractError.self) { signal.or($0) }
            },
            producer: .producer(inputs: booleans) { $0.or(SignalProducer(value: false)) },
            signalPair: .signalPair(inputs: booleans) { $0.or($1) },
            producerPair: .producerPair(inputs: booleans) { $0.or($1) }
        ),
        BuiltInOperator(
            "all(_:)", .combining,
            signal: .signal(inputs: booleans) { signal in
                fixingOperand(sending: [true], failing: ContractError.self) { Signal.all([signal, $0]) }
            },
            producer: .producer(inputs: booleans) { SignalProducer.all([$0, SignalProducer(value: true)]) }
        ),
        BuiltInOperator(
            "any(_:)", .combining,
            signal: .signal(inputs: booleans) { signal in
                fixingOperand(sending: [false], failing: ContractError.self) { Signal.any([signal, $0]) }
            },
            producer: .producer(inputs: booleans) { SignalProducer.any([$0, SignalProducer(value: false)]) }
        ),
    ]
}

@Suite("Contract kit: combining operators")
struct CombiningOperatorsContractTests {
    @Test(arguments: BuiltInOperators.combining.flatMap(\.cases))
    func keepsTheContracts(_ operatorCase: OperatorCase) {
        operatorCase.expectConforming()
    }
}

/// merge, concat and prefix treat each operand, the kit's input among them, as an inner stream
/// they flatten: by E4's flattening rule its interruption ends only that operand (as documented in
/// Merge.swift and Concat.swift, and in ReactiveSwift).
private let flattenedOperand = ContractOptions(inputInterruptionEndsOnlyTheInput: true)

/// Why merge's forms cannot be compared: the signal forms merge with signals that already ended,
/// the producer forms with producers that send values on each start.
private let mergeOperands =
    "the signal form merges with signals that already ended, the producer form with producers that send values"
