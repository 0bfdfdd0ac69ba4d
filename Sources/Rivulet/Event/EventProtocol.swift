/// A type that stands for an event of a stream, so that generic code can constrain a stream's
/// values to be events (as `dematerialize()` does) without naming their value and error types.
public protocol EventProtocol<Value, Error> {
    /// The type of values of the event's stream.
    associatedtype Value
    /// The type of error of the event's stream; `Never` if it cannot fail.
    associatedtype Error: Swift.Error

    /// The event itself.
    var event: Signal<Value, Error>.Event { get }
}

extension Signal.Event: EventProtocol {
    /// The event itself.
    @inlinable
    public var event: Signal<Value, Error>.Event { self }
}
