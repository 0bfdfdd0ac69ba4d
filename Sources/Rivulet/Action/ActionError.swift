/// Why an applied action failed.
public enum ActionError<Error: Swift.Error>: Swift.Error {
    /// The action was disabled (its condition was false, or it was already executing).
    case disabled
    /// The work producer failed with `Error`.
    case producerFailed(Error)
}

extension ActionError: Equatable where Error: Equatable {}
extension ActionError: Sendable where Error: Sendable {}
