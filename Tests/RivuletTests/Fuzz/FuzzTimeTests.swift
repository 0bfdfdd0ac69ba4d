import Testing
@testable import Rivulet
import RivuletContracts

/// Generated event scripts against the flattening strategies and the time-based operators (issue
/// 19, item 2), driven by `TestScheduler` advances, checked against FuzzModels+Time.swift.
@Suite("Fuzz: flattening and timing", .checksLiveObjects)
struct FuzzTimeTests {
    typealias Op = FuzzOperator<Int>

    static func flattening(_ name: String, _ strategy: FlattenStrategy, _ model: FlattenModelStrategy) -> FuzzCase {
        Op(
            "flatMap(\(name))", model: TimeModels.flatten(model),
            signal: { s, inputs in s[0].flatMap(strategy) { FuzzInner.producer($0, inputs) } },
            producer: { s, inputs in s[0].flatMap(strategy) { FuzzInner.producer($0, inputs) } }
        ).interruptedAtOperator.erased
    }

    @Test("Flattening strategies match their models on generated scripts")
    func flattening() {
        fuzzFamily(
            "flattening", shape: FuzzShape(timed: true, maxSteps: 20),
            [
                Self.flattening(".merge", .merge, .merge),
                Self.flattening(".concat", .concat, .concat),
                Self.flattening(".concurrent(limit: 2)", .concurrent(limit: 2), .concurrent(2)),
                Self.flattening(".latest", .latest, .latest),
                Self.flattening(".race", .race, .race),
                Self.flattening(".throttle", .throttle, .throttle),
                Op(
                    "map + flatten(.merge)", model: TimeModels.flatten(.merge),
                    signal: { s, inputs in s[0].map { FuzzInner.producer($0, inputs) }.flatten(.merge) },
                    producer: { s, inputs in s[0].map { FuzzInner.producer($0, inputs) }.flatten(.merge) }
                ).interruptedAtOperator.erased,
            ])
    }

    @Test("Time-based operators match their models on generated scripts")
    func timing() {
        fuzzFamily(
            "timing", shape: FuzzShape(timed: true, maxSteps: 20),
            [
                Op(
                    "delay", model: TimeModels.delay(2), timed: true,
                    signal: { s, inputs in s[0].delay(2, on: inputs.scheduler) },
                    producer: { s, inputs in s[0].delay(2, on: inputs.scheduler) }
                ).erased,
                Op(
                    "debounce", model: TimeModels.debounce(2), timed: true,
                    signal: { s, inputs in s[0].debounce(2, on: inputs.scheduler) },
                    producer: { s, inputs in s[0].debounce(2, on: inputs.scheduler) }
                ).erased,
                Op(
                    "throttle", model: TimeModels.throttle(2), timed: true,
                    signal: { s, inputs in s[0].throttle(2, on: inputs.scheduler) },
                    producer: { s, inputs in s[0].throttle(2, on: inputs.scheduler) }
                ).erased,
                Op(
                    "timeout", model: TimeModels.timeout(5, code: 7),
                    signal: { s, inputs in s[0].timeout(after: 5, raising: TestError(7), on: inputs.scheduler) },
                    producer: { s, inputs in s[0].timeout(after: 5, raising: TestError(7), on: inputs.scheduler) }
                ).erased,
                FuzzOperator<[Int]>(
                    "collect(every:)", model: TimeModels.collectEvery(3), timed: true,
                    signal: { s, inputs in s[0].collect(every: .seconds(3), on: inputs.scheduler) },
                    producer: { s, inputs in s[0].collect(every: .seconds(3), on: inputs.scheduler) }
                ).erased,
                Op(
                    "lazyMap", model: TimeModels.lazyMap, timed: true,
                    signal: { s, inputs in s[0].lazyMap(on: inputs.scheduler) { $0 * 2 } },
                    producer: { s, inputs in s[0].lazyMap(on: inputs.scheduler) { $0 * 2 } }
                ).erased,
                Op(
                    "observe(on:)", model: TimeModels.observeOn, timed: true,
                    signal: { s, inputs in s[0].observe(on: inputs.scheduler) },
                    producer: { s, inputs in s[0].observe(on: inputs.scheduler) }
                ).erased,
            ])
    }
}
