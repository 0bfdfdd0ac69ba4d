import Synchronization

/// One observer attached to one signal. It is also the `Disposable` that detaches it.
///
/// It holds its signal's core strongly: an observed signal stays alive (S4). The cycle
/// core → observers → attachment → core is broken when the observer is detached or the signal
/// terminates.
@usableFromInline
final class ObserverAttachment<Value, Error: Swift.Error>: Disposable {
    @usableFromInline let observer: Signal<Value, Error>.Observer
    @usableFromInline let core: SignalCore<Value, Error>
    /// Set once the observer must receive nothing more: after `dispose()` returns on the delivering
    /// thread, the observer is skipped even within the event being delivered.
    @usableFromInline let detached = Atomic<Bool>(false)

    @inlinable
    init(observer: Signal<Value, Error>.Observer, core: SignalCore<Value, Error>) {
        self.observer = observer
        self.core = core
    }

    @usableFromInline
    var isDisposed: Bool { detached.load(ordering: .acquiring) }

    @inlinable
    func deliver(_ event: Signal<Value, Error>.Event) {
        if !detached.load(ordering: .acquiring) {
            observer.send(event)
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
