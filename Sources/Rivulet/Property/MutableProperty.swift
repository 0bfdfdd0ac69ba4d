/// A property whose value can be set, read and observed from any thread.
///
/// Setting `value` makes the new value visible at once and then emits it, synchronously, on the
/// setting thread (R1, R2). Writes are serialized: every observer sees the changes in the order
/// the value took them. A write made from inside an observer of the property takes effect at once
/// (`value` reads it back) and its emission is queued until the current one is over (E6); a write
/// from another thread waits until the current emission is over.
///
/// When the property is deinitialized, its signal and producers complete and its lifetime ends.
@propertyWrapper
public final class MutableProperty<Value>: ComposableMutablePropertyProtocol {

    @usableFromInline let storage: PropertyStorage<Value>
    private let token: Lifetime.Token

    /// Ends when the property is deinitialized.
    public let lifetime: Lifetime

    /// Every change from now on; completes when the property is deinitialized.
    public let signal: Signal<Value, Never>

    /// A property with `initialValue`.
    ///
    /// - Parameter initialValue: The value the property holds until the first write.
    public init(_ initialValue: Value) {
        storage = PropertyStorage(value: initialValue)
        signal = Signal(core: storage.core)
        token = Lifetime.Token()
        lifetime = Lifetime(token)
    }

    /// A property with `wrappedValue`, for use as a property wrapper.
    ///
    /// - Parameter wrappedValue: The value the property holds until the first write.
    public convenience init(wrappedValue: Value) {
        self.init(wrappedValue)
    }

    deinit {
        storage.end()
    }

    /// The current value. Setting it emits the change.
    @inlinable
    public var value: Value {
        get { storage.value }
        set { storage.set(newValue) }
    }

    /// The current value, when used as a property wrapper.
    @inlinable
    public var wrappedValue: Value {
        get { storage.value }
        set { storage.set(newValue) }
    }

    /// The property itself, as `$name` when used as a property wrapper.
    public var projectedValue: MutableProperty<Value> { self }

    /// Sends the current value, then every change; completes when the property is deinitialized.
    ///
    /// The producer keeps only the property's storage alive, not the property: after the property
    /// is gone, a start sends the last value and completes.
    @inlinable
    public var producer: SignalProducer<Value, Never> {
        storage.producer
    }

    /// Sets the value to `newValue` and returns the value it replaced, atomically.
    ///
    /// - Parameter newValue: The value to write; the change is emitted to observers.
    /// - Returns: The value `newValue` replaced.
    @inlinable
    @discardableResult
    public func swap(_ newValue: Value) -> Value {
        storage.modify { value in
            let old = value
            value = newValue
            return old
        }
    }

    /// Changes the value in place, atomically, and emits the change.
    ///
    /// Other threads' writes wait until `action` returns. Reading `value` inside `action` gives
    /// the value before the change. A write to this property made inside `action` takes effect and
    /// is emitted first; the value `action` leaves is then written over it and emitted after it.
    /// If `action` throws, the value does not change.
    ///
    /// - Parameter action: Changes the value in place; called once, on the calling thread.
    /// - Returns: What `action` returns.
    @inlinable
    public func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        try storage.modify(action)
    }

    /// Runs `action` with the current value, which no other thread can change until it returns.
    ///
    /// - Parameter action: Reads the value; called once, on the calling thread.
    /// - Returns: What `action` returns.
    @inlinable
    public func withValue<Result>(_ action: (Value) throws -> Result) rethrows -> Result {
        try storage.withValue(action)
    }
}

extension PropertyStorage {
    /// A producer of the current value, then every change, then `completed` at the end.
    @inlinable
    var producer: SignalProducer<Value, Never> {
        SignalProducer.fused { [self] downstream, lifetime in
            lifetime += observeWithCurrentValue(Signal.Observer(relaying: downstream, ()))
        }
    }
}

// @unchecked Sendable: all mutable state is in `storage`, behind its lock
// (`PropertyStorage.state`). Only where the values are `Sendable`: otherwise the compiler keeps the
// instance, its values and its closures in one isolation region.
extension MutableProperty: @unchecked Sendable where Value: Sendable {}
