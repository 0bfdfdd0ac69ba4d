import Testing
@testable import Rivulet
import RivuletContracts

/// Generated event scripts against the transforming, filtering and aggregating operators (issue
/// 19, item 2): both forms, checked against the reference models in FuzzModels+Values.swift.
@Suite("Fuzz: value operators", .checksLiveObjects)
struct FuzzValueOperatorTests {
    typealias Op = FuzzOperator

    @Test("Transforming operators match their models on generated scripts")
    func transforming() {
        fuzzFamily(
            "transforming", shape: FuzzShape(),
            [
                Op.unary("map", model: valueModel { [$0 * 3] }, signal: { $0.map { $0 * 3 } }, producer: { $0.map { $0 * 3 } })
                    .erased,
                Op.unary(
                    "compactMap", model: valueModel { $0 % 2 == 0 ? [$0 / 2] : [] },
                    signal: { $0.compactMap { $0 % 2 == 0 ? $0 / 2 : nil } },
                    producer: { $0.compactMap { $0 % 2 == 0 ? $0 / 2 : nil } }
                ).erased,
                Op.unary(
                    "skipNil", model: valueModel { $0 % 3 == 0 ? [] : [$0] },
                    signal: { $0.map { $0 % 3 == 0 ? nil : $0 }.skipNil() },
                    producer: { $0.map { $0 % 3 == 0 ? nil : $0 }.skipNil() }
                ).erased,
                Op.unary(
                    "scan", model: ValueModels.runningSum(from: 10), signal: { $0.scan(10, +) }, producer: { $0.scan(10, +) }
                ).erased,
                Op.unary(
                    "attemptMap",
                    model: unaryModel { events in
                        events.map { event in
                            guard case .value(let value) = event else { return event }
                            return value == 4 ? .failed(9) : .value(value + 1)
                        }
                    },
                    signal: { $0.attemptMap { $0 == 4 ? .failure(TestError(9)) : .success($0 + 1) } },
                    producer: { $0.attemptMap { $0 == 4 ? .failure(TestError(9)) : .success($0 + 1) } }
                ).erased,
                Op<[Int]>(
                    "combinePrevious(initial)", model: ValueModels.pairs(initial: -1), value: { [$0.0, $0.1] }, error: code,
                    signal: { sources, _ in sources[0].combinePrevious(-1) },
                    producer: { sources, _ in sources[0].combinePrevious(-1) }
                ).erased,
                Op<[Int]>(
                    "combinePrevious()", model: ValueModels.pairs(initial: nil), value: { [$0.0, $0.1] }, error: code,
                    signal: { sources, _ in sources[0].combinePrevious() },
                    producer: { sources, _ in sources[0].combinePrevious() }
                ).erased,
                Op<String>(
                    "materialize", model: ValueModels.materialized,
                    value: { ModelEvent($0, value: { $0 }, error: code).description },
                    error: impossible,
                    signal: { sources, _ in sources[0].materialize() }, producer: { sources, _ in sources[0].materialize() }
                ).erased,
                Op.unary(
                    "scanMap", model: ValueModels.scanMapped(from: 1),
                    signal: { $0.scanMap(1) { ($0 + $1, $0 * 10 + $1) } }, producer: { $0.scanMap(1) { ($0 + $1, $0 * 10 + $1) } }
                ).erased,
                Op.unary(
                    "materialize + dematerialize", model: valueModel { [$0] },
                    signal: { $0.materialize().dematerialize() }, producer: { $0.materialize().dematerialize() }
                ).erased,
            ])
    }

    @Test("Filtering operators match their models on generated scripts")
    func filtering() {
        fuzzFamily(
            "filtering", shape: FuzzShape(),
            [
                Op.unary(
                    "filter", model: valueModel { $0 % 2 == 0 ? [$0] : [] },
                    signal: { $0.filter { $0 % 2 == 0 } }, producer: { $0.filter { $0 % 2 == 0 } }
                ).erased,
                Op.unary(
                    "skipRepeats", model: ValueModels.withoutRepeats, signal: { $0.skipRepeats() }, producer: { $0.skipRepeats() }
                )
                .erased,
                Op.unary(
                    "uniqueValues", model: ValueModels.uniques, signal: { $0.uniqueValues() }, producer: { $0.uniqueValues() }
                ).erased,
                Op.unary(
                    "uniqueValues(key)", model: ValueModels.uniques { $0 % 4 },
                    signal: { $0.uniqueValues { $0 % 4 } }, producer: { $0.uniqueValues { $0 % 4 } }
                ).erased,
                Op.unary(
                    "skipRepeats(isEquivalent)", model: ValueModels.withoutRepeats { $0 % 3 },
                    signal: { $0.skipRepeats { $0 % 3 == $1 % 3 } }, producer: { $0.skipRepeats { $0 % 3 == $1 % 3 } }
                ).erased,
                Op.unary(
                    "skip(first: 2)", model: ValueModels.skippingFirst(2), signal: { $0.skip(first: 2) },
                    producer: { $0.skip(first: 2) }
                )
                .erased,
                Op.unary(
                    "skip(while:)", model: ValueModels.skipping(while: { $0 < 3 }),
                    signal: { $0.skip(while: { $0 < 3 }) }, producer: { $0.skip(while: { $0 < 3 }) }
                ).erased,
                Op.unary(
                    "take(first: 1)", model: ValueModels.takingFirst(1), signal: { $0.take(first: 1) },
                    producer: { $0.take(first: 1) }
                )
                .erased,
                Op.unary(
                    "take(first: 3)", model: ValueModels.takingFirst(3), signal: { $0.take(first: 3) },
                    producer: { $0.take(first: 3) }
                )
                .erased,
                Op.unary(
                    "take(last: 2)", model: ValueModels.takingLast(2), signal: { $0.take(last: 2) },
                    producer: { $0.take(last: 2) }
                )
                .erased,
                Op.unary(
                    "take(while:)", model: ValueModels.taking(while: { $0 < 4 }),
                    signal: { $0.take(while: { $0 < 4 }) }, producer: { $0.take(while: { $0 < 4 }) }
                ).erased,
                Op.unary(
                    "take(until: predicate)", model: ValueModels.taking(while: { $0 < 4 }, sendsLast: true),
                    signal: { $0.take(until: { $0 < 4 }) }, producer: { $0.take(until: { $0 < 4 }) }
                ).erased,
            ])
    }

    @Test("Aggregating operators match their models on generated scripts")
    func aggregating() {
        fuzzFamily(
            "aggregating", shape: FuzzShape(),
            [
                Op<[Int]>(
                    "collect()", model: ValueModels.collecting { _ in false },
                    signal: { sources, _ in sources[0].collect() }, producer: { sources, _ in sources[0].collect() }
                ).erased,
                Op<[Int]>(
                    "collect(count: 2)", model: ValueModels.collecting { $0.count == 2 },
                    signal: { sources, _ in sources[0].collect(count: 2) },
                    producer: { sources, _ in sources[0].collect(count: 2) }
                ).erased,
                Op<[Int]>(
                    "collect(shouldEmit)", model: ValueModels.collecting { $0.reduce(0, +) >= 6 },
                    signal: { sources, _ in sources[0].collect { $0.reduce(0, +) >= 6 } },
                    producer: { sources, _ in sources[0].collect { $0.reduce(0, +) >= 6 } }
                ).erased,
                Op.unary(
                    "reduce", model: ValueModels.total(from: 100), signal: { $0.reduce(100, +) }, producer: { $0.reduce(100, +) }
                ).erased,
            ])
    }
}
