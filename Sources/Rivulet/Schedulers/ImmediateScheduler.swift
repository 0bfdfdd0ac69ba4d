/// A scheduler that runs each action at once, on the calling thread, before `schedule` returns.
///
/// Useful where an API wants a scheduler but the work needs no hop, and in tests.
public final class ImmediateScheduler: Scheduler {
    /// Creates an immediate scheduler.
    public init() {}

    /// Runs `action` synchronously.
    ///
    /// - Parameter action: The work to run.
    /// - Returns: `nil`, since the action has already run and there is nothing left to cancel.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        action()
        return nil
    }
}
