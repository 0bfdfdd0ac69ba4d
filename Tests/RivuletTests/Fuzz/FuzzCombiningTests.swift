import Testing
@testable import Rivulet
import RivuletContracts

/// Generated event scripts against the combining, two-input filtering (gating) and error handling
/// operators (issue 19, item 2), checked against FuzzModels+Combining.swift.
@Suite("Fuzz: combining, gating, errors", .checksLiveObjects)
struct FuzzCombiningTests {
    typealias Op = FuzzOperator

    /// Port 1 as a trigger or sampler: it cannot fail, so its failure becomes a completion.
    static func unit(_ signal: Signal<Int, TestError>) -> Signal<(), Never> {
        signal.map { _ in () }.flatMapError { _ in .empty }
    }
    static func unit(_ producer: SignalProducer<Int, TestError>) -> SignalProducer<(), Never> {
        producer.map { _ in () }.flatMapError { _ in .empty }
    }
    static func never(_ signal: Signal<Int, TestError>) -> Signal<Int, Never> { signal.flatMapError { _ in .empty } }
    static func never(_ producer: SignalProducer<Int, TestError>) -> SignalProducer<Int, Never> {
        producer.flatMapError { _ in .empty }
    }

    // The combining operators start their inputs in lifetimes of their own (Architecture.md,
    // "Operands run in lifetimes of their own"), so a disposed start is interrupted at the operator.
    @Test("Combining operators match their models on generated scripts")
    func combining() {
        fuzzFamily(
            "combining", shape: FuzzShape(ports: 2, maxSteps: 20),
            [
                Op(
                    "merge", model: CombiningModels.merge, signal: { s, _ in s[0].merge(with: s[1]) },
                    producer: { s, _ in s[0].merge(with: s[1]) }
                )
                .interruptedAtOperator.erased,
                Op(
                    "Signal.merge", model: CombiningModels.merge, signal: { s, _ in Signal<Int, TestError>.merge([s[0], s[1]]) },
                    producer: nil
                ).erased,
                Op<[Int]>(
                    "combineLatest", model: CombiningModels.combineLatest, value: { [$0.0, $0.1] }, error: code,
                    signal: { s, _ in s[0].combineLatest(with: s[1]) }, producer: { s, _ in s[0].combineLatest(with: s[1]) }
                ).interruptedAtOperator.erased,
                Op<[Int]>(
                    "zip", model: CombiningModels.zip, value: { [$0.0, $0.1] }, error: code,
                    signal: { s, _ in s[0].zip(with: s[1]) }, producer: { s, _ in s[0].zip(with: s[1]) }
                ).interruptedAtOperator.erased,
            ])
    }

    @Test("Producer-only combining and error handling operators match their models on generated scripts")
    func producerOnly() {
        fuzzFamily(
            "producer-only (combining, error handling, sharing)", shape: FuzzShape(),
            [
                // Concatenation is flattening: an interrupted operand counts as completed (E4).
                Op.producerOnly(
                    "concat",
                    model: ValueModels.producerEnding(
                        onCompletion: [.value(100), .value(101), .completed], interruptedCompletes: true)
                ) {
                    $0.concat(SignalProducer(values: [100, 101]))
                }.interruptedAtOperator.erased,
                Op.producerOnly(
                    "concat(value:)",
                    model: ValueModels.producerEnding(onCompletion: [.value(5), .completed], interruptedCompletes: true)
                ) {
                    $0.concat(value: 5)
                }.interruptedAtOperator.erased,
                Op.producerOnly(
                    "concat(error:)", model: ValueModels.producerEnding(onCompletion: [.failed(8)], interruptedCompletes: true)
                ) {
                    $0.concat(error: TestError(8))
                }.interruptedAtOperator.erased,
                Op.producerOnly("prefix(value:)", model: ValueModels.producerEnding(startsWith: [7], interruptedCompletes: true))
                {
                    $0.prefix(value: 7)
                }.interruptedAtOperator.erased,
                Op.producerOnly(
                    "then", model: ValueModels.producerEnding(dropsValues: true, onCompletion: [.value(9), .completed])
                ) {
                    $0.then(SignalProducer<Int, TestError>(value: 9))
                }.erased,
                // A restarted source observes its pipe again, which has failed: it is interrupted (S3).
                Op.producerOnly("retry(upTo: 1)", model: ValueModels.producerEnding(onFailure: { _ in [.interrupted] })) {
                    $0.retry(upTo: 1)
                }.erased,
                Op.producerOnly("retry(upTo: 0)", model: ValueModels.producerEnding()) { $0.retry(upTo: 0) }.erased,
                Op.producerOnly("replayLazily", model: ValueModels.producerEnding()) { $0.replayLazily(upTo: 2) }.sharingUpstream
                    .erased,
            ])
    }

    @Test("Gating operators (two inputs) match their models on generated scripts")
    func gating() {
        fuzzFamily(
            "filtering (two inputs)", shape: FuzzShape(ports: 2, maxSteps: 20),
            [
                Op(
                    "take(until: trigger)", model: CombiningModels.takeUntil,
                    signal: { s, _ in s[0].take(until: Self.unit(s[1])) }, producer: { s, _ in s[0].take(until: Self.unit(s[1])) }
                ).erased,
                Op(
                    "skip(until: trigger)", model: CombiningModels.skipUntil,
                    signal: { s, _ in s[0].skip(until: Self.unit(s[1])) }, producer: { s, _ in s[0].skip(until: Self.unit(s[1])) }
                ).erased,
                Op<[Int]>(
                    "sample(on:)", model: CombiningModels.sample(paired: false), value: { [$0] }, error: code,
                    signal: { s, _ in s[0].sample(on: Self.unit(s[1])) }, producer: { s, _ in s[0].sample(on: Self.unit(s[1])) }
                ).erased,
                Op<[Int]>(
                    "sample(with:)", model: CombiningModels.sample(paired: true), value: { [$0.0, $0.1] }, error: code,
                    signal: { s, _ in s[0].sample(with: Self.never(s[1])) },
                    producer: { s, _ in s[0].sample(with: Self.never(s[1])) }
                ).erased,
                Op<[Int]>(
                    "withLatest(from:)", model: CombiningModels.withLatest, value: { [$0.0, $0.1] }, error: code,
                    signal: { s, _ in s[0].withLatest(from: Self.never(s[1])) },
                    producer: { s, _ in s[0].withLatest(from: Self.never(s[1])) }
                ).erased,
            ])
    }

    @Test("Error handling operators match their models on generated scripts")
    func errorHandling() {
        fuzzFamily(
            "error handling", shape: FuzzShape(),
            [
                Op.unary(
                    "mapError", model: ErrorModels.mapError { $0 + 10 },
                    signal: { $0.mapError { TestError($0.code + 10) } }, producer: { $0.mapError { TestError($0.code + 10) } }
                ).erased,
                Op.unary(
                    "flatMapError (recovers)", model: ErrorModels.flatMapError { [$0 * 100, $0 * 100 + 1] },
                    signal: { $0.flatMapError { SignalProducer(values: [$0.code * 100, $0.code * 100 + 1]) } },
                    producer: { $0.flatMapError { SignalProducer(values: [$0.code * 100, $0.code * 100 + 1]) } }
                ).erased,
                Op.unary(
                    "flatMapError (fails again)", model: ErrorModels.flatMapError({ [$0] }, refail: true),
                    signal: {
                        $0.flatMapError { error in SignalProducer(value: error.code).concat(error: TestError(error.code + 1)) }
                    },
                    producer: {
                        $0.flatMapError { error in SignalProducer(value: error.code).concat(error: TestError(error.code + 1)) }
                    }
                ).erased,
                Op.unary(
                    "promoteError", model: ErrorModels.flatMapError { _ in [] },
                    signal: { Self.never($0).promoteError(TestError.self) },
                    producer: { Self.never($0).promoteError(TestError.self) }
                ).erased,
                Op<Int>(
                    "on(event:) and logEvents", model: valueModel { [$0] }, value: { $0 }, error: code,
                    signal: { s, _ in s[0].on(event: { _ in }, disposed: {}).logEvents(logger: { _, _, _, _, _ in }) },
                    producer: { s, _ in s[0].on(event: { _ in }, disposed: {}).logEvents(logger: { _, _, _, _, _ in }) }
                ).erased,
            ])
    }
}
