import Synchronization

/// One observer attached to one signal. It is also the `Disposable` that detaches it.
///
/// It holds its signal's core strongly: an observed signal stays alive (S4). The cycle
/// core → observers → attachment → core is broken when the observer is detached or the signal
/// terminates.
@usableFromInline
final class ObserverAttachment<Value, Error: Swift.Error>: Disposable, @unchecked Sendable {
    // @unchecked Sendable: the closures are immutable and only called by the thread holding the
    // signal's delivery turn (claimed through `SignalStorage`'s turn word), so never
    // concurrently; `detached` is atomic and `core` is Sendable.

    /// What an observer made from a closure runs for every event: the closure alone, with no
    /// `Observer` object around it.
    @usableFromInline let eventAction: Signal<Value, Error>.Observer.Action?
    /// What `observeValues` runs for each value: the user's closure itself, with no wrapping
    /// closure to allocate and to call through. Exactly one of the two is set.
    ///
    /// Two optional stored closures rather than an enum of either: a stored closure is called
    /// without retaining its context, while an enum's payload is copied, and retained, per event.
    @usableFromInline let valueAction: ((Value) -> Void)?
    @usableFromInline let core: SignalCore<Value, Error>
    /// Set once the observer must receive nothing more: after `dispose()` returns on the delivering
    /// thread, the observer is skipped even within the event being delivered.
    @usableFromInline let detached = Atomic<Bool>(false)

    @inlinable
    init(action: @escaping Signal<Value, Error>.Observer.Action, core: SignalCore<Value, Error>) {
        eventAction = action
        valueAction = nil
        self.core = core
    }

    @inlinable
    init(values action: @escaping (Value) -> Void, core: SignalCore<Value, Error>) {
        eventAction = nil
        valueAction = action
        self.core = core
    }

    @usableFromInline
    var isDisposed: Bool { detached.load(ordering: .acquiring) }

    /// Delivers `event` unless the observer has been detached.
    @inlinable
    func deliver(_ event: Signal<Value, Error>.Event) {
        guard !detached.load(ordering: .acquiring) else { return }
        // Optional chaining borrows the stored closures instead of copying them.
        if eventAction?(event) == nil, case let .value(value) = event {
            valueAction?(value)
        }
    }

    @inlinable
    func markDetached() {
        detached.store(true, ordering: .releasing)
    }

    @usableFromInline
    func dispose() {
        guard !detached.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.detach(self)
    }
}
