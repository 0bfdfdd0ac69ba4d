import Testing
@testable import Rivulet
import RivuletContracts

/// P3 across the single-source operators: for each scripted input, the signal operator, the fused
/// producer operator and the signal operator applied through `lift` give the same events.
@Suite(.checksLiveObjects) struct LiftingEquivalenceTests {
    typealias Input = Signal<Int, TestError>
    typealias Script = [Input.Event]

    /// One operator, in its signal and producer forms, with its output rendered as text so that
    /// operators of every output type fit one table.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let run: @Sendable (Script) -> (signal: [String], fused: [String], lifted: [String])
        var testDescription: String { name }
    }

    static func operation<U, F>(
        _ name: String,
        _ onSignal: @escaping @Sendable (Signal<Int, TestError>) -> Signal<U, F>,
        _ onProducer: @escaping @Sendable (SignalProducer<Int, TestError>) -> SignalProducer<U, F>
    ) -> Case {
        Case(name: name) { script in
            let render: ([Signal<U, F>.Event]) -> [String] = { $0.map { String(describing: $0) } }
            return (
                render(events(of: script, through: onSignal)),
                render(events(of: script, throughProducer: onProducer)),
                render(events(of: script, throughProducer: { $0.lift(onSignal) }))
            )
        }
    }

    static let cases: [Case] = [
        operation("map", { $0.map { $0 * 2 } }, { $0.map { $0 * 2 } }),
        operation("filter", { $0.filter { $0 != 2 } }, { $0.filter { $0 != 2 } }),
        operation("compactMap", { $0.compactMap { $0 == 1 ? nil : $0 } }, { $0.compactMap { $0 == 1 ? nil : $0 } }),
        operation("scan", { $0.scan(0, +) }, { $0.scan(0, +) }),
        operation("scanMap", { $0.scanMap(0) { ($0 + $1, $0) } }, { $0.scanMap(0) { ($0 + $1, $0) } }),
        operation(
            "combinePrevious", { $0.combinePrevious(0).map { "\($0)-\($1)" } }, { $0.combinePrevious(0).map { "\($0)-\($1)" } }),
        operation("skipRepeats", { $0.skipRepeats() }, { $0.skipRepeats() }),
        operation("uniqueValues", { $0.uniqueValues() }, { $0.uniqueValues() }),
        operation("skip(first:)", { $0.skip(first: 1) }, { $0.skip(first: 1) }),
        operation("skip(while:)", { $0.skip(while: { $0 < 2 }) }, { $0.skip(while: { $0 < 2 }) }),
        operation("take(first:)", { $0.take(first: 2) }, { $0.take(first: 2) }),
        operation("take(last:)", { $0.take(last: 2) }, { $0.take(last: 2) }),
        operation("take(while:)", { $0.take(while: { $0 < 3 }) }, { $0.take(while: { $0 < 3 }) }),
        operation("take(until: predicate)", { $0.take(until: { $0 < 2 }) }, { $0.take(until: { $0 < 2 }) }),
        operation("collect()", { $0.collect() }, { $0.collect() }),
        operation("collect(count:)", { $0.collect(count: 2) }, { $0.collect(count: 2) }),
        operation("reduce", { $0.reduce(0, +) }, { $0.reduce(0, +) }),
        operation("materialize", { $0.materialize() }, { $0.materialize() }),
        operation("mapError", { $0.mapError { TestError($0.code + 100) } }, { $0.mapError { TestError($0.code + 100) } }),
        operation(
            "attemptMap", { $0.attemptMap { $0 == 3 ? .failure(TestError(3)) : .success($0) } },
            { $0.attemptMap { $0 == 3 ? .failure(TestError(3)) : .success($0) } }),
        operation(
            "flatten(sequence)", { $0.map { Array(repeating: $0, count: $0) }.flatten() },
            { $0.map { Array(repeating: $0, count: $0) }.flatten() }),
        operation(
            "flatMap(.latest)", { $0.flatMap(.latest) { SignalProducer<Int, TestError>(values: [$0, $0 * 10]) } },
            { $0.flatMap(.latest) { SignalProducer<Int, TestError>(values: [$0, $0 * 10]) } }),
        operation(
            "flatMap(.concat)", { $0.flatMap(.concat) { SignalProducer<Int, TestError>(values: [$0, -$0]) } },
            { $0.flatMap(.concat) { SignalProducer<Int, TestError>(values: [$0, -$0]) } }),
        operation(
            "flatMapError", { $0.flatMapError { SignalProducer<Int, TestError>(value: -$0.code) } },
            { $0.flatMapError { SignalProducer<Int, TestError>(value: -$0.code) } }),
    ]

    static let scripts: [Script] = [
        [.value(1), .value(2), .value(2), .value(3), .completed],
        [.value(3), .value(1), .failed(TestError(7))],
        [.value(2), .value(1), .interrupted],
        [.completed],
        [.failed(TestError(1))],
        [.value(1), .value(1)],
    ]

    @Test("P3: signal, fused producer and lifted producer agree", arguments: cases)
    func signalFusedAndLiftedAgree_P3(_ operation: Case) {
        for script in Self.scripts {
            let result = operation.run(script)
            #expect(result.fused == result.signal, "\(operation.name) fused, script \(script)")
            #expect(result.lifted == result.signal, "\(operation.name) lifted, script \(script)")
        }
    }
}
