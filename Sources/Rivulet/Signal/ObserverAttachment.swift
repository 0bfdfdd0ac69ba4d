/// One observer attached to one signal, owned by the signal's observer list: an
/// `EventObserverAttachment` (a closure run for every event) or a `ValuesObserverAttachment` (the
/// user's `(Value) -> Void` closure, run for each value), told apart by `valuesKind` in `handle`.
///
/// A subclass per kind rather than one class whose closure slot holds either kind bit-cast: the
/// subclasses read their closure's offset from a global (they subclass a generic class), one load
/// more per delivery, yet in `compare` fan-out delivers in 1.7 ns with them against 2.0 ns with
/// one class, and the eight-stage chain takes the same time (Docs/Performance.md, issue 18's sixth
/// round).
///
/// The user holds the `ObservationHandle` instead, never this object: once the signal drops the
/// attachment (the observer is detached, or the signal terminates), the observer's closure and
/// everything it captures are released, whoever still keeps the disposable (S5). A disposable kept
/// in a bag by the very object the closure captures is therefore no retain cycle.
@usableFromInline
class ObserverAttachment<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: the subclasses' closures are immutable and only called by the thread
    // holding the signal's delivery turn (claimed through `SignalStorage`'s turn word), so never
    // concurrently; `handle` is atomic, and `handleStorage` is never accessed but through it.

    /// The memory of `handle`: the first stored property, never read or written directly after
    /// `init` (see AtomicWord.swift).
    @usableFromInline var handleStorage: AtomicWordStorage

    /// The address of the handle that detaches this observer, not retained (`internalHandle` for
    /// observers nobody can detach), with `valuesKind` set for an observer of values and the
    /// lowest bit set once detached: from then on the observer is skipped, even within the event
    /// being delivered. Handles are 16-byte aligned, so the low bits are free.
    ///
    /// The handle may be released without being disposed of, and a later handle may then get the
    /// same address; a disposal therefore looks for the *newest* attachment with its handle's
    /// address (`DeliveryState.attachment(detachedBy:)`). That is the right one: the list is in
    /// the order of attachment, and while a handle lives no other handle has its address, so any
    /// other attachment carrying that address was attached before it. Not retaining the handle
    /// saves an atomic retain and release per observation.
    @inlinable
    final var handle: AtomicWord { AtomicWord(firstStoredPropertyOf: self) }

    /// The handle of an observer that only the signal's end removes (producer starts).
    @inlinable
    static var internalHandle: UInt { 2 }

    /// The bit of `handle` set for a `ValuesObserverAttachment`.
    @inlinable
    static var valuesKind: UInt { 4 }

    /// The bits of `handle` that are not the handle's address.
    @inlinable
    static var flagBits: UInt { 1 | valuesKind }

    let liveObject = LiveObjectTracker<LiveObjectTag.Attachment>()

    @inlinable
    init(handle: ObservationHandle<Value, Error>?, kind: UInt) {
        let address = handle.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? Self.internalHandle
        handleStorage = AtomicWord.storage(address | kind)
    }

    /// Whether this observer is the one the handle at `handleAddress` detaches (or a stale one
    /// whose handle had that address; see `handle`).
    @inlinable
    final func isDetached(by handleAddress: UInt) -> Bool {
        handle.loadRelaxed() & ~Self.flagBits == handleAddress
    }

    /// Whether this is a `ValuesObserverAttachment`.
    @inlinable
    final var observesValues: Bool { handle.loadRelaxed() & Self.valuesKind != 0 }

    /// Delivers `event` unless the observer has been detached.
    @inlinable
    final func deliver(_ event: Signal<Value, Error>.Event) {
        let bits = handle.loadAcquiring()
        guard bits & 1 == 0 else { return }
        // The subclass's closure is read from a borrowed reference's `let`: called without
        // retaining its context (a closure read through a cast reference is retained and
        // released around the call). The kind bit never changes, so the cast is exact.
        let object = Unmanaged.passUnretained(self).toOpaque()
        if bits & Self.valuesKind == 0 {
            Unmanaged<EventObserverAttachment<Value, Error>>.fromOpaque(object)._withUnsafeGuaranteedRef { $0.action(event) }
        } else if case let .value(value) = event {
            Unmanaged<ValuesObserverAttachment<Value, Error>>.fromOpaque(object)._withUnsafeGuaranteedRef { $0.action(value) }
        }
    }

    /// Marks the observer detached: it receives nothing more, even within the current event.
    /// Called under the signal's lock, the only place that changes `handle`.
    @inlinable
    final func markDetached() {
        handle.storeReleasing(handle.loadRelaxed() | 1)
    }
}

/// An observer that runs one closure for every event.
@usableFromInline
final class EventObserverAttachment<Value, Error: Swift.Error>: ObserverAttachment<Value, Error>, @unchecked Sendable {
    // @unchecked Sendable: `action` is a `let`, called only by the holder of the signal's delivery
    // turn (claimed through `SignalStorage`'s turn word, which is also its lock); the rest as
    // `ObserverAttachment`.
    /// A `let`: a closure stored in a `let` is called without retaining its context, while one
    /// loaded from a `var` or an enum's payload is copied, and retained, per event.
    @usableFromInline let action: Signal<Value, Error>.Observer.Action

    @inlinable
    init(action: @escaping Signal<Value, Error>.Observer.Action, handle: ObservationHandle<Value, Error>?) {
        self.action = action
        super.init(handle: handle, kind: 0)
    }
}

/// An observer made by `observeValues`: the user's closure itself, with no wrapping closure to
/// allocate and to call through.
@usableFromInline
final class ValuesObserverAttachment<Value, Error: Swift.Error>: ObserverAttachment<Value, Error>, @unchecked Sendable {
    // @unchecked Sendable: as `EventObserverAttachment`: `action` is a `let`, called only by the
    // holder of the signal's delivery turn.
    /// A `let`, as in `EventObserverAttachment`.
    @usableFromInline let action: (Value) -> Void

    @inlinable
    init(values action: @escaping (Value) -> Void, handle: ObservationHandle<Value, Error>?) {
        self.action = action
        super.init(handle: handle, kind: ObserverAttachment<Value, Error>.valuesKind)
    }
}

/// What `observe` returns: disposing of it detaches the observer.
///
/// It keeps the signal's storage (so that it can find the observer), never the observer itself:
/// see `ObserverAttachment`. Dropping it without disposing of it leaves the observer attached
/// until the signal ends.
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

    let liveObject = LiveObjectTracker<LiveObjectTag.Attachment>()

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
