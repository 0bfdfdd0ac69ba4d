import Rivulet
import RivuletContracts
import Testing

/// A logger that drops the records: the kit checks the events, not the log.
private func silentLogger(_: String, _: String, _: String, _: String, _: Int) {}

extension BuiltInOperators {
    /// Side effects, debugging, sharing and lifting (api-surface 2.9, 2.10). The side-effect
    /// callbacks do nothing: what is checked is that `on` and `logEvents` forward every event
    /// unchanged and keep the lifecycle contracts.
    static let lifecycle: [BuiltInOperator] = [
        BuiltInOperator(
            "on(event:failed:completed:interrupted:terminated:disposed:value:)", .lifecycle,
            signal: .signal {
                $0.on(
                    event: { _ in }, failed: { _ in }, completed: {}, interrupted: {}, terminated: {},
                    disposed: {}, value: { _ in }
                )
            },
            producer: .producer {
                $0.on(
                    starting: {}, started: {}, event: { _ in }, failed: { _ in }, completed: {},
                    interrupted: {}, terminated: {}, disposed: {}, value: { _ in }
                )
            }
        ),
        BuiltInOperator(
            "logEvents(identifier:events:logger:)", .lifecycle,
            signal: .signal { $0.logEvents(identifier: "kit", logger: silentLogger) },
            producer: .producer { $0.logEvents(identifier: "kit", logger: silentLogger) }
        ),
        BuiltInOperator(
            "replayLazily(upTo:)", .lifecycle,
            // Shares one start of its source among its starts, by design.
            options: ContractOptions(sharesStarts: true),
            producer: .producer { $0.replayLazily(upTo: 2) }
        ),
        BuiltInOperator(
            "lift(_:) unary", .lifecycle,
            producer: .producer { $0.lift { $0.map { $0 * 2 } } }
        ),
        // The other operand is fixed: a producer that sends "a" and completes on each start.
        BuiltInOperator(
            "lift(_:) binary", .lifecycle,
            producer: .producer { producer in
                producer.lift { (signal: Signal<Int, ContractError>) in
                    { (other: Signal<String, ContractError>) in signal.combineLatest(with: other) }
                }(SignalProducer(value: "a"))
            }
        ),
    ]
}

@Suite("Contract kit: side-effect, sharing and lifting operators")
struct LifecycleOperatorsContractTests {
    @Test(arguments: BuiltInOperators.lifecycle.flatMap(\.cases))
    func keepsTheContracts(_ operatorCase: OperatorCase) {
        operatorCase.expectConforming()
    }
}
