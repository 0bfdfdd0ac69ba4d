/// What an action knows about itself: the latest value of its state property, whether the user's
/// condition allows it to run, and whether it is running. A plain value, kept in a
/// `MutableProperty` so that changes are atomic and their emissions ordered.
struct ActionState<StateValue> {
    var value: StateValue
    var isUserEnabled: Bool
    var isExecuting = false

    var isEnabled: Bool { isUserEnabled && !isExecuting }

    /// Begins an execution if the action is enabled; returns the state value to run with.
    mutating func beginExecution() -> StateValue? {
        guard isEnabled else { return nil }
        isExecuting = true
        return value
    }

    mutating func endExecution() {
        guard isExecuting else {
            preconditionFailure(
                "Rivulet: an action ended an execution it had not begun; every end follows a begin (internal error)")
        }
        isExecuting = false
    }
}
extension ActionState: Sendable where StateValue: Sendable {}
