extension Signal.Event {
    /// The stage behind every `attempt` and `attemptMap`: sends the success of `transform` for
    /// each value, or fails with its failure at once and ignores everything after that.
    @inlinable
    static func attemptMapValues<U>(
        _ transform: @escaping (Value) -> Result<U, Error>
    ) -> EventTransform<Value, Error, U, Error> {
        { downstream, _ in
            var failed = false
            return { event in
                if failed { return }
                switch event {
                case let .value(value):
                    switch transform(value) {
                    case let .success(mapped): downstream(.value(mapped))
                    case let .failure(error):
                        failed = true
                        downstream(.failed(error))
                    }
                case let .failed(error): downstream(.failed(error))
                case .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal.Event where Error == Never {
    /// The throwing `attempt` stages of a stream that could not fail: one stage that promotes
    /// the error type to `Swift.Error` and attempts `transform`.
    @inlinable
    static func promotingAttemptMap<U>(
        _ transform: @escaping (Value) -> Result<U, Swift.Error>
    ) -> EventTransform<Value, Never, U, Swift.Error> {
        { downstream, lifetime in
            let attempt = Signal<Value, Swift.Error>.Event.attemptMapValues(transform)(downstream, lifetime)
            return promoteErrors()(attempt, lifetime)
        }
    }
}

extension Signal {
    /// A signal that runs `action` on each value and forwards the value if it succeeds, or fails
    /// with its error at once.
    ///
    /// - Parameter action: The check; called once per value until it returns a `failure`, whose
    ///   error fails the result.
    /// - Returns: A signal of this signal's values that fails at the first failure of `action`, and
    ///   otherwise ends when this signal ends.
    @inlinable
    public func attempt(_ action: @escaping @Sendable (Value) -> Result<(), Error>) -> Signal<Value, Error> {
        flatMapEventSharingTurn(Event.attemptMapValues { value in action(value).map { value } })
    }

    /// A signal of each value transformed by `transform`, which may fail: the first failure ends
    /// the signal at once with that error.
    ///
    /// - Parameter transform: The transform; called once per value until it returns a `failure`,
    ///   whose error fails the result.
    /// - Returns: A signal of the successful results that fails at the first failure of
    ///   `transform`, and otherwise ends when this signal ends.
    @inlinable
    public func attemptMap<U>(_ transform: @escaping @Sendable (Value) -> Result<U, Error>) -> Signal<U, Error> {
        flatMapEventSharingTurn(Event.attemptMapValues(transform))
    }
}

extension Signal where Error == Swift.Error {
    /// A signal that runs the throwing `action` on each value and forwards the value if it does
    /// not throw; the first error thrown ends the signal at once.
    ///
    /// - Parameter action: The check; called once per value until it throws, and the error it
    ///   throws fails the result.
    /// - Returns: A signal of this signal's values that fails with the first error `action` throws,
    ///   and otherwise ends when this signal ends.
    @inlinable
    public func attempt(_ action: @escaping @Sendable (Value) throws -> Void) -> Signal<Value, Swift.Error> {
        flatMapEventSharingTurn(
            Event.attemptMapValues { value in
                Result {
                    try action(value); return value
                }
            })
    }

    /// A signal of each value transformed by the throwing `transform`; the first error thrown ends
    /// the signal at once.
    ///
    /// - Parameter transform: The transform; called once per value until it throws, and the error
    ///   it throws fails the result.
    /// - Returns: A signal of the transformed values that fails with the first error `transform`
    ///   throws, and otherwise ends when this signal ends.
    @inlinable
    public func attemptMap<U>(_ transform: @escaping @Sendable (Value) throws -> U) -> Signal<U, Swift.Error> {
        flatMapEventSharingTurn(Event.attemptMapValues { value in Result { try transform(value) } })
    }
}

extension Signal where Error == Never {
    /// A signal that runs the throwing `action` on each value and forwards the value if it does
    /// not throw; the first error thrown ends the signal at once. The signal could not fail
    /// before, so its error type becomes `Swift.Error`.
    ///
    /// - Parameter action: The check; called once per value until it throws, and the error it
    ///   throws fails the result.
    /// - Returns: A signal of this signal's values that fails with the first error `action` throws,
    ///   and otherwise ends when this signal ends.
    @inlinable
    public func attempt(_ action: @escaping @Sendable (Value) throws -> Void) -> Signal<Value, Swift.Error> {
        flatMapEventSharingTurn(
            Event.promotingAttemptMap { value in
                Result {
                    try action(value); return value
                }
            })
    }

    /// A signal of each value transformed by the throwing `transform`; the first error thrown ends
    /// the signal at once. The signal could not fail before, so its error type becomes
    /// `Swift.Error`.
    ///
    /// - Parameter transform: The transform; called once per value until it throws, and the error
    ///   it throws fails the result.
    /// - Returns: A signal of the transformed values that fails with the first error `transform`
    ///   throws, and otherwise ends when this signal ends.
    @inlinable
    public func attemptMap<U>(_ transform: @escaping @Sendable (Value) throws -> U) -> Signal<U, Swift.Error> {
        flatMapEventSharingTurn(Event.promotingAttemptMap { value in Result { try transform(value) } })
    }
}

extension SignalProducer {
    /// A producer that runs `action` on each value and forwards the value if it succeeds, or
    /// fails with its error at once.
    ///
    /// - Parameter action: The check; called once per value of a start until it returns a
    ///   `failure`, whose error fails the start.
    /// - Returns: A producer whose starts send the values and fail at the first failure of
    ///   `action`, or otherwise end when this producer's start ends.
    @inlinable
    public func attempt(_ action: @escaping @Sendable (Value) -> Result<(), Error>) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.attemptMapValues { value in action(value).map { value } })
    }

    /// A producer of each value transformed by `transform`, which may fail: the first failure
    /// ends the start at once with that error.
    ///
    /// - Parameter transform: The transform; called once per value of a start until it returns a
    ///   `failure`, whose error fails the start.
    /// - Returns: A producer whose starts send the successful results and fail at the first failure
    ///   of `transform`, or otherwise end when this producer's start ends.
    @inlinable
    public func attemptMap<U>(_ transform: @escaping @Sendable (Value) -> Result<U, Error>) -> SignalProducer<U, Error> {
        flatMapEvent(Signal.Event.attemptMapValues(transform))
    }
}

extension SignalProducer where Error == Swift.Error {
    /// A producer that runs the throwing `action` on each value and forwards the value if it
    /// does not throw; the first error thrown ends the start at once.
    ///
    /// - Parameter action: The check; called once per value of a start until it throws, and the
    ///   error it throws fails the start.
    /// - Returns: A producer whose starts send the values and fail with the first error `action`
    ///   throws, or otherwise end when this producer's start ends.
    @inlinable
    public func attempt(_ action: @escaping @Sendable (Value) throws -> Void) -> SignalProducer<Value, Swift.Error> {
        flatMapEvent(
            Signal.Event.attemptMapValues { value in
                Result {
                    try action(value); return value
                }
            })
    }

    /// A producer of each value transformed by the throwing `transform`; the first error thrown
    /// ends the start at once.
    ///
    /// - Parameter transform: The transform; called once per value of a start until it throws, and
    ///   the error it throws fails the start.
    /// - Returns: A producer whose starts send the transformed values and fail with the first error
    ///   `transform` throws, or otherwise end when this producer's start ends.
    @inlinable
    public func attemptMap<U>(_ transform: @escaping @Sendable (Value) throws -> U) -> SignalProducer<U, Swift.Error> {
        flatMapEvent(Signal.Event.attemptMapValues { value in Result { try transform(value) } })
    }
}

extension SignalProducer where Error == Never {
    /// A producer that runs the throwing `action` on each value and forwards the value if it
    /// does not throw; the first error thrown ends the start at once. The error type becomes
    /// `Swift.Error`.
    ///
    /// - Parameter action: The check; called once per value of a start until it throws, and the
    ///   error it throws fails the start.
    /// - Returns: A producer whose starts send the values and fail with the first error `action`
    ///   throws, or otherwise end when this producer's start ends.
    @inlinable
    public func attempt(_ action: @escaping @Sendable (Value) throws -> Void) -> SignalProducer<Value, Swift.Error> {
        flatMapEvent(
            Signal.Event.promotingAttemptMap { value in
                Result {
                    try action(value); return value
                }
            })
    }

    /// A producer of each value transformed by the throwing `transform`; the first error thrown
    /// ends the start at once. The error type becomes `Swift.Error`.
    ///
    /// - Parameter transform: The transform; called once per value of a start until it throws, and
    ///   the error it throws fails the start.
    /// - Returns: A producer whose starts send the transformed values and fail with the first error
    ///   `transform` throws, or otherwise end when this producer's start ends.
    @inlinable
    public func attemptMap<U>(_ transform: @escaping @Sendable (Value) throws -> U) -> SignalProducer<U, Swift.Error> {
        flatMapEvent(Signal.Event.promotingAttemptMap { value in Result { try transform(value) } })
    }
}
