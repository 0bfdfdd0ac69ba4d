/// How a stream ended: the three terminal events, without the value case.
public enum Termination<Error: Swift.Error> {
    /// The stream failed with `error`.
    case failed(Error)
    /// The stream finished successfully.
    case completed
    /// The stream was cancelled before it could finish.
    case interrupted
}

extension Termination: Sendable where Error: Sendable {}

extension Termination: Equatable where Error: Equatable {}

/// The base class of observers, as in ReactiveSwift: something that receives values and then at
/// most one termination. `Signal.Observer` is the observer every signal and producer uses; this
/// class lets code refer to "an observer of `Value` and `Error`" in the ReactiveSwift 7 way.
///
/// A subclass overrides both methods. The base class's methods stop the program, since an
/// observer that ignores its events is always a mistake.
open class Observer<Value, Error: Swift.Error> {
    /// An observer; subclasses call it from their initialisers.
    @inlinable
    public init() {}

    /// Receives one value.
    ///
    /// - Parameter value: The value.
    open func receive(_ value: Value) {
        preconditionFailure("Rivulet: Observer.receive(_:): a subclass of Observer must override receive(_:)")
    }

    /// Receives the termination; nothing follows it.
    ///
    /// - Parameter termination: How the stream ended.
    open func terminate(_ termination: Termination<Error>) {
        preconditionFailure("Rivulet: Observer.terminate(_:): a subclass of Observer must override terminate(_:)")
    }
}
