/// What a signal's teardown runs, once per pair of types: the code that interrupts a signal when
/// its last input observer goes, and the code that tells it its public `Signal` object has gone
/// (S4), both made by specialised code and found by the `deinit`s.
///
/// The `deinit` of a generic class is never specialised: running either step from there would
/// run it generically, looking up type metadata at every step (about 11,000 instructions per
/// `Signal` and 26,000 per input observer, against a few hundred specialised). The input observer
/// once kept a specialised closure for it, 16 bytes per observer; now the code is kept here, once
/// per pair of types, registered where the types are known (`SignalCore.registerTeardownCode`)
/// and keyed by the signal storage's class metadata (which a `deinit` reads from the storage:
/// looking it up by type would go through the runtime's metadata cache, and reading the
/// observer's own would make it escape, so that the compiler could no longer keep an observer on
/// the stack).
///
/// A fixed table with open addressing and no lock: a slot is claimed with a compare-and-swap on
/// its key, its closures written, and then its key published with a releasing store; a reader
/// that finds the key with an acquiring load sees the closures. Slots are never emptied. Should
/// the table fill up (more pairs of types than `capacity` in one process), the pairs that found
/// no slot tear down generically: slower, not different.
@usableFromInline
enum SpecializedTeardown {
    /// One step of a signal's teardown, given its storage (unretained). It captures nothing, so
    /// any thread may call it.
    @usableFromInline typealias Step = @Sendable (UnsafeMutableRawPointer) -> Void

    /// The teardown steps of one pair of types.
    @usableFromInline
    struct Code {
        /// Interrupts the signal: its last input observer has gone.
        @usableFromInline let interrupt: Step
        /// Tells the signal its public `Signal` object has gone (S4).
        @usableFromInline let abandon: Step

        @inlinable
        init(interrupt: @escaping Step, abandon: @escaping Step) {
            self.interrupt = interrupt
            self.abandon = abandon
        }
    }

    /// One pair of types: the key (0 while free, `claimed` while being written) and its code.
    @usableFromInline
    struct Slot {
        /// The first stored property, accessed only atomically (see AtomicWord.swift).
        @usableFromInline var key: AtomicWordStorage
        /// Written once, before `key` is published; never changed afterwards.
        @usableFromInline var code: Code?
    }

    /// How many pairs of types fit; a power of two.
    @inlinable
    static var capacity: Int { 1024 }

    /// The key of a slot whose closure is being written.
    @inlinable
    static var claimed: UInt { 1 }

    /// The table, made on first use and never freed.
    @usableFromInline
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<Slot> = {
        // nonisolated(unsafe): the pointer itself never changes after this initialiser (which
        // Swift runs once); the slots it points to are only accessed as described above.
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        slots.initialize(repeating: Slot(key: AtomicWordStorage(0), code: nil), count: capacity)
        return slots
    }()

    /// The first slot to look at for `key`.
    @inlinable
    static func home(of key: UInt) -> Int {
        // Metadata records are at least 8-byte aligned; mix in higher bits as well.
        Int(truncatingIfNeeded: (key >> 3) ^ (key >> 13)) & (capacity - 1)
    }

    /// The key of the signals of `storage`'s pair of types: the class metadata of the storage,
    /// which is a Swift object's first word (one class per pair of types).
    @inlinable
    static func key(ofStorage storage: UnsafeMutableRawPointer) -> UInt {
        UnsafeRawPointer(storage).load(as: UInt.self)
    }

    /// The atomic key of `slot`, its first stored property.
    @inlinable @inline(__always)
    static func key(of slot: UnsafeMutablePointer<Slot>) -> AtomicWord {
        AtomicWord(UnsafeMutableRawPointer(slot).assumingMemoryBound(to: AtomicWordStorage.self))
    }

    /// The slot registered for `key`, if any: its home slot checked here, the others out of line.
    @inlinable @inline(__always)
    static func slot(for key: UInt) -> UnsafeMutablePointer<Slot>? {
        let home = slots + home(of: key)
        if Self.key(of: home).loadAcquiring() == key { return home }
        return probe(for: key)
    }

    /// The slot registered for `key` past its home slot, if any.
    @usableFromInline
    static func probe(for key: UInt) -> UnsafeMutablePointer<Slot>? {
        let table = slots
        var index = home(of: key)
        for _ in 0..<capacity {
            let found = Self.key(of: table + index).loadAcquiring()
            if found == key { return table + index }
            if found == 0 { return nil }
            index = (index + 1) & (capacity - 1)
        }
        return nil
    }

    /// The code registered for `key`, if any.
    @inlinable
    static func code(for key: UInt) -> Code? {
        slot(for: key)?.pointee.code
    }

    /// Registers `code` for `key` unless code is already registered for it: a look at one slot
    /// once the pair of types has been seen.
    @inlinable @inline(__always)
    static func register(_ code: @autoclosure () -> Code, for key: UInt) {
        if slot(for: key) == nil { insert(code(), for: key) }
    }

    /// Claims a free slot for `key` and publishes `code` in it. Two threads registering the same
    /// key at once may both succeed; either code does the same.
    @usableFromInline
    static func insert(_ code: Code, for key: UInt) {
        let table = slots
        var index = home(of: key)
        for _ in 0..<capacity {
            let word = Self.key(of: table + index)
            let (exchanged, original) = word.compareExchangeAcquiring(expected: 0, desired: claimed)
            if exchanged {
                table[index].code = code
                word.storeReleasing(key)
                return
            }
            if original == key { return }
            index = (index + 1) & (capacity - 1)
        }
        // Full: this pair of types tears down generically (see above).
    }
}

extension SignalCore {
    /// Registers this pair of types' teardown code (see `SpecializedTeardown`); called where the
    /// types are known, before the first `deinit` that needs it.
    @inlinable @inline(__always)
    func registerTeardownCode() {
        SpecializedTeardown.register(
            SpecializedTeardown.Code(
                interrupt: { storage in
                    SignalCore(storage: Unmanaged.fromOpaque(storage).takeUnretainedValue()).send(.interrupted)
                },
                abandon: { storage in
                    SignalCore(storage: Unmanaged.fromOpaque(storage).takeUnretainedValue()).signalDidDeinitialize()
                }),
            for: SpecializedTeardown.key(ofStorage: Unmanaged.passUnretained(storage).toOpaque()))
    }
}
