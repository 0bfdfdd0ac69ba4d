import Builtin

// Rivulet's atomics, without `Synchronization.Atomic` (which needs macOS 15 and its siblings):
// `AtomicWord` and `AtomicFlag` are pointers to an `AtomicWordStorage` or `AtomicFlagStorage`, whose
// operations are the compiler's atomic builtins, the ones `Synchronization.Atomic` is made of (the
// `Builtin` module, enabled by the target's `BuiltinModule` feature, as swift-atomics does). They
// are instructions, not calls into a runtime, so they run on any system Swift targets, and the
// optimizer sees exactly what it sees with `Synchronization.Atomic`. (A C target of `static
// inline` functions was tried first: it costs the same inside one function, but a function that
// calls C is never made available to clients by the compiler's default cross-module
// optimization, so clients lost the specialisation of every non-`@inlinable` function that
// touches an atomic: observe/dispose cost 7 times as many instructions.)
//
// An atomic needs a stable address that no Swift access goes through (a class's stored property
// passed `inout` would be a formal access, checked for exclusivity at run time, and trap when two
// threads use the atomic at once). So the memory of each atomic is either
// - in a `ManagedBuffer`'s tail, reached from its elements pointer (`MailboxStorage`'s turn word), or
// - the first stored property of a class with no superclass, reached through
//   `_getUnsafePointerToStoredProperties(self)`, as swift-atomics' `ManagedAtomic` does: Swift lays
//   out a class's stored properties in declaration order right after the object header, and that
//   function returns the address right after the header (the header's size rounded up to a
//   pointer's alignment, which is the alignment of these storage types). The property is a `var`
//   that Swift code never reads or writes after `init`, so no access to it is ever checked or
//   cached; `AtomicLayoutTests` writes through each pointer and reads the property back, for every
//   class that keeps an atomic this way.
// Either way the object that holds the memory keeps it alive: use an `AtomicWord` or `AtomicFlag`
// only while holding a reference to that object.
//
// Each method names its memory ordering (with `Synchronization`'s names); only the orderings
// Rivulet uses exist.

/// The memory of an `AtomicWord`: a `UInt`, touched only through `AtomicWord` once in place.
@usableFromInline
package struct AtomicWordStorage {
    @usableFromInline package var value: UInt

    @inlinable @inline(__always)
    package init(_ value: UInt) { self.value = value }
}

/// The memory of an `AtomicFlag`: 0 or 1, touched only through `AtomicFlag` once in place.
@usableFromInline
package struct AtomicFlagStorage {
    @usableFromInline package var value: UInt8

    @inlinable @inline(__always)
    package init(_ value: Bool) { self.value = value ? 1 : 0 }
}

/// A word and a flag, for a class that needs both as its first stored property. The word is at
/// offset 0 and the flag right after it (Swift lays out a struct's stored properties in
/// declaration order; `AtomicLayoutTests` checks it).
@usableFromInline
package struct AtomicWordAndFlagStorage {
    @usableFromInline package var word: AtomicWordStorage
    @usableFromInline package var flag: AtomicFlagStorage

    @inlinable @inline(__always)
    package init(word: UInt, flag: Bool) {
        self.word = AtomicWordStorage(word)
        self.flag = AtomicFlagStorage(flag)
    }

    /// The flag's offset from the start of the pair.
    @inlinable @inline(__always)
    package static var flagOffset: Int { MemoryLayout<AtomicWordStorage>.size }
}

/// An atomic word somewhere in memory that its owner keeps alive (see the top of this file).
@usableFromInline
package struct AtomicWord {
    @usableFromInline let pointer: UnsafeMutableRawPointer

    @inlinable @inline(__always)
    package init(_ pointer: UnsafeMutablePointer<AtomicWordStorage>) {
        self.pointer = UnsafeMutableRawPointer(pointer)
    }

    /// The atomic that is the first stored property of `object`, whose class has no superclass.
    @inlinable @inline(__always)
    package init(firstStoredPropertyOf object: AnyObject) {
        pointer = _getUnsafePointerToStoredProperties(object)
    }

    /// The word of the `AtomicWordAndFlagStorage` that is the first stored property of `object`,
    /// whose class has no superclass.
    @inlinable @inline(__always)
    package init(pairIn object: AnyObject) {
        pointer = _getUnsafePointerToStoredProperties(object)
    }

    /// Where the word is: what a thread asleep on it is keyed by (`ParkingLot`).
    @inlinable @inline(__always)
    package var address: UnsafeMutableRawPointer { pointer }

    /// A word's initial storage.
    @inlinable @inline(__always)
    package static func storage(_ value: UInt) -> AtomicWordStorage {
        AtomicWordStorage(value)
    }

    #if _pointerBitWidth(_64)
    @inlinable @inline(__always)
    package func loadRelaxed() -> UInt { UInt(Builtin.atomicload_monotonic_Int64(pointer._rawValue)) }

    @inlinable @inline(__always)
    package func loadAcquiring() -> UInt { UInt(Builtin.atomicload_acquire_Int64(pointer._rawValue)) }

    @inlinable @inline(__always)
    package func loadSequentiallyConsistent() -> UInt { UInt(Builtin.atomicload_seqcst_Int64(pointer._rawValue)) }

    @inlinable @inline(__always)
    package func storeRelaxed(_ desired: UInt) { Builtin.atomicstore_monotonic_Int64(pointer._rawValue, desired._value) }

    @inlinable @inline(__always)
    package func storeReleasing(_ desired: UInt) { Builtin.atomicstore_release_Int64(pointer._rawValue, desired._value) }

    /// Stores `desired` and returns the value it replaced.
    @inlinable @inline(__always) @discardableResult
    package func exchangeAcquiringAndReleasing(_ desired: UInt) -> UInt {
        UInt(Builtin.atomicrmw_xchg_acqrel_Int64(pointer._rawValue, desired._value))
    }

    // Strong compare-and-swaps: each replaces the value with `desired` if it is `expected`, and
    // returns whether it did and the value it found (`expected` when it did). A failed one loads
    // with the strongest load ordering its ordering allows, as in `Synchronization`.

    @inlinable @inline(__always) @discardableResult
    package func compareExchangeAcquiring(expected: UInt, desired: UInt) -> (exchanged: Bool, original: UInt) {
        let (original, exchanged) = Builtin.cmpxchg_acquire_acquire_Int64(
            pointer._rawValue, expected._value, desired._value)
        return (Bool(exchanged), UInt(original))
    }

    @inlinable @inline(__always) @discardableResult
    package func compareExchangeReleasing(expected: UInt, desired: UInt) -> (exchanged: Bool, original: UInt) {
        let (original, exchanged) = Builtin.cmpxchg_release_monotonic_Int64(
            pointer._rawValue, expected._value, desired._value)
        return (Bool(exchanged), UInt(original))
    }

    @inlinable @inline(__always) @discardableResult
    package func compareExchangeAcquiringAndReleasing(expected: UInt, desired: UInt) -> (exchanged: Bool, original: UInt) {
        let (original, exchanged) = Builtin.cmpxchg_acqrel_acquire_Int64(
            pointer._rawValue, expected._value, desired._value)
        return (Bool(exchanged), UInt(original))
    }

    // Wrapping additions: each returns the value before and after. (A subtraction adds the
    // two's complement.)

    @inlinable @inline(__always) @discardableResult
    package func wrappingAddRelaxed(_ operand: UInt) -> (oldValue: UInt, newValue: UInt) {
        let old = UInt(Builtin.atomicrmw_add_monotonic_Int64(pointer._rawValue, operand._value))
        return (old, old &+ operand)
    }

    @inlinable @inline(__always) @discardableResult
    package func wrappingAddReleasing(_ operand: UInt) -> (oldValue: UInt, newValue: UInt) {
        let old = UInt(Builtin.atomicrmw_add_release_Int64(pointer._rawValue, operand._value))
        return (old, old &+ operand)
    }

    @inlinable @inline(__always) @discardableResult
    package func wrappingAddAcquiringAndReleasing(_ operand: UInt) -> (oldValue: UInt, newValue: UInt) {
        let old = UInt(Builtin.atomicrmw_add_acqrel_Int64(pointer._rawValue, operand._value))
        return (old, old &+ operand)
    }

    @inlinable @inline(__always) @discardableResult
    package func wrappingAddSequentiallyConsistent(_ operand: UInt) -> (oldValue: UInt, newValue: UInt) {
        let old = UInt(Builtin.atomicrmw_add_seqcst_Int64(pointer._rawValue, operand._value))
        return (old, old &+ operand)
    }
    #elseif _pointerBitWidth(_32)
    @inlinable @inline(__always)
    package func loadRelaxed() -> UInt { UInt(Builtin.atomicload_monotonic_Int32(pointer._rawValue)) }

    @inlinable @inline(__always)
    package func loadAcquiring() -> UInt { UInt(Builtin.atomicload_acquire_Int32(pointer._rawValue)) }

    @inlinable @inline(__always)
    package func loadSequentiallyConsistent() -> UInt { UInt(Builtin.atomicload_seqcst_Int32(pointer._rawValue)) }

    @inlinable @inline(__always)
    package func storeRelaxed(_ desired: UInt) { Builtin.atomicstore_monotonic_Int32(pointer._rawValue, desired._value) }

    @inlinable @inline(__always)
    package func storeReleasing(_ desired: UInt) { Builtin.atomicstore_release_Int32(pointer._rawValue, desired._value) }

    @inlinable @inline(__always) @discardableResult
    package func exchangeAcquiringAndReleasing(_ desired: UInt) -> UInt {
        UInt(Builtin.atomicrmw_xchg_acqrel_Int32(pointer._rawValue, desired._value))
    }

    @inlinable @inline(__always) @discardableResult
    package func compareExchangeAcquiring(expected: UInt, desired: UInt) -> (exchanged: Bool, original: UInt) {
        let (original, exchanged) = Builtin.cmpxchg_acquire_acquire_Int32(
            pointer._rawValue, expected._value, desired._value)
        return (Bool(exchanged), UInt(original))
    }

    @inlinable @inline(__always) @discardableResult
    package func compareExchangeReleasing(expected: UInt, desired: UInt) -> (exchanged: Bool, original: UInt) {
        let (original, exchanged) = Builtin.cmpxchg_release_monotonic_Int32(
            pointer._rawValue, expected._value, desired._value)
        return (Bool(exchanged), UInt(original))
    }

    @inlinable @inline(__always) @discardableResult
    package func compareExchangeAcquiringAndReleasing(expected: UInt, desired: UInt) -> (exchanged: Bool, original: UInt) {
        let (original, exchanged) = Builtin.cmpxchg_acqrel_acquire_Int32(
            pointer._rawValue, expected._value, desired._value)
        return (Bool(exchanged), UInt(original))
    }

    @inlinable @inline(__always) @discardableResult
    package func wrappingAddRelaxed(_ operand: UInt) -> (oldValue: UInt, newValue: UInt) {
        let old = UInt(Builtin.atomicrmw_add_monotonic_Int32(pointer._rawValue, operand._value))
        return (old, old &+ operand)
    }

    @inlinable @inline(__always) @discardableResult
    package func wrappingAddReleasing(_ operand: UInt) -> (oldValue: UInt, newValue: UInt) {
        let old = UInt(Builtin.atomicrmw_add_release_Int32(pointer._rawValue, operand._value))
        return (old, old &+ operand)
    }

    @inlinable @inline(__always) @discardableResult
    package func wrappingAddAcquiringAndReleasing(_ operand: UInt) -> (oldValue: UInt, newValue: UInt) {
        let old = UInt(Builtin.atomicrmw_add_acqrel_Int32(pointer._rawValue, operand._value))
        return (old, old &+ operand)
    }

    @inlinable @inline(__always) @discardableResult
    package func wrappingAddSequentiallyConsistent(_ operand: UInt) -> (oldValue: UInt, newValue: UInt) {
        let old = UInt(Builtin.atomicrmw_add_seqcst_Int32(pointer._rawValue, operand._value))
        return (old, old &+ operand)
    }
    #else
    #error("Rivulet's atomics support 64-bit and 32-bit pointers")
    #endif

    @inlinable @inline(__always) @discardableResult
    package func wrappingSubtractRelaxed(_ operand: UInt) -> (oldValue: UInt, newValue: UInt) {
        wrappingAddRelaxed(0 &- operand)
    }
}

/// An atomic flag somewhere in memory that its owner keeps alive (see the top of this file).
@usableFromInline
package struct AtomicFlag {
    @usableFromInline let pointer: UnsafeMutableRawPointer

    @inlinable @inline(__always)
    package init(_ pointer: UnsafeMutablePointer<AtomicFlagStorage>) {
        self.pointer = UnsafeMutableRawPointer(pointer)
    }

    /// The atomic that is the first stored property of `object`, whose class has no superclass.
    @inlinable @inline(__always)
    package init(firstStoredPropertyOf object: AnyObject) {
        pointer = _getUnsafePointerToStoredProperties(object)
    }

    /// The flag of the `AtomicWordAndFlagStorage` that is the first stored property of `object`,
    /// whose class has no superclass.
    @inlinable @inline(__always)
    package init(pairIn object: AnyObject) {
        pointer = _getUnsafePointerToStoredProperties(object) + AtomicWordAndFlagStorage.flagOffset
    }

    /// A flag's initial storage.
    @inlinable @inline(__always)
    package static func storage(_ value: Bool) -> AtomicFlagStorage {
        AtomicFlagStorage(value)
    }

    @inlinable @inline(__always)
    package func loadRelaxed() -> Bool { UInt8(Builtin.atomicload_monotonic_Int8(pointer._rawValue)) != 0 }

    @inlinable @inline(__always)
    package func loadAcquiring() -> Bool { UInt8(Builtin.atomicload_acquire_Int8(pointer._rawValue)) != 0 }

    @inlinable @inline(__always)
    package func storeRelaxed(_ desired: Bool) {
        Builtin.atomicstore_monotonic_Int8(pointer._rawValue, (desired ? 1 as UInt8 : 0)._value)
    }

    @inlinable @inline(__always)
    package func storeReleasing(_ desired: Bool) {
        Builtin.atomicstore_release_Int8(pointer._rawValue, (desired ? 1 as UInt8 : 0)._value)
    }

    /// Stores `desired` and returns the value it replaced.
    @inlinable @inline(__always) @discardableResult
    package func exchangeAcquiringAndReleasing(_ desired: Bool) -> Bool {
        UInt8(Builtin.atomicrmw_xchg_acqrel_Int8(pointer._rawValue, (desired ? 1 as UInt8 : 0)._value)) != 0
    }
}

/// An atomic `Int` of its own, for counters kept in a `static let` (a global has no address that
/// Swift would let another thread use without an exclusivity check; an object's stored property
/// reached through a pointer does).
@usableFromInline
package final class AtomicCounter: @unchecked Sendable {
    // @unchecked Sendable: the only stored property is the atomic word, which Swift code never
    // touches after `init`; every access goes through `word`'s atomic operations.

    /// The ordering of a change to the counter.
    package enum Ordering {
        case relaxed, acquiringAndReleasing, sequentiallyConsistent
    }

    /// The counter's memory: the first stored property, reached through `word` (see the top of
    /// this file). Never read or written directly after `init`.
    @usableFromInline var storage: AtomicWordStorage

    @inlinable
    package init(_ value: Int = 0) {
        storage = AtomicWord.storage(UInt(bitPattern: value))
    }

    @inlinable
    var word: AtomicWord { AtomicWord(firstStoredPropertyOf: self) }

    @inlinable @inline(__always)
    package func loadRelaxed() -> Int {
        Int(bitPattern: word.loadRelaxed())
    }

    @inlinable @inline(__always)
    package func loadSequentiallyConsistent() -> Int {
        Int(bitPattern: word.loadSequentiallyConsistent())
    }

    /// Adds `operand`, wrapping around on overflow, and returns the value before and after.
    @discardableResult
    package func add(_ operand: Int, ordering: Ordering) -> (oldValue: Int, newValue: Int) {
        let operand = UInt(bitPattern: operand)
        let (old, new) =
            switch ordering {
            case .relaxed: word.wrappingAddRelaxed(operand)
            case .acquiringAndReleasing: word.wrappingAddAcquiringAndReleasing(operand)
            case .sequentiallyConsistent: word.wrappingAddSequentiallyConsistent(operand)
            }
        return (Int(bitPattern: old), Int(bitPattern: new))
    }

    /// Subtracts `operand`, wrapping around on overflow, and returns the value before and after.
    @discardableResult
    package func subtract(_ operand: Int, ordering: Ordering) -> (oldValue: Int, newValue: Int) {
        add(0 &- operand, ordering: ordering)
    }
}
