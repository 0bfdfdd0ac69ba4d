extension Signal {
    /// One event on a stream: a value, or one of the three terminal events.
    ///
    /// A stream carries any number of values followed by at most one terminal event (contract E1).
    public enum Event {
        /// A value.
        case value(Value)
        /// The stream failed with `error`; nothing follows (E2).
        case failed(Error)
        /// The stream finished successfully; nothing follows (E3).
        case completed
        /// The stream was cancelled before it could finish; nothing follows (E4).
        case interrupted

        /// Whether this event ends the stream (`failed`, `completed` or `interrupted`).
        @inlinable
        public var isTerminating: Bool {
            switch self {
            case .value: false
            case .failed, .completed, .interrupted: true
            }
        }

        /// Whether this event is `completed`.
        @inlinable
        public var isCompleted: Bool {
            if case .completed = self { true } else { false }
        }

        /// Whether this event is `interrupted`.
        @inlinable
        var isInterruption: Bool {
            if case .interrupted = self { true } else { false }
        }

        /// The value of a `value` event, otherwise `nil`.
        @inlinable
        public var value: Value? {
            if case let .value(value) = self { value } else { nil }
        }

        /// The error of a `failed` event, otherwise `nil`.
        @inlinable
        public var error: Error? {
            if case let .failed(error) = self { error } else { nil }
        }

        /// The same event with its value transformed; terminal events pass through.
        ///
        /// - Parameter transform: Applied to a value event's value.
        /// - Returns: The event with its value transformed, or the same terminal event.
        @inlinable
        public func map<U>(_ transform: (Value) throws -> U) rethrows -> Signal<U, Error>.Event {
            switch self {
            case let .value(value): .value(try transform(value))
            case let .failed(error): .failed(error)
            case .completed: .completed
            case .interrupted: .interrupted
            }
        }

        /// The same event with its error transformed; other events pass through.
        ///
        /// - Parameter transform: Applied to a failure's error.
        /// - Returns: The event with its error transformed, or the same value or terminal event.
        @inlinable
        public func mapError<F: Swift.Error>(_ transform: (Error) throws -> F) rethrows -> Signal<Value, F>.Event {
            switch self {
            case let .value(value): .value(value)
            case let .failed(error): .failed(try transform(error))
            case .completed: .completed
            case .interrupted: .interrupted
            }
        }
    }
}

extension Signal.Event: Equatable where Value: Equatable, Error: Equatable {}

extension Signal.Event: Hashable where Value: Hashable, Error: Hashable {}

extension Signal.Event: Sendable where Value: Sendable, Error: Sendable {}

extension Signal.Event: CustomStringConvertible {
    /// The event in capitals with its payload: `VALUE 1`, `FAILED <error>`, `COMPLETED`,
    /// `INTERRUPTED`.
    public var description: String {
        switch self {
        case let .value(value): "VALUE \(value)"
        case let .failed(error): "FAILED \(error)"
        case .completed: "COMPLETED"
        case .interrupted: "INTERRUPTED"
        }
    }
}
