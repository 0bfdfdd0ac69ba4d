extension Signal.Event {
    /// The stage behind `mapError` and `promoteError`: transforms the error of a failure;
    /// values and the other terminal events pass through.
    @inlinable
    static func mapErrors<F>(
        _ transform: @escaping (Error) -> F
    ) -> EventTransform<Value, Error, Value, F> {
        { downstream, _ in
            { event in
                switch event {
                case let .value(value): downstream(.value(value))
                case let .failed(error): downstream(.failed(transform(error)))
                case .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal.Event where Error == Never {
    /// The stage behind `promoteError`: a stream that cannot fail is passed on unchanged under a
    /// new error type.
    @inlinable
    static func promoteErrors<F>() -> EventTransform<Value, Never, Value, F> {
        { downstream, _ in
            { event in
                switch event {
                case let .value(value): downstream(.value(value))
                case let .failed(never): switch never {}
                case .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal.Event where Value == Never {
    /// The stage behind `promoteValue`: a stream that carries no value is passed on unchanged
    /// under a new value type.
    @inlinable
    static func promoteValues<U>() -> EventTransform<Never, Error, U, Error> {
        { downstream, _ in
            { event in
                switch event {
                case let .value(never): switch never {}
                case let .failed(error): downstream(.failed(error))
                case .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal {
    /// A signal that fails with `transform(error)` where this one fails with `error`.
    ///
    /// - Parameter transform: Turns this signal's error into the result's; called at most once,
    ///   when this signal fails, on the thread that delivers the failure.
    /// - Returns: A signal with this signal's values, completion and interruption, that fails with
    ///   the error `transform` makes.
    @inlinable
    public func mapError<F>(_ transform: @escaping @Sendable (Error) -> F) -> Signal<Value, F> {
        flatMapEventSharingTurn(Event.mapErrors(transform))
    }
}

extension Signal {
    /// This signal itself: the error type is already `Error`. Lets generic code ask for an error
    /// type whether or not the signal can already fail with it (as in ReactiveSwift).
    ///
    /// - Parameter _: The error type, which is already `Error`; usually left out.
    /// - Returns: This signal, unchanged.
    @inlinable
    public func promoteError(_: Error.Type = Error.self) -> Signal<Value, Error> {
        self
    }

    /// This signal itself: the value type is already `Value` (as in ReactiveSwift).
    ///
    /// - Parameter _: The value type, which is already `Value`; usually left out.
    /// - Returns: This signal, unchanged.
    @inlinable
    public func promoteValue(_: Value.Type = Value.self) -> Signal<Value, Error> {
        self
    }
}

extension Signal where Error == Never {
    /// This signal, which cannot fail, with the error type `F`, so that it composes with
    /// streams that can. The type is usually inferred: `signal.promoteError()`.
    ///
    /// - Parameter _: The error type `F` of the result; usually inferred.
    /// - Returns: A signal with this signal's events, typed to fail with `F` (which it never does).
    @inlinable
    public func promoteError<F>(_: F.Type = F.self) -> Signal<Value, F> {
        flatMapEventSharingTurn(Event.promoteErrors())
    }
}

extension Signal where Value == Never {
    /// This signal, which sends no value, with the value type `U`, so that it composes with
    /// streams that do. The type is usually inferred: `signal.promoteValue()`.
    ///
    /// - Parameter _: The value type `U` of the result; usually inferred.
    /// - Returns: A signal with this signal's terminal event, typed to send values of type `U`
    ///   (which it never does).
    @inlinable
    public func promoteValue<U>(_: U.Type = U.self) -> Signal<U, Error> {
        flatMapEventSharingTurn(Event.promoteValues())
    }
}

extension SignalProducer {
    /// A producer that fails with `transform(error)` where this one fails with `error`.
    ///
    /// - Parameter transform: Turns this producer's error into the result's; called at most once,
    ///   when this producer fails, on the thread that delivers the failure.
    /// - Returns: A producer with this producer's values, completion and interruption, that fails
    ///   with the error `transform` makes.
    @inlinable
    public func mapError<F>(_ transform: @escaping @Sendable (Error) -> F) -> SignalProducer<Value, F> {
        flatMapEvent(Signal.Event.mapErrors(transform))
    }
}

extension SignalProducer {
    /// This producer itself: the error type is already `Error`. Lets generic code ask for an
    /// error type whether or not the producer can already fail with it (as in ReactiveSwift).
    ///
    /// - Parameter _: The error type, which is already `Error`; usually left out.
    /// - Returns: This producer, unchanged.
    @inlinable
    public func promoteError(_: Error.Type = Error.self) -> SignalProducer<Value, Error> {
        self
    }

    /// This producer itself: the value type is already `Value` (as in ReactiveSwift).
    ///
    /// - Parameter _: The value type, which is already `Value`; usually left out.
    /// - Returns: This producer, unchanged.
    @inlinable
    public func promoteValue(_: Value.Type = Value.self) -> SignalProducer<Value, Error> {
        self
    }
}

extension SignalProducer where Error == Never {
    /// This producer, which cannot fail, with the error type `F`, so that it composes with
    /// producers that can. The type is usually inferred: `producer.promoteError()`.
    ///
    /// - Parameter _: The error type `F` of the result; usually inferred.
    /// - Returns: A producer with this producer's events, typed to fail with `F` (which it never
    ///   does).
    @inlinable
    public func promoteError<F>(_: F.Type = F.self) -> SignalProducer<Value, F> {
        flatMapEvent(Signal.Event.promoteErrors())
    }
}

extension SignalProducer where Value == Never {
    /// This producer, which sends no value, with the value type `U`, so that it composes with
    /// producers that do. The type is usually inferred: `producer.promoteValue()`.
    ///
    /// - Parameter _: The value type `U` of the result; usually inferred.
    /// - Returns: A producer with this producer's terminal event, typed to send values of type `U`
    ///   (which it never does).
    @inlinable
    public func promoteValue<U>(_: U.Type = U.self) -> SignalProducer<U, Error> {
        flatMapEvent(Signal.Event.promoteValues())
    }
}
