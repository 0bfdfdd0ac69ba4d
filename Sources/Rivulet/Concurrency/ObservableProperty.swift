// An `Observable` view of a Rivulet property, for SwiftUI and for `withObservationTracking`.
//
// The conformance is written by hand (an `ObservationRegistrar` and one tracked key path) rather
// than with the `@Observable` macro: the value lives behind a lock so that the class is `Sendable`
// and can be read from any thread, which the macro's plain stored property would not allow.
//
// Each change of the property is published with the registrar's `withMutation`, whose `willSet`
// runs the observers' `onChange` handlers; the lock is held only around the write, never while
// they run (O7).

import Observation

/// An `Observable` view of a Rivulet property: reading `value` registers an access with
/// Observation, and every change of the property is published through Observation, so that
/// SwiftUI views and `withObservationTracking` follow it.
///
/// Where a change becomes visible depends on the initialiser:
///
/// - `init(_:)` applies each change synchronously on the thread that changed the property, inside
///   the property's own emission (R2): when a write to the property returns, `value` already
///   shows it, and `onChange` handlers have run on the writing thread. Use it when the property
///   changes on the thread that reads the view (for SwiftUI: the main thread).
/// - `init(_:on:)` applies each change on `scheduler`, in order. With `UIScheduler()`, changes
///   become visible, and are announced, on the main queue, as SwiftUI expects, whatever thread
///   changed the property; reading `value` meanwhile gives the last change applied.
///
/// `value` can be read from any thread. The view keeps following the property for as long as it
/// lives (it keeps a composed property's sources running), and stops when it is deinitialized;
/// when the property ends, the view keeps its last value.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class ObservableProperty<Value: Sendable>: Observable, Sendable {
    private let registrar = ObservationRegistrar()
    private let current: Locked<Value>
    /// The start that feeds the view; disposed of in `deinit`.
    private let subscription = SerialDisposable()

    /// The property's value, as last applied. Reading it inside `withObservationTracking` (or a
    /// SwiftUI view's body) tracks it.
    public var value: Value {
        registrar.access(self, keyPath: \.value)
        return current.withLock { $0 }
    }

    /// A view of `property` that applies each change synchronously, on the thread that changed it.
    ///
    /// - Parameter property: The property to follow.
    public init<P: PropertyProtocol>(_ property: P) where P.Value == Value {
        current = Locked(property.value)
        // The producer sends the current value at once (it may be newer than the one read above),
        // then every change.
        follow(property.producer)
    }

    /// A view of `property` that applies each change on `scheduler`, in order.
    ///
    /// The view starts with the property's value at the time of the call; the changes from then on
    /// arrive through `scheduler` (the first of them repeats the current value). With
    /// `UIScheduler()`, observers of the view are told of changes on the main queue.
    ///
    /// - Parameters:
    ///   - property: The property to follow.
    ///   - scheduler: Where changes are applied and announced.
    public init<P: PropertyProtocol>(_ property: P, on scheduler: Scheduler) where P.Value == Value {
        current = Locked(property.value)
        follow(property.producer.observe(on: scheduler))
    }

    deinit {
        subscription.dispose()
    }

    private func follow(_ values: SignalProducer<Value, Never>) {
        subscription.inner = values.startWithValues { [weak self] value in
            self?.apply(value)
        }
    }

    private func apply(_ value: Value) {
        registrar.withMutation(of: self, keyPath: \.value) {
            current.withLock { $0 = value }
        }
    }
}
