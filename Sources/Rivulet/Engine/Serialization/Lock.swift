#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Builtin

#if canImport(Darwin)
/// The lock inside every `Locked` and every mailbox: `os_unfair_lock` (4 bytes).
@usableFromInline package typealias PlatformLock = os_unfair_lock
/// A full platform mutex, for the rare lock that needs one (`Atomic`'s error-checking lock).
@usableFromInline package typealias PlatformMutex = os_unfair_lock
#else
/// The lock inside every `Locked` and every mailbox: a 4-byte `WordLock` (a `pthread_mutex_t` is
/// 40 bytes, paid by every signal, property and operator stage).
@usableFromInline package typealias PlatformLock = WordLock
/// A full platform mutex, for the rare lock that needs one (`Atomic`'s error-checking lock).
@usableFromInline package typealias PlatformMutex = pthread_mutex_t
#endif

/// The storage behind `Locked`: the protected state and the platform lock in one allocation.
///
/// State lives in the buffer's header and is reached through a pointer, so access needs no
/// dynamic exclusivity check. The lock is `os_unfair_lock` on Apple platforms and a `WordLock`
/// elsewhere, rather than `Synchronization.Mutex`: on Linux, `Mutex` is a priority-inheritance
/// futex whose contended acquisition happens inside the kernel, where Thread Sanitizer cannot see
/// it, so it reports false races under contention. Both locks here are acquired by an atomic
/// operation in user space, which Thread Sanitizer understands.
@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, PlatformLock> {
    @inlinable
    static func make(_ initialState: State) -> LockStorage<State> {
        let buffer = create(minimumCapacity: 1) { _ in initialState }
        let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
        storage.withUnsafeMutablePointerToElements { PlatformLocking.initialize($0) }
        return storage
    }

    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, lock in
            PlatformLocking.lock(lock)
            defer { PlatformLocking.unlock(lock) }
            return try body(&state.pointee)
        }
    }

    deinit {
        withUnsafeMutablePointerToElements { PlatformLocking.destroy($0) }
    }
}

/// The platform lock's four operations, shared by `LockStorage` and `MailboxStorage` (which
/// keeps its lock next to an atomic turn word).
@usableFromInline
enum PlatformLocking {
    @inlinable
    static func initialize(_ lock: UnsafeMutablePointer<PlatformLock>) {
        lock.initialize(to: PlatformLock())
    }

    @inlinable @inline(__always)
    static func lock(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        #else
        WordLock.lock(lock)
        #endif
    }

    @inlinable @inline(__always)
    static func unlock(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(lock)
        #else
        WordLock.unlock(lock)
        #endif
    }

    @inlinable
    static func destroy(_ lock: UnsafeMutablePointer<PlatformLock>) {
        lock.deinitialize(count: 1)
    }
}

#if !canImport(Darwin)
/// A 4-byte lock: one atomic 32-bit word, and a thread that finds it taken sleeps in a
/// `ParkingLot` shared by every lock (the lock itself holds no mutex or condition of its own).
///
/// The word is 0 (free), 1 (held, nobody sleeping) or 2 (held, and a thread may be sleeping). An
/// uncontended `lock` is one compare-and-swap (0 → 1, acquiring) and `unlock` one exchange (→ 0,
/// releasing); only an `unlock` that finds 2 visits the parking lot, to wake one sleeper. A thread
/// always takes the lock by an atomic operation with acquiring order that reads the releasing
/// exchange of the previous holder, so Thread Sanitizer sees every hand-over (`pthread_mutex_t`
/// was 40 bytes; `Synchronization.Mutex` hands a contended lock over inside the kernel, where
/// Thread Sanitizer cannot see it).
///
/// Not re-entrant, not fair: a woken thread competes with newcomers, as with a default
/// `pthread_mutex_t`. Never copied or moved once in place: it is reached through its address.
@usableFromInline
package struct WordLock {
    /// Touched only through the atomic operations below once in place.
    @usableFromInline var word: UInt32

    /// A free lock.
    @inlinable
    package init() { word = 0 }

    @inlinable @inline(__always)
    static func lock(_ lock: UnsafeMutablePointer<WordLock>) {
        let raw = UnsafeMutableRawPointer(lock)._rawValue
        let (_, taken) = Builtin.cmpxchg_acquire_monotonic_Int32(raw, UInt32(0)._value, UInt32(1)._value)
        if !Bool(taken) { lockContended(UnsafeMutableRawPointer(lock)) }
    }

    @inlinable @inline(__always)
    static func unlock(_ lock: UnsafeMutablePointer<WordLock>) {
        let raw = UnsafeMutableRawPointer(lock)._rawValue
        let previous = UInt32(Builtin.atomicrmw_xchg_release_Int32(raw, UInt32(0)._value))
        if previous == 2 { wakeSleepers(UnsafeMutableRawPointer(lock)) }
    }

    /// An `unlock` found that a thread may be sleeping: wake one of the lock's sleepers. Out of
    /// line, so that the inlined `unlock` stays an exchange and a branch.
    @usableFromInline @inline(never)
    static func wakeSleepers(_ lock: UnsafeMutableRawPointer) {
        ParkingLot.shared.wakeOne(waitingOn: lock)
    }

    /// The lock's word: 0 free, 1 held, 2 held with a thread perhaps sleeping (for tests: the
    /// answer may be stale at once).
    static func state(_ lock: UnsafeMutablePointer<WordLock>) -> UInt32 {
        UInt32(Builtin.atomicload_monotonic_Int32(UnsafeMutableRawPointer(lock)._rawValue))
    }

    /// Whether the lock is held (for tests: the answer may be stale at once).
    static func isLocked(_ lock: UnsafeMutablePointer<WordLock>) -> Bool {
        state(lock) != 0
    }

    /// The lock was taken: spin briefly (the holder's critical sections are short), then mark the
    /// word "a thread may be sleeping" and sleep until an `unlock` wakes this thread, until the
    /// exchange finds the lock free.
    @usableFromInline @inline(never)
    static func lockContended(_ lock: UnsafeMutableRawPointer) {
        let raw = lock._rawValue
        for _ in 0..<64 {
            if UInt32(Builtin.atomicload_monotonic_Int32(raw)) == 0 {
                let (_, taken) = Builtin.cmpxchg_acquire_monotonic_Int32(raw, UInt32(0)._value, UInt32(1)._value)
                if Bool(taken) { return }
            }
        }
        // From here on the word stays 2 while this thread holds the lock, so its `unlock` wakes
        // whoever went to sleep meanwhile.
        while UInt32(Builtin.atomicrmw_xchg_acquire_Int32(raw, UInt32(2)._value)) != 0 {
            ParkingLot.shared.sleep(on: lock) { UInt32(Builtin.atomicload_monotonic_Int32(raw)) == 2 }
        }
    }
}

#endif

/// Where threads that wait for a lock sleep (a `WordLock`, or a mailbox's turn word, which is its
/// lock: see `MailboxStorage`): a fixed table of buckets, chosen by the lock's address, each a
/// mutex and a queue of sleeping threads (of any lock that maps to the bucket). Made once per
/// process, never freed.
///
/// An `unlock` that found the word at 2 wakes one sleeper of its lock (the first in the queue),
/// as a futex-based mutex does: the woken thread sets the word back to 2 when it takes the lock
/// (or goes back to sleep), so the next `unlock` wakes the next sleeper.
///
/// No lost wake-up: a sleeper checks the lock's word under its bucket's mutex before it joins the
/// queue, and an `unlock` that saw 2 changes the word before it takes the same mutex to look for a
/// sleeper; so either the sleeper sees the word change and does not sleep, or it is already in the
/// queue when the waker looks.
@usableFromInline
final class ParkingLot: @unchecked Sendable {
    // @unchecked Sendable: `buckets` is written only in `init`; each bucket's queue, and each
    // sleeper in it, is touched only with that bucket's mutex held.

    @usableFromInline
    struct Bucket {
        var mutex = pthread_mutex_t()
        /// The sleeping threads, oldest first.
        var head: UnsafeMutablePointer<Sleeper>?
        var tail: UnsafeMutablePointer<Sleeper>?
    }

    /// One sleeping thread, in its bucket's queue; it lives on the sleeping thread's heap
    /// allocation until it is woken.
    @usableFromInline
    struct Sleeper {
        let address: UnsafeMutableRawPointer
        var next: UnsafeMutablePointer<Sleeper>?
        var isWoken = false
        var condition = pthread_cond_t()
    }

    /// A power of two.
    static let bucketCount = 64

    @usableFromInline static let shared = ParkingLot()

    let buckets: UnsafeMutablePointer<Bucket>

    private init() {
        buckets = .allocate(capacity: Self.bucketCount)
        buckets.initialize(repeating: Bucket(), count: Self.bucketCount)
        for index in 0..<Self.bucketCount {
            let status = pthread_mutex_init(&buckets[index].mutex, nil)
            precondition(
                status == 0,
                "Rivulet: the parking lot's pthread_mutex_init failed (\(status)); a waiting thread needs it (internal error)"
            )
        }
    }

    /// The bucket of the lock at `address`: the address's bits mixed (Fibonacci hashing), so that
    /// neighbouring locks land in different buckets.
    func bucket(for address: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Bucket> {
        let mixed = UInt(bitPattern: address) &* 0x9E37_79B9_7F4A_7C15
        return buckets + Int(truncatingIfNeeded: mixed >> (UInt.bitWidth - 6))
    }

    /// Sleeps, if `stillTaken` (a read of the lock's word) says so when checked under the
    /// bucket's mutex, until `wakeOne(waitingOn:)` picks this thread.
    @usableFromInline
    func sleep(on address: UnsafeMutableRawPointer, while stillTaken: () -> Bool) {
        let bucket = bucket(for: address)
        pthread_mutex_lock(&bucket.pointee.mutex)
        guard stillTaken() else {
            pthread_mutex_unlock(&bucket.pointee.mutex)
            return
        }
        let sleeper = UnsafeMutablePointer<Sleeper>.allocate(capacity: 1)
        sleeper.initialize(to: Sleeper(address: address))
        let status = pthread_cond_init(&sleeper.pointee.condition, nil)
        precondition(
            status == 0,
            "Rivulet: the parking lot's pthread_cond_init failed (\(status)); a waiting thread needs it (internal error)")
        if let tail = bucket.pointee.tail {
            tail.pointee.next = sleeper
        } else {
            bucket.pointee.head = sleeper
        }
        bucket.pointee.tail = sleeper
        while !sleeper.pointee.isWoken {
            pthread_cond_wait(&sleeper.pointee.condition, &bucket.pointee.mutex)
        }
        pthread_mutex_unlock(&bucket.pointee.mutex)
        pthread_cond_destroy(&sleeper.pointee.condition)
        sleeper.deinitialize(count: 1)
        sleeper.deallocate()
    }

    /// Wakes the longest-sleeping thread that waits on `address`, if any.
    @usableFromInline
    func wakeOne(waitingOn address: UnsafeMutableRawPointer) {
        let bucket = bucket(for: address)
        pthread_mutex_lock(&bucket.pointee.mutex)
        var previous: UnsafeMutablePointer<Sleeper>?
        var current = bucket.pointee.head
        while let sleeper = current {
            if sleeper.pointee.address == address {
                if let previous {
                    previous.pointee.next = sleeper.pointee.next
                } else {
                    bucket.pointee.head = sleeper.pointee.next
                }
                if bucket.pointee.tail == sleeper { bucket.pointee.tail = previous }
                sleeper.pointee.isWoken = true
                // Signalled with the mutex held: the sleeper cannot return (and free itself)
                // before the mutex is released below.
                pthread_cond_signal(&sleeper.pointee.condition)
                break
            }
            previous = sleeper
            current = sleeper.pointee.next
        }
        pthread_mutex_unlock(&bucket.pointee.mutex)
    }
}

/// Rivulet's one lock type: state that can only be touched inside `withLock`. The contract kit
/// uses it too (`package`), so that one lock, which Thread Sanitizer understands, serves both.
///
/// Rules for callers (contract O7): the closure only reads and writes `State`. It never calls user
/// code, never releases the last reference to a user object (return it and let it go after the
/// lock is released), and never takes another `Locked`.
@usableFromInline
package struct Locked<State> {
    @usableFromInline let storage: LockStorage<State>

    @inlinable
    package init(_ initialState: State) {
        storage = LockStorage.make(initialState)
    }

    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

// @unchecked Sendable: the only path to `State` is `withLock`, which holds `storage`'s lock, so
// two threads never touch the state at once; and the state may move between threads only because
// it is `Sendable` itself. A `Locked` whose state is not `Sendable` (closures, user values) stays
// on one thread unless its owner names the hand-off that makes sharing it safe.
extension Locked: @unchecked Sendable where State: Sendable {}
