extension Signal {
    /// Attaches `observer`, which receives every event from now on.
    ///
    /// - Parameter observer: Receives the signal's events, on the sending thread (E7), one at a
    ///   time (E5).
    /// - Returns: A disposable that detaches the observer, or `nil` if the signal had already
    ///   terminated, in which case `observer` has just received `interrupted` (S3).
    @inlinable
    @discardableResult
    public func observe(_ observer: Observer) -> Disposable? {
        core.observe(observer)
    }

    /// Runs `action` for every event from now on; see `observe(_:)`.
    ///
    /// - Parameter action: Called with each event, on the sending thread (E7), one at a time (E5).
    /// - Returns: A disposable that detaches the observer, or `nil` if the signal had already
    ///   terminated (then `action` has just received `interrupted`, S3).
    @inlinable
    @discardableResult
    public func observe(_ action: sending @escaping Observer.Action) -> Disposable? {
        core.observe(action: action)
    }

    /// Runs `action` with `.success` for each value and `.failure` for a failure.
    ///
    /// - Parameter action: Called with each value and with a failure, on the sending thread.
    /// - Returns: A disposable that detaches the observer, or `nil` if the signal had already
    ///   terminated.
    @inlinable
    @discardableResult
    public func observeResult(_ action: sending @escaping (Result<Value, Error>) -> Void) -> Disposable? {
        core.observe(action: Event.forwardingResults(to: action))
    }

    /// Runs `action` for each value.
    ///
    /// - Parameter action: Called with each value, on the sending thread (E7), one at a time (E5).
    /// - Returns: A disposable that detaches the observer, or `nil` if the signal had already
    ///   terminated.
    @inlinable
    @discardableResult
    public func observeValues(_ action: __owned sending @escaping (Value) -> Void) -> Disposable? {
        core.observe(values: consume action)
    }

    /// Runs `action` when the signal completes.
    ///
    /// - Parameter action: Called once, if the signal completes.
    /// - Returns: A disposable that detaches the observer, or `nil` if the signal had already
    ///   terminated.
    @inlinable
    @discardableResult
    public func observeCompleted(_ action: sending @escaping () -> Void) -> Disposable? {
        core.observe(action: { if case .completed = $0 { action() } })
    }

    /// Runs `action` when the signal fails.
    ///
    /// - Parameter action: Called once with the error, if the signal fails.
    /// - Returns: A disposable that detaches the observer, or `nil` if the signal had already
    ///   terminated.
    @inlinable
    @discardableResult
    public func observeFailed(_ action: sending @escaping (Error) -> Void) -> Disposable? {
        core.observe(action: { if case let .failed(error) = $0 { action(error) } })
    }

    /// Runs `action` when the signal is interrupted, including when observing a terminated signal.
    ///
    /// - Parameter action: Called once, if the signal is interrupted or has already terminated.
    /// - Returns: A disposable that detaches the observer, or `nil` if the signal had already
    ///   terminated (then `action` has just run).
    @inlinable
    @discardableResult
    public func observeInterrupted(_ action: sending @escaping () -> Void) -> Disposable? {
        core.observe(action: { if case .interrupted = $0 { action() } })
    }
}
