extension Signal.Event {
    /// The stage behind `map`: transforms each value, forwards terminal events as they are.
    @inlinable
    static func mapValues<U>(
        _ transform: @escaping (Value) -> U
    ) -> EventTransform<Value, Error, U, Error> {
        { downstream, _ in forwardingValues(transform, to: downstream) }
    }

    /// A sink that sends each value transformed by `transform` to `downstream`, and terminal
    /// events as they are. Each event is rebuilt case by case (see `Signal.Observer.sink`).
    @inlinable
    static func forwardingValues<U>(
        _ transform: @escaping (Value) -> U,
        to downstream: @escaping EventSink<U, Error>
    ) -> EventSink<Value, Error> {
        { event in
            switch event {
            case let .value(value): downstream(.value(transform(value)))
            case let .failed(error): downstream(.failed(error))
            case .completed: downstream(.completed)
            case .interrupted: downstream(.interrupted)
            }
        }
    }
}

extension Signal {
    /// A signal of each value transformed by `transform`.
    ///
    /// - Parameter transform: The transform; called once per value, on the thread that delivers it.
    /// - Returns: A signal of the transformed values, ending when this signal ends.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U, Error> {
        // Written out rather than through `Event.mapValues` (the producer's stage): sending into
        // the shared turn's core directly saves a call per event, a quarter of a chain's cost.
        flatMapEventSharingTurn(into: { derived, _ in
            { event in
                switch event {
                case let .value(value): derived.deliverInSharedTurn(.value(transform(value)))
                case let .failed(error): derived.terminateInSharedTurn(.failed(error))
                case .completed: derived.terminateInSharedTurn(.completed)
                case .interrupted: derived.terminateInSharedTurn(.interrupted)
                }
            }
        })
    }

    /// A signal that sends `value` in place of each value of this signal.
    ///
    /// - Parameter value: The value sent in place of each value.
    /// - Returns: A signal that sends `value` once per value of this signal, ending when this
    ///   signal ends.
    @inlinable
    @_disfavoredOverload
    public func map<U>(value: U) -> Signal<U, Error> {
        // Disfavoured: a trailing closure can fill `value:`, and `map { "\($0)" }` must not
        // pick this overload and make a stream of closures.
        flatMapEventSharingTurn(Event.mapValues { _ in value })
    }

    /// A signal of the property at `keyPath` of each value.
    ///
    /// - Parameter keyPath: The key path read from each value.
    /// - Returns: A signal of the values at `keyPath`, ending when this signal ends.
    @inlinable
    public func map<U>(_ keyPath: KeyPath<Value, U>) -> Signal<U, Error> {
        flatMapEventSharingTurn(Event.mapValues { $0[keyPath: keyPath] })
    }
}

extension SignalProducer {
    /// A producer of each value transformed by `transform`.
    ///
    /// - Parameter transform: The transform; called once per value, on the thread that delivers it.
    /// - Returns: A producer whose starts send the transformed values, and end when this producer's
    ///   start ends.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> SignalProducer<U, Error> {
        flatMapEvent(Signal.Event.mapValues(transform))
    }

    /// A producer that sends `value` in place of each value of this producer.
    ///
    /// - Parameter value: The value sent in place of each value.
    /// - Returns: A producer whose starts send `value` once per value, and end when this producer's
    ///   start ends.
    @inlinable
    @_disfavoredOverload
    public func map<U>(value: U) -> SignalProducer<U, Error> {
        // Disfavoured: a trailing closure can fill `value:`, and `map { "\($0)" }` must not
        // pick this overload and make a stream of closures.
        flatMapEvent(Signal.Event.mapValues { _ in value })
    }

    /// A producer of the property at `keyPath` of each value.
    ///
    /// - Parameter keyPath: The key path read from each value.
    /// - Returns: A producer whose starts send the values at `keyPath`, and end when this
    ///   producer's start ends.
    @inlinable
    public func map<U>(_ keyPath: KeyPath<Value, U>) -> SignalProducer<U, Error> {
        flatMapEvent(Signal.Event.mapValues { $0[keyPath: keyPath] })
    }
}
