import Rivulet
import RivuletContracts
import Testing

/// A value with a key path to map over.
struct Boxed: Sendable, CustomStringConvertible {
    let number: Int
    var description: String { "Boxed(\(number))" }
}

/// An `attemptMap` transform that fails on 3: the output then fails on its own, mid-stream.
private func failingOnThree(_ value: Int) -> Result<Int, ContractError> {
    value == 3 ? .failure(ContractError(code: 3)) : .success(value * 10)
}

private struct ThrownError: Swift.Error, CustomStringConvertible {
    var description: String { "ThrownError" }
}

/// The events `dematerialize` gets: values, then a failure that ends its output mid-stream.
private let materializedEvents: [Signal<Int, ContractError>.Event] = [
    .value(1), .value(2), .failed(ContractError(code: 2)), .value(4),
]

private let materializedResults: [Result<Int, ContractError>] = [
    .success(1), .success(2), .failure(ContractError(code: 2)), .success(4),
]

extension BuiltInOperators {
    /// Transforming operators (api-surface 2.2).
    static let transform: [BuiltInOperator] = [
        BuiltInOperator(
            "map(_:)", .transform,
            signal: .signal { $0.map { $0 * 2 } },
            producer: .producer { $0.map { $0 * 2 } }
        ),
        BuiltInOperator(
            "map(value:)", .transform,
            signal: .signal { $0.map(value: "x") },
            producer: .producer { $0.map(value: "x") }
        ),
        BuiltInOperator(
            "map(_ keyPath:)", .transform,
            signal: .signal(inputs: [Boxed(number: 1), Boxed(number: 2), Boxed(number: 3)]) { $0.map(\.number) },
            producer: .producer(inputs: [Boxed(number: 1), Boxed(number: 2), Boxed(number: 3)]) { $0.map(\.number) }
        ),
        BuiltInOperator(
            "compactMap(_:)", .transform,
            signal: .signal { $0.compactMap { $0 % 2 == 0 ? $0 : nil } },
            producer: .producer { $0.compactMap { $0 % 2 == 0 ? $0 : nil } }
        ),
        BuiltInOperator(
            "filterMap(_:)", .transform,
            signal: .signal { $0.filterMap { $0 % 2 == 0 ? $0 : nil } },
            producer: .producer { $0.filterMap { $0 % 2 == 0 ? $0 : nil } }
        ),
        BuiltInOperator(
            "skipNil()", .transform,
            signal: .signal(inputs: [1, nil, 3, nil] as [Int?]) { $0.skipNil() },
            producer: .producer(inputs: [1, nil, 3, nil] as [Int?]) { $0.skipNil() }
        ),
        BuiltInOperator(
            "scan(_:_:)", .transform,
            signal: .signal { $0.scan(0, +) },
            producer: .producer { $0.scan(0, +) }
        ),
        BuiltInOperator(
            "scan(into:_:)", .transform,
            signal: .signal { $0.scan(into: [Int]()) { $0.append($1) } },
            producer: .producer { $0.scan(into: [Int]()) { $0.append($1) } }
        ),
        BuiltInOperator(
            "scanMap(_:_:)", .transform,
            signal: .signal { $0.scanMap(0) { state, value in (state + value, "\(state)+\(value)") } },
            producer: .producer { $0.scanMap(0) { state, value in (state + value, "\(state)+\(value)") } }
        ),
        BuiltInOperator(
            "scanMap(into:_:)", .transform,
            signal: .signal {
                $0.scanMap(into: 0) { state, value in
                    state += value; return state * 10
                }
            },
            producer: .producer {
                $0.scanMap(into: 0) { state, value in
                    state += value; return state * 10
                }
            }
        ),
        BuiltInOperator(
            "combinePrevious(_:)", .transform,
            signal: .signal { $0.combinePrevious(0) },
            producer: .producer { $0.combinePrevious(0) }
        ),
        BuiltInOperator(
            "combinePrevious()", .transform,
            signal: .signal { $0.combinePrevious() },
            producer: .producer { $0.combinePrevious() }
        ),
        // Turning failure and interruption into values is the point of these two.
        BuiltInOperator(
            "materialize()", .transform,
            options: ContractOptions(handlesFailure: true, turnsInputEndsIntoValues: true),
            signal: .signal { $0.materialize() },
            producer: .producer { $0.materialize() }
        ),
        BuiltInOperator(
            "materializeResults()", .transform,
            options: ContractOptions(handlesFailure: true),
            signal: .signal { $0.materializeResults() },
            producer: .producer { $0.materializeResults() }
        ),
        // The input cannot fail; the failure comes from a materialized event, mid-stream.
        BuiltInOperator(
            "dematerialize()", .transform,
            signal: .infallibleSignal(inputs: materializedEvents) { $0.dematerialize() },
            producer: .infallibleProducer(inputs: materializedEvents) { $0.dematerialize() }
        ),
        BuiltInOperator(
            "dematerializeResults()", .transform,
            signal: .infallibleSignal(inputs: materializedResults) { $0.dematerializeResults() },
            producer: .infallibleProducer(inputs: materializedResults) { $0.dematerializeResults() }
        ),
        // attempt and attemptMap fail on the value 3: the output ends before its input does.
        BuiltInOperator(
            "attempt(_:) Result", .transform,
            signal: .signal { $0.attempt { $0 == 3 ? .failure(ContractError(code: 3)) : .success(()) } },
            producer: .producer { $0.attempt { $0 == 3 ? .failure(ContractError(code: 3)) : .success(()) } }
        ),
        BuiltInOperator(
            "attemptMap(_:) Result", .transform,
            signal: .signal { $0.attemptMap(failingOnThree) },
            producer: .producer { $0.attemptMap(failingOnThree) }
        ),
        BuiltInOperator(
            "attempt(_:) throws", .transform,
            signal: .infallibleSignal(inputs: [1, 2, 3, 4]) { $0.attempt { if $0 == 3 { throw ThrownError() } } },
            producer: .infallibleProducer(inputs: [1, 2, 3, 4]) { $0.attempt { if $0 == 3 { throw ThrownError() } } }
        ),
        BuiltInOperator(
            "attemptMap(_:) throws", .transform,
            signal: .infallibleSignal(inputs: [1, 2, 3, 4]) { signal in
                signal.attemptMap { value throws -> Int in
                    if value == 3 { throw ThrownError() }
                    return value * 10
                }
            },
            producer: .infallibleProducer(inputs: [1, 2, 3, 4]) { producer in
                producer.attemptMap { value throws -> Int in
                    if value == 3 { throw ThrownError() }
                    return value * 10
                }
            }
        ),
        BuiltInOperator(
            "flatten() of sequences", .transform,
            signal: .signal(inputs: [[1, 2], [], [3], [4, 5, 6]]) { $0.flatten() },
            producer: .producer(inputs: [[1, 2], [], [3], [4, 5, 6]]) { $0.flatten() }
        ),
        BuiltInOperator(
            "negate()", .transform,
            signal: .signal(inputs: [true, false, false, true]) { $0.negate() },
            producer: .producer(inputs: [true, false, false, true]) { $0.negate() }
        ),
        // A signal that cannot send a value: the inputs are empty, so only terminals are checked.
        BuiltInOperator(
            "promoteValue(_:)", .transform,
            signal: .signal(inputs: [Never]()) { $0.promoteValue(Int.self) },
            producer: .producer(inputs: [Never]()) { $0.promoteValue(Int.self) }
        ),
    ]
}

@Suite("Contract kit: transforming operators")
struct TransformOperatorsContractTests {
    @Test(arguments: BuiltInOperators.transform.flatMap(\.cases))
    func keepsTheContracts(_ operatorCase: OperatorCase) {
        operatorCase.expectConforming()
    }
}
