/// A type that constrains generic code to signals: write `extension SignalProtocol where Value
/// == Int { … }` to add API to every signal of `Int`, and reach the signal through `signal`.
public protocol SignalProtocol<Value, Error>: AnyObject {
    /// The type of values the signal sends.
    associatedtype Value
    /// The type of error the signal can fail with; `Never` if it cannot fail.
    associatedtype Error: Swift.Error

    /// The signal itself.
    var signal: Signal<Value, Error> { get }
}

extension Signal: SignalProtocol {
    /// The signal itself.
    @inlinable
    public var signal: Signal<Value, Error> { self }
}
