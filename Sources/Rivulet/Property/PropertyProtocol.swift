/// A value that can be read at any time and observed for its changes.
///
/// Only classes conform: a stream of changes needs one identity to come from.
///
/// A conforming type keeps the property contracts: the latest value is readable synchronously
/// (R1); a change is emitted synchronously, after the new value is visible (R2); reading `value`
/// from inside an observer is allowed (R3); and a property composed from others neither causes
/// side effects on them nor retains them (R4).
public protocol PropertyProtocol<Value>: AnyObject, BindingSource {
    /// The current value.
    var value: Value { get }

    /// Sends the current value, then every change, and completes when the property ends (it is
    /// deinitialized, or its sources will not change any more).
    var producer: SignalProducer<Value, Never> { get }

    /// Sends every change from now on (not the current value), and completes when the property ends.
    var signal: Signal<Value, Never> { get }
}

/// A property whose value can be set.
public protocol MutablePropertyProtocol<Value>: PropertyProtocol, BindingTargetProvider {
    /// The current value; setting it emits the change.
    var value: Value { get set }

    /// The property's lifetime: it ends when the property is deinitialized.
    var lifetime: Lifetime { get }
}

extension MutablePropertyProtocol {
    /// A binding target that sets the property, for as long as the property lives.
    public var bindingTarget: BindingTarget<Value> {
        // A target is `Sendable` only where `Value` is, and so is this property then.
        let setValue = UncheckedTransfer { [weak self] (value: Value) in self?.value = value }
        return BindingTarget(lifetime: lifetime) { value in setValue.value(value) }
    }
}

/// A mutable property that can read and change its value atomically.
public protocol ComposableMutablePropertyProtocol<Value>: MutablePropertyProtocol {
    /// Runs `action` with the current value, which no other thread can change meanwhile.
    ///
    /// - Parameter action: Reads the value; called once, on the calling thread.
    /// - Returns: What `action` returns.
    func withValue<Result>(_ action: (Value) throws -> Result) rethrows -> Result

    /// Changes the value in place, atomically, and emits the change.
    ///
    /// - Parameter action: Changes the value in place; called once, on the calling thread.
    /// - Returns: What `action` returns.
    func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result
}
