import Dispatch
import Rivulet
import RivuletContracts
import Testing

private let numbers = [1, 2, 3, 4]

extension BuiltInOperators {
    /// Operators that take a scheduler (api-surface 2.1 `observe(on:)`, `start(on:)`, 2.2
    /// `lazyMap`, 2.6): each gets the kit's `TestScheduler`. The kit runs what is due after each of
    /// its calls and moves the clock on by an hour at the end; a failure or an interruption must
    /// still arrive at once (E2, E4).
    static let time: [BuiltInOperator] = [
        BuiltInOperator(
            "observe(on:)", .time,
            signal: .timedSignal(inputs: numbers) { $0.observe(on: $1) },
            producer: .timedProducer(inputs: numbers) { $0.observe(on: $1) }
        ),
        BuiltInOperator(
            "start(on:)", .time,
            producer: .timedProducer(inputs: numbers) { $0.start(on: $1) }
        ),
        BuiltInOperator(
            "lazyMap(on:transform:)", .time,
            signal: .timedSignal(inputs: numbers) { $0.lazyMap(on: $1) { $0 * 2 } },
            producer: .timedProducer(inputs: numbers) { $0.lazyMap(on: $1) { $0 * 2 } }
        ),
        BuiltInOperator(
            "delay(_:on:)", .time,
            signal: .timedSignal(inputs: numbers) { $0.delay(1, on: $1) },
            producer: .timedProducer(inputs: numbers) { $0.delay(1, on: $1) }
        ),
        BuiltInOperator(
            "throttle(_:on:)", .time,
            signal: .timedSignal(inputs: numbers) { $0.throttle(1, on: $1) },
            producer: .timedProducer(inputs: numbers) { $0.throttle(1, on: $1) }
        ),
        // The condition is fixed: false, so nothing is held back.
        BuiltInOperator(
            "throttle(while:on:)", .time,
            signal: .timedSignal(inputs: numbers) { $0.throttle(while: SignalProducer<Bool, Never>(value: false), on: $1) },
            producer: .timedProducer(inputs: numbers) {
                $0.throttle(while: SignalProducer<Bool, Never>(value: false), on: $1)
            }
        ),
        BuiltInOperator(
            "debounce(_:on:)", .time,
            signal: .timedSignal(inputs: numbers) { $0.debounce(1, on: $1) },
            producer: .timedProducer(inputs: numbers) { $0.debounce(1, on: $1) }
        ),
        BuiltInOperator(
            "debounce(_:on:discardWhenCompleted: false)", .time,
            signal: .timedSignal(inputs: numbers) { $0.debounce(1, on: $1, discardWhenCompleted: false) },
            producer: .timedProducer(inputs: numbers) { $0.debounce(1, on: $1, discardWhenCompleted: false) }
        ),
        // Fails on its own when the kit moves the clock on at the end of a scenario that left its
        // input open.
        BuiltInOperator(
            "timeout(after:raising:on:)", .time,
            signal: .timedSignal(inputs: numbers) { $0.timeout(after: 10, raising: ContractError(code: 7), on: $1) },
            producer: .timedProducer(inputs: numbers) { $0.timeout(after: 10, raising: ContractError(code: 7), on: $1) }
        ),
        BuiltInOperator(
            "collect(every:on:skipEmpty: true)", .time,
            signal: .timedSignal(inputs: numbers) { $0.collect(every: .seconds(1), on: $1, skipEmpty: true) },
            producer: .timedProducer(inputs: numbers) { $0.collect(every: .seconds(1), on: $1, skipEmpty: true) }
        ),
        // A long interval keeps the empty ticks of the kit's hour-long settling few.
        BuiltInOperator(
            "collect(every:on:)", .time,
            signal: .timedSignal(inputs: numbers) { $0.collect(every: .seconds(1_000), on: $1) },
            producer: .timedProducer(inputs: numbers) { $0.collect(every: .seconds(1_000), on: $1) }
        ),
        BuiltInOperator(
            "collect(every:on:discardWhenCompleted: false)", .time,
            signal: .timedSignal(inputs: numbers) {
                $0.collect(every: .seconds(1), on: $1, skipEmpty: true, discardWhenCompleted: false)
            },
            producer: .timedProducer(inputs: numbers) {
                $0.collect(every: .seconds(1), on: $1, skipEmpty: true, discardWhenCompleted: false)
            }
        ),
        // Retrying a failure is the point: the failure is held back by design. A short deadline, as
        // for retry(upTo:) (see there).
        BuiltInOperator(
            "retry(upTo:interval:on:)", .time,
            options: retryOptions,
            producer: .timedProducer(inputs: numbers) { $0.retry(upTo: 2, interval: 1, on: $1) }
        ),
    ]
}

@Suite("Contract kit: time and scheduler operators")
struct TimeOperatorsContractTests {
    @Test(arguments: BuiltInOperators.time.flatMap(\.cases))
    func keepsTheContracts(_ operatorCase: OperatorCase) {
        operatorCase.expectConforming()
    }
}
