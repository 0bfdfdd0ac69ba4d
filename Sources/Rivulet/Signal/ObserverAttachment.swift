/// One observer attached to one signal, owned by the signal's observer list.
///
/// The user holds the `ObservationHandle` instead, never this object: once the signal drops the
/// attachment (the observer is detached, or the signal terminates), the observer's closure and
/// everything it captures are released, whoever still keeps the disposable (S5). A disposable kept
/// in a bag by the very object the closure captures is therefore no retain cycle.
@usableFromInline
final class ObserverAttachment<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: the closures are immutable and only called by the thread holding the
    // signal's delivery turn (claimed through `SignalStorage`'s turn word), so never
    // concurrently; `handle` is atomic, and `handleStorage` is never accessed but through it.

    /// The memory of `handle`: the first stored property, never read or written directly after
    /// `init` (see AtomicWord.swift).
    @usableFromInline var handleStorage: AtomicWordStorage

    /// What an observer made from a closure runs for every event: the closure alone, with no
    /// `Observer` object around it.
    @usableFromInline let eventAction: Signal<Value, Error>.Observer.Action?
    /// What `observeValues` runs for each value: the user's closure itself, with no wrapping
    /// closure to allocate and to call through. Exactly one of the two is set.
    ///
    /// Two optional stored closures rather than an enum of either, and both `let`: a closure
    /// stored in a `let` is called without retaining its context, while one loaded from a `var`
    /// or an enum's payload is copied, and retained, per event.
    @usableFromInline let valueAction: ((Value) -> Void)?
    /// The handle that detaches this observer, retained by hand (`internalHandle` for observers
    /// nobody can detach), with the lowest bit set once detached: from then on the observer is
    /// skipped, even within the event being delivered.
    ///
    /// Retaining the handle keeps its address from being reused while this observer is attached
    /// (the address is how a disposal finds it), and keeps an observed signal alive (S4): the
    /// handle holds the signal's storage. The cycle storage → observers → attachment → handle →
    /// storage is broken when the observer is detached or the signal terminates.
    @inlinable
    var handle: AtomicWord { AtomicWord(firstStoredPropertyOf: self) }

    /// The handle of an observer that only the signal's end removes (producer starts).
    @inlinable
    static var internalHandle: UInt { 2 }

    @inlinable
    init(action: @escaping Signal<Value, Error>.Observer.Action, handle: ObservationHandle<Value, Error>?) {
        handleStorage = AtomicWord.storage(ObserverAttachment.retainedBits(of: handle))
        eventAction = action
        valueAction = nil
    }

    @inlinable
    init(values action: @escaping (Value) -> Void, handle: ObservationHandle<Value, Error>?) {
        handleStorage = AtomicWord.storage(ObserverAttachment.retainedBits(of: handle))
        eventAction = nil
        valueAction = action
    }

    @inlinable
    static func retainedBits(of handle: ObservationHandle<Value, Error>?) -> UInt {
        guard let handle else { return internalHandle }
        return UInt(bitPattern: Unmanaged.passRetained(handle).toOpaque())
    }

    deinit {
        let bits = handle.loadAcquiring() & ~1
        if bits != Self.internalHandle, let pointer = UnsafeRawPointer(bitPattern: bits) {
            Unmanaged<ObservationHandle<Value, Error>>.fromOpaque(pointer).release()
        }
    }

    /// Whether this observer is the one the handle at `handleAddress` detaches.
    @inlinable
    func isDetached(by handleAddress: UInt) -> Bool {
        handle.loadRelaxed() & ~1 == handleAddress
    }

    /// Delivers `event` unless the observer has been detached.
    @inlinable
    func deliver(_ event: Signal<Value, Error>.Event) {
        guard handle.loadAcquiring() & 1 == 0 else { return }
        // Optional chaining borrows the stored closures instead of copying them.
        if eventAction?(event) == nil, case let .value(value) = event {
            valueAction?(value)
        }
    }

    /// Marks the observer detached: it receives nothing more, even within the current event.
    /// Called under the signal's lock, the only place that changes `handle`.
    @inlinable
    func markDetached() {
        handle.storeReleasing(handle.loadRelaxed() | 1)
    }
}

/// What `observe` returns: disposing of it detaches the observer.
///
/// It keeps the signal's storage (so that it can find the observer), never the observer itself:
/// see `ObserverAttachment`. Dropping it without disposing of it leaves the observer attached
/// (the attachment keeps the handle until then).
@usableFromInline
final class ObservationHandle<Value, Error: Swift.Error>: Disposable, @unchecked Sendable {
    // @unchecked Sendable: the only stored property is `signalStorage`, which is never accessed
    // after `init` but through `signal`'s atomic operations.

    /// The memory of `signal`: the first stored property, never read or written directly after
    /// `init` (see AtomicWord.swift).
    @usableFromInline var signalStorage: AtomicWordStorage

    /// The signal's storage, retained by hand, until disposed of; 0 afterwards. One atomic word
    /// is both the way to the signal and the "disposed" flag.
    @inlinable
    var signal: AtomicWord { AtomicWord(firstStoredPropertyOf: self) }

    @inlinable
    init(core: SignalCore<Value, Error>) {
        signalStorage = AtomicWord.storage(UInt(bitPattern: Unmanaged.passRetained(core.storage).toOpaque()))
    }

    deinit {
        _ = Self.takeStorage(signal.loadAcquiring())
    }

    /// The address by which the signal finds the observer to detach (see `ObserverAttachment.handle`).
    @inlinable
    var address: UInt { UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()) }

    @usableFromInline
    var isDisposed: Bool { signal.loadAcquiring() == 0 }

    @usableFromInline
    func dispose() {
        let bits = signal.exchangeAcquiringAndReleasing(0)
        guard let storage = Self.takeStorage(bits) else { return }
        SignalCore(storage: storage).detach(handle: address)
    }

    @inlinable
    static func takeStorage(_ bits: UInt) -> SignalStorage<Value, Error>? {
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<SignalStorage<Value, Error>>.fromOpaque(pointer).takeRetainedValue()
    }
}
