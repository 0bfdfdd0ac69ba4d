import Rivulet
import RivuletContracts
import Testing

extension BuiltInOperators {
    /// Aggregating operators (api-surface 2.8; the blocking `first()`, `single()`, `last()` and
    /// `wait()` return results, not streams, and are not operators the kit can check).
    static let aggregate: [BuiltInOperator] = [
        BuiltInOperator(
            "collect()", .aggregate,
            signal: .signal { $0.collect() },
            producer: .producer { $0.collect() }
        ),
        BuiltInOperator(
            "collect(count:)", .aggregate,
            signal: .signal { $0.collect(count: 3) },
            producer: .producer { $0.collect(count: 3) }
        ),
        BuiltInOperator(
            "collect(_:) values", .aggregate,
            signal: .signal { $0.collect { (values: [Int]) in values.reduce(0, +) >= 3 } },
            producer: .producer { $0.collect { (values: [Int]) in values.reduce(0, +) >= 3 } }
        ),
        BuiltInOperator(
            "collect(_:) values and latest", .aggregate,
            signal: .signal { $0.collect { (values: [Int], latest: Int) in latest % 2 == 1 && !values.isEmpty } },
            producer: .producer { $0.collect { (values: [Int], latest: Int) in latest % 2 == 1 && !values.isEmpty } }
        ),
        BuiltInOperator(
            "reduce(_:_:)", .aggregate,
            signal: .signal { $0.reduce(0, +) },
            producer: .producer { $0.reduce(0, +) }
        ),
        BuiltInOperator(
            "reduce(into:_:)", .aggregate,
            signal: .signal { $0.reduce(into: [Int]()) { $0.append($1) } },
            producer: .producer { $0.reduce(into: [Int]()) { $0.append($1) } }
        ),
    ]
}

@Suite("Contract kit: aggregating operators")
struct AggregateOperatorsContractTests {
    @Test(arguments: BuiltInOperators.aggregate.flatMap(\.cases))
    func keepsTheContracts(_ operatorCase: OperatorCase) {
        operatorCase.expectConforming()
    }
}
