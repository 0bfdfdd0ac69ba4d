/// Something that can be disposed of: a subscription, a timer, a resource.
///
/// Disposing is idempotent and thread-safe: the first `dispose()` does the work, later calls do
/// nothing. Disposal may happen on any thread, which is why the cleanup closures Rivulet accepts
/// are `@Sendable`.
public protocol Disposable: AnyObject, Sendable {
    /// Whether this disposable has been disposed of.
    var isDisposed: Bool { get }

    /// Disposes of the resources. Calling it again has no effect.
    func dispose()
}

/// A disposable that runs an action once, when it is first disposed of.
public final class AnyDisposable: Disposable {
    /// `nil` once disposed; otherwise the action still to run (which may itself be a no-op).
    private let pendingAction: Locked<(@Sendable () -> Void)?>

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { pendingAction.withLock { $0 == nil } }

    /// A disposable that runs `action` on its first disposal.
    ///
    /// - Parameter action: Run once, on the first `dispose()`, on the disposing thread.
    public init(_ action: @escaping @Sendable () -> Void) {
        pendingAction = Locked(action)
    }

    /// A disposable that does nothing when disposed of, but tracks `isDisposed`.
    public convenience init() {
        self.init {}
    }

    /// A disposable that disposes of `disposable` when it is disposed of.
    ///
    /// - Parameter disposable: The disposable to dispose of.
    public convenience init(_ disposable: Disposable) {
        self.init { disposable.dispose() }
    }

    /// Runs the action, on the first call only; later calls do nothing.
    public func dispose() {
        // Take the action out under the lock, run it after the lock is released (O7).
        let action = pendingAction.withLock { pending in
            defer { pending = nil }
            return pending
        }
        action?()
    }
}
