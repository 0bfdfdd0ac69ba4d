extension Signal.Event {
    /// The stage behind `compactMap`: forwards the non-`nil` results of `transform`, and every
    /// terminal event.
    @inlinable
    static func compactMapValues<U>(
        _ transform: @escaping (Value) -> U?
    ) -> EventTransform<Value, Error, U, Error> {
        { downstream, _ in
            { event in
                switch event {
                case let .value(value):
                    if let mapped = transform(value) { downstream(.value(mapped)) }
                case let .failed(error): downstream(.failed(error))
                case .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal {
    /// A signal of each value transformed by `transform`, leaving out the values it maps to `nil`.
    ///
    /// - Parameter transform: The transform; called once per value, on the thread that delivers it.
    ///   A `nil` result drops the value.
    /// - Returns: A signal of the non-`nil` results, ending when this signal ends.
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Signal<U, Error> {
        flatMapEventSharingTurn(Event.compactMapValues(transform))
    }

    /// The ReactiveSwift spelling of `compactMap(_:)`: same meaning, kept so that code written
    /// against the older name compiles unchanged.
    ///
    /// - Parameter transform: The transform; called once per value. A `nil` result drops the value.
    /// - Returns: A signal of the non-`nil` results, ending when this signal ends.
    @inlinable
    public func filterMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Signal<U, Error> {
        flatMapEventSharingTurn(Event.compactMapValues(transform))
    }

    /// A signal of the wrapped values of this signal of optionals, leaving out every `nil`.
    ///
    /// - Returns: A signal of the values that are not `nil`, unwrapped, ending when this signal
    ///   ends.
    @inlinable
    public func skipNil<U>() -> Signal<U, Error> where Value == U? {
        flatMapEventSharingTurn(Event.compactMapValues { $0 })
    }
}

extension SignalProducer {
    /// A producer of each value transformed by `transform`, leaving out the values it maps to `nil`.
    ///
    /// - Parameter transform: The transform; called once per value, on the thread that delivers it.
    ///   A `nil` result drops the value.
    /// - Returns: A producer whose starts send the non-`nil` results, and end when this producer's
    ///   start ends.
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> SignalProducer<U, Error> {
        flatMapEvent(Signal.Event.compactMapValues(transform))
    }

    /// The ReactiveSwift spelling of `compactMap(_:)`: same meaning, kept so that code written
    /// against the older name compiles unchanged.
    ///
    /// - Parameter transform: The transform; called once per value. A `nil` result drops the value.
    /// - Returns: A producer whose starts send the non-`nil` results, and end when this producer's
    ///   start ends.
    @inlinable
    public func filterMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> SignalProducer<U, Error> {
        flatMapEvent(Signal.Event.compactMapValues(transform))
    }

    /// A producer of the wrapped values of this producer of optionals, leaving out every `nil`.
    ///
    /// - Returns: A producer whose starts send the values that are not `nil`, unwrapped, and end
    ///   when this producer's start ends.
    @inlinable
    public func skipNil<U>() -> SignalProducer<U, Error> where Value == U? {
        flatMapEvent(Signal.Event.compactMapValues { $0 })
    }
}
