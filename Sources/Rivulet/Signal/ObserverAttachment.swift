/// One observer attached to one signal, owned by the signal's observer list.
///
/// The user holds the `ObservationHandle` instead, never this object: once the signal drops the
/// attachment (the observer is detached, or the signal terminates), the observer's closure and
/// everything it captures are released, whoever still keeps the disposable (S5). A disposable kept
/// in a bag by the very object the closure captures is therefore no retain cycle.
@usableFromInline
final class ObserverAttachment<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: the closure is immutable and only called by the thread holding the
    // signal's delivery turn (claimed through `SignalStorage`'s turn word), so never
    // concurrently; `handle` is atomic, and `handleStorage` is never accessed but through it.

    /// The memory of `handle`: the first stored property, never read or written directly after
    /// `init` (see AtomicWord.swift).
    @usableFromInline var handleStorage: AtomicWordStorage

    /// What the observer runs: for an observer made from an event closure, that closure, run for
    /// every event; for one made by `observeValues` (`valuesKind` set in `handle`), the user's
    /// `(Value) -> Void` closure itself, run for each value, kept here bit for bit and read back
    /// through `ValuesObserverAttachment` (see `init(values:handle:)`). One slot instead of two
    /// optional ones: an attachment is 40 bytes, not 56. And one class rather than a subclass per
    /// kind: a subclass of a generic class reads its fields' offsets from its metadata, a load
    /// more per delivery (issue 18, sixth round: 672 → 694 instructions per value on an eight-stage
    /// chain).
    ///
    /// A `let`: a closure stored in a `let` is called without retaining its context, while one
    /// loaded from a `var` or an enum's payload is copied, and retained, per event.
    @usableFromInline let action: Signal<Value, Error>.Observer.Action

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
    var handle: AtomicWord { AtomicWord(firstStoredPropertyOf: self) }

    /// The handle of an observer that only the signal's end removes (producer starts).
    @inlinable
    static var internalHandle: UInt { 2 }

    /// The bit of `handle` set for an observer made by `observeValues`: `action` holds a
    /// `(Value) -> Void` closure.
    @inlinable
    static var valuesKind: UInt { 4 }

    /// The bits of `handle` that are not the handle's address.
    @inlinable
    static var flagBits: UInt { 1 | valuesKind }

    let liveObject = LiveObjectTracker<LiveObjectTag.Attachment>()

    @inlinable
    init(action: @escaping Signal<Value, Error>.Observer.Action, handle: ObservationHandle<Value, Error>?) {
        handleStorage = AtomicWord.storage(ObserverAttachment.address(of: handle))
        self.action = action
    }

    /// An observer that runs `action` for each value, with no wrapping closure to allocate and
    /// to call through.
    ///
    /// The closure is stored in `action`, whose type is `(Event) -> Void`, unchanged: it is
    /// moved across as the only field of a `ClosureBits` struct, which the compiler copies bit
    /// for bit (a function value converted as a whole would be wrapped in a reabstraction
    /// thunk). This is sound because every Swift closure of the form `(T) -> Void` is the same
    /// two words (a function pointer and its retained context, released the same way whatever
    /// the function's type), and both types pass their argument the same way, indirectly,
    /// since the slots that hold them are declared in terms of the generic parameters. The
    /// function is only ever called as the type it was made with: `deliver` reads the slot as
    /// `(Value) -> Void` whenever `valuesKind` is set, and `valuesKind` never changes.
    ///
    /// `action` is taken owned and consumed, so that the caller's reference moves into the
    /// attachment: passed borrowed, the closure's context was retained three times and released
    /// twice on the way in.
    @inlinable
    init(values action: __owned @escaping (Value) -> Void, handle: ObservationHandle<Value, Error>?) {
        handleStorage = AtomicWord.storage(ObserverAttachment.address(of: handle) | ObserverAttachment.valuesKind)
        self.action = unsafeBitCast(ClosureBits(consume action), to: ClosureBits<Signal<Value, Error>.Event>.self).call
    }

    /// The bits of `handle` for `handle`: its address, not retained, or `internalHandle`.
    @inlinable
    static func address(of handle: ObservationHandle<Value, Error>?) -> UInt {
        guard let handle else { return internalHandle }
        return UInt(bitPattern: Unmanaged.passUnretained(handle).toOpaque())
    }

    /// Whether this observer is the one the handle at `handleAddress` detaches (or a stale one
    /// whose handle had that address; see `handle`).
    @inlinable
    func isDetached(by handleAddress: UInt) -> Bool {
        handle.loadRelaxed() & ~Self.flagBits == handleAddress
    }

    /// Whether `action` is a `(Value) -> Void` closure (see `init(values:handle:)`).
    @inlinable
    var observesValues: Bool { handle.loadRelaxed() & Self.valuesKind != 0 }

    /// Delivers `event` unless the observer has been detached.
    @inlinable
    func deliver(_ event: Signal<Value, Error>.Event) {
        let bits = handle.loadAcquiring()
        guard bits & 1 == 0 else { return }
        if bits & Self.valuesKind == 0 {
            action(event)
        } else if case let .value(value) = event {
            // The same object seen through a class of the same layout whose slot is declared
            // `(Value) -> Void`, borrowed rather than cast: a closure read from a cast reference
            // is retained and released around the call; one read from a borrowed reference's
            // `let` is not.
            Unmanaged<ValuesObserverAttachment<Value, Error>>.fromOpaque(Unmanaged.passUnretained(self).toOpaque())
                ._withUnsafeGuaranteedRef { $0.action(value) }
        }
    }

    /// Marks the observer detached: it receives nothing more, even within the current event.
    /// Called under the signal's lock, the only place that changes `handle`.
    @inlinable
    func markDetached() {
        handle.storeReleasing(handle.loadRelaxed() | 1)
    }
}

/// `ObserverAttachment`'s layout with its closure slot declared `(Value) -> Void`: the view
/// through which `deliver` calls an observer of values. Never made: its only initialiser stops
/// the program. Both classes have the same two stored properties, of the same sizes (no field
/// depends on the generic parameters' layout), in the same order, so the slot is at the same
/// offset in both (`ObserverAttachmentTests` checks it); no method of this class is ever called,
/// so its metadata is never used.
@usableFromInline
final class ValuesObserverAttachment<Value, Error: Swift.Error> {
    @usableFromInline var handleStorage: AtomicWordStorage
    @usableFromInline let action: (Value) -> Void

    @usableFromInline
    init() {
        preconditionFailure("Rivulet: ValuesObserverAttachment: never made, only a view of ObserverAttachment")
    }
}

/// A closure as the only field of a struct: a struct is bit-cast as it is, while a function
/// value cast on its own would first be reabstracted (see `ObserverAttachment.init(values:handle:)`).
@usableFromInline
struct ClosureBits<Argument> {
    @usableFromInline let call: (Argument) -> Void

    @inlinable
    init(_ call: @escaping (Argument) -> Void) {
        self.call = call
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
