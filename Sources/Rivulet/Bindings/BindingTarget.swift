/// A stream that can be bound to a target with `<~`: a signal, a producer or a property that
/// cannot fail.
public protocol BindingSource<Value>: SignalProducerConvertible where Error == Never {}

extension Signal: BindingSource where Error == Never {}
extension SignalProducer: BindingSource where Error == Never {}

/// Something that values can be bound to with `<~`.
public protocol BindingTargetProvider<Value> {
    /// The type of the values the target accepts.
    associatedtype Value

    /// The target that bound values go to.
    var bindingTarget: BindingTarget<Value> { get }
}

/// Where bound values go: an action to run for each value, and the lifetime after which the
/// binding stops.
///
/// A binding started with `<~` ends when the target's lifetime ends or the source ends, whichever
/// comes first.
public struct BindingTarget<Value>: BindingTargetProvider {

    /// When it ends, every binding to this target stops.
    public let lifetime: Lifetime

    /// Runs for each bound value (on the target's scheduler, if it was given one).
    public let action: (Value) -> Void

    /// The target itself.
    public var bindingTarget: BindingTarget<Value> { self }

    /// A target that runs `action` for each value, on the thread that binds it, until `lifetime`
    /// ends.
    ///
    /// - Parameters:
    ///   - lifetime: When it ends, the target takes no more values and bindings to it end.
    ///   - action: Called with each bound value, on the binding's sending thread.
    public init(lifetime: Lifetime, action: @escaping @Sendable (Value) -> Void) {
        self.lifetime = lifetime
        self.action = action
    }

    /// A target that runs `action` for each value on `scheduler`, until `lifetime` ends.
    ///
    /// With a scheduler other than `ImmediateScheduler`, each value is handed to the scheduler and
    /// `action` runs there, in the order the values were bound; so the values must be `Sendable`.
    ///
    /// - Parameters:
    ///   - scheduler: Where `action` runs.
    ///   - lifetime: When it ends, the target takes no more values and bindings to it end.
    ///   - action: Called with each bound value, on `scheduler`, in order.
    public init(
        on scheduler: Scheduler,
        lifetime: Lifetime,
        action: @escaping @Sendable (Value) -> Void
    ) where Value: Sendable {
        self.lifetime = lifetime
        if scheduler is ImmediateScheduler {
            self.action = action
        } else {
            self.action = { value in scheduler.schedule { action(value) } }
        }
    }

    /// A target that writes each value to `object` at `keyPath` on `scheduler`, until `lifetime`
    /// ends. The object is not retained: once it is gone, values go nowhere.
    ///
    /// - Parameters:
    ///   - scheduler: Where the writes happen; at once on the binding's thread by default.
    ///   - lifetime: When it ends, the target takes no more values and bindings to it end.
    ///   - object: The object written to; not retained.
    ///   - keyPath: The property of `object` that each value is written to.
    public init<Object: AnyObject>(
        on scheduler: Scheduler = ImmediateScheduler(),
        lifetime: Lifetime,
        object: Object,
        keyPath: WritableKeyPath<Object, Value>
    ) where Object: Sendable, Value: Sendable {
        // A key path is an immutable description, safe on any thread; the object is written on
        // `scheduler`, which is the caller's promise to keep (as with ReactiveSwift), and `Object`
        // must be `Sendable` in the Swift 6 language mode.
        let keyPath = UncheckedTransfer(keyPath)
        self.init(on: scheduler, lifetime: lifetime) { [weak object] value in
            guard var object else { return }
            object[keyPath: keyPath.value] = value
        }
    }
}

/// Moves a value into a `@Sendable` closure that is its only user from then on.
///
/// @unchecked Sendable: whoever creates it gives the value up; only the receiving closure reads it,
/// once the scheduler runs it, and the scheduler's hand-off orders that read after the write.
@usableFromInline
struct UncheckedTransfer<Wrapped>: @unchecked Sendable {
    @usableFromInline let value: Wrapped

    @usableFromInline
    init(_ value: Wrapped) {
        self.value = value
    }
}

extension Optional: BindingTargetProvider where Wrapped: BindingTargetProvider {
    /// The type of values the wrapped target accepts.
    public typealias Value = Wrapped.Value

    /// The wrapped target, or, when there is none, a target whose lifetime has already ended, so
    /// that binding to `nil` binds nothing (a documented no-op).
    public var bindingTarget: BindingTarget<Wrapped.Value> {
        switch self {
        case let .some(provider): provider.bindingTarget
        case .none: BindingTarget(lifetime: .empty) { _ in }
        }
    }
}

// @unchecked Sendable: both stored closures are immutable; `action` is called by bindings, each of
// which is serialized by the signal core of its start (its lock), and it is `@Sendable`, for
// bindings from several sources. Only where
// the values are `Sendable`: otherwise the compiler keeps the instance, its values and its closures
// in one isolation region.
extension BindingTarget: @unchecked Sendable where Value: Sendable {}
