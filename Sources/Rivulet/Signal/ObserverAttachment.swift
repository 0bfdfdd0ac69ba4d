import Synchronization

/// One observer attached to one signal. It is also the `Disposable` that detaches it.
///
/// It holds its signal's core strongly: an observed signal stays alive (S4). The cycle
/// core → observers → attachment → core is broken when the observer is detached or the signal
/// terminates.
@usableFromInline
final class ObserverAttachment<Value, Error: Swift.Error>: Disposable, @unchecked Sendable {
    // @unchecked Sendable: `action` is immutable and only called by the thread holding the
    // signal's delivery turn (`DeliveryState.phase`, under `SignalCore.state`'s lock), so never
    // concurrently; `detached` is atomic and `core` is Sendable.
    /// What the observer runs for each event. An observer made from a closure is stored as that
    /// closure alone, with no `Observer` object around it (one allocation less per observation).
    @usableFromInline let action: Signal<Value, Error>.Observer.Action
    @usableFromInline let core: SignalCore<Value, Error>
    /// Set once the observer must receive nothing more: after `dispose()` returns on the delivering
    /// thread, the observer is skipped even within the event being delivered.
    @usableFromInline let detached = Atomic<Bool>(false)

    @inlinable
    init(action: @escaping Signal<Value, Error>.Observer.Action, core: SignalCore<Value, Error>) {
        self.action = action
        self.core = core
    }

    @usableFromInline
    var isDisposed: Bool { detached.load(ordering: .acquiring) }

    @inlinable
    func deliver(_ event: Signal<Value, Error>.Event) {
        if !detached.load(ordering: .acquiring) {
            action(event)
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
