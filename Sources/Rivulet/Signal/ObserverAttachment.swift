import Synchronization

/// One observer attached to one signal. It is also the `Disposable` that detaches it.
///
/// It holds its signal's core strongly: an observed signal stays alive (S4). The cycle
/// core → observers → attachment → core is broken when the observer is detached or the signal
/// terminates.
@usableFromInline
final class ObserverAttachment<Value, Error: Swift.Error>: Disposable, @unchecked Sendable {
    // @unchecked Sendable: the closures are called only by the thread holding the signal's
    // delivery turn (claimed through `SignalStorage`'s turn word), so never concurrently, and
    // cleared only once no turn can reach the attachment any more (after the storage's lock took
    // it out of the observer list); `signal` is atomic.

    /// What an observer made from a closure runs for every event: the closure alone, with no
    /// `Observer` object around it.
    @usableFromInline @exclusivity(unchecked) var eventAction: Signal<Value, Error>.Observer.Action?
    /// What `observeValues` runs for each value: the user's closure itself, with no wrapping
    /// closure to allocate and to call through. Exactly one of the two is set.
    ///
    /// Two optional stored closures rather than an enum of either: a stored closure is called
    /// without retaining its context, while an enum's payload is copied, and retained, per event.
    @usableFromInline @exclusivity(unchecked) var valueAction: ((Value) -> Void)?
    /// The signal's storage, retained by hand, until the observer is detached; 0 afterwards.
    ///
    /// One atomic word serves as both the way back to the signal and the "detached" flag (an
    /// attachment of 56 bytes rather than 57, which the allocator would round up to 80). Once it
    /// is 0 the observer is skipped, even within the event being delivered.
    @usableFromInline let signal: Atomic<UInt>

    @inlinable
    init(action: @escaping Signal<Value, Error>.Observer.Action, core: SignalCore<Value, Error>) {
        eventAction = action
        valueAction = nil
        signal = Atomic(Self.retainedBits(of: core))
    }

    @inlinable
    init(values action: @escaping (Value) -> Void, core: SignalCore<Value, Error>) {
        eventAction = nil
        valueAction = action
        signal = Atomic(Self.retainedBits(of: core))
    }

    @inlinable
    static func retainedBits(of core: SignalCore<Value, Error>) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(core.storage).toOpaque())
    }

    deinit {
        Self.release(signal.load(ordering: .acquiring))
    }

    @usableFromInline
    var isDisposed: Bool { signal.load(ordering: .acquiring) == 0 }

    /// Delivers `event` unless the observer has been detached.
    @inlinable
    func deliver(_ event: Signal<Value, Error>.Event) {
        guard signal.load(ordering: .acquiring) != 0 else { return }
        // Optional chaining borrows the stored closures instead of copying them.
        if eventAction?(event) == nil, case let .value(value) = event {
            valueAction?(value)
        }
    }

    /// Lets go of the observer's closure, and of everything it captures, once it can never run
    /// again: after the terminal event, or once detached (S5). Whoever holds the disposable keeps
    /// only this small object. Called with no lock held (O7), by the thread that took the
    /// attachment out of the observer list.
    @inlinable
    func releaseActions() {
        eventAction = nil
        valueAction = nil
    }

    /// After the terminal event: detached, and the closure released (S5).
    @inlinable
    func endAfterTermination() {
        markDetached()
        releaseActions()
    }

    /// Marks the observer detached without telling the signal (which never added it).
    @inlinable
    func markDetached() {
        Self.release(signal.exchange(0, ordering: .acquiringAndReleasing))
    }

    @usableFromInline
    func dispose() {
        let bits = signal.exchange(0, ordering: .acquiringAndReleasing)
        guard let storage = Self.takeStorage(bits) else { return }
        SignalCore(storage: storage).detach(self)
    }

    @inlinable
    static func takeStorage(_ bits: UInt) -> SignalStorage<Value, Error>? {
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<SignalStorage<Value, Error>>.fromOpaque(pointer).takeRetainedValue()
    }

    @inlinable
    static func release(_ bits: UInt) {
        _ = takeStorage(bits)
    }
}
