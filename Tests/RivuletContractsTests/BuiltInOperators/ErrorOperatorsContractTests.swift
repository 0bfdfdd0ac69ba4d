import Rivulet
import RivuletContracts
import Testing

/// The error `mapError` maps to.
private struct MappedError: Swift.Error, CustomStringConvertible {
    let code: Int
    var description: String { "MappedError(\(code))" }
}

/// See "retry(upTo:)" below.
let retryOptions = ContractOptions(deadline: 1, handlesFailure: true)

extension BuiltInOperators {
    /// Error-handling operators (api-surface 2.7; `attempt` and `attemptMap` are with the
    /// transforming operators, `retry(upTo:interval:on:)` with the time operators).
    static let error: [BuiltInOperator] = [
        BuiltInOperator(
            "mapError(_:)", .error,
            signal: .signal { $0.mapError { MappedError(code: $0.code) } },
            producer: .producer { $0.mapError { MappedError(code: $0.code) } }
        ),
        BuiltInOperator(
            "promoteError(_:)", .error,
            signal: .infallibleSignal(inputs: [1, 2, 3, 4]) { $0.promoteError(ContractError.self) },
            producer: .infallibleProducer(inputs: [1, 2, 3, 4]) { $0.promoteError(ContractError.self) }
        ),
        // Replacing a failure is the point of flatMapError and retry: the failure does not pass by
        // design (handlesFailure). Interruption and everything else must still pass.
        BuiltInOperator(
            "flatMapError(_:)", .error,
            options: ContractOptions(handlesFailure: true),
            signal: .signal { $0.flatMapError { SignalProducer<Int, MappedError>(values: [-$0.code, 0]) } },
            producer: .producer { $0.flatMapError { SignalProducer<Int, MappedError>(values: [-$0.code, 0]) } }
        ),
        BuiltInOperator(
            "flatMapError(_:) infallible replacement", .error,
            options: ContractOptions(handlesFailure: true),
            signal: .signal { $0.flatMapError { _ in SignalProducer<Int, Never>(value: 0) } },
            producer: .producer { $0.flatMapError { _ in SignalProducer<Int, Never>(value: 0) } }
        ),
        // The kit waits out its deadline for the failure that retry holds back by design (in "values
        // then failed" and "immediate failure"), although handlesFailure says it is not owed: a
        // one-second deadline, still ample for an operator that does not block, keeps that short.
        BuiltInOperator(
            "retry(upTo:)", .error,
            options: retryOptions,
            producer: .producer { $0.retry(upTo: 2) }
        ),
        // Restarts its source on completion: the kit's later sends go to the new start.
        BuiltInOperator(
            "repeat(_:)", .error,
            producer: .producer { $0.repeat(2) }
        ),
    ]
}

@Suite("Contract kit: error-handling operators")
struct ErrorOperatorsContractTests {
    @Test(arguments: BuiltInOperators.error.flatMap(\.cases))
    func keepsTheContracts(_ operatorCase: OperatorCase) {
        operatorCase.expectConforming()
    }
}
