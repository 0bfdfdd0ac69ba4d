#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if canImport(Darwin)
@usableFromInline package typealias PlatformLock = os_unfair_lock
#else
@usableFromInline package typealias PlatformLock = pthread_mutex_t
#endif

/// The storage behind `Locked`: the protected state and the platform lock in one allocation.
///
/// State lives in the buffer's header and is reached through a pointer, so access needs no
/// dynamic exclusivity check. The lock is a platform primitive (`pthread_mutex_t` or
/// `os_unfair_lock`) rather than `Synchronization.Mutex` because Thread Sanitizer understands the
/// platform primitives and reports false races on `Mutex` under contention on Linux.
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

/// The platform lock's four operations, shared by `LockStorage` and `TurnLockStorage` (which
/// keeps its lock next to an atomic turn word).
@usableFromInline
enum PlatformLocking {
    @inlinable
    static func initialize(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
        #else
        lock.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(lock, nil)
        precondition(
            status == 0, "Rivulet: pthread_mutex_init failed with \(status); a lock needs an initialised mutex (internal error)")
        #endif
    }

    @inlinable
    static func lock(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        #else
        pthread_mutex_lock(lock)
        #endif
    }

    @inlinable
    static func unlock(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(lock)
        #else
        pthread_mutex_unlock(lock)
        #endif
    }

    @inlinable
    static func destroy(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if !canImport(Darwin)
        pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
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

// @unchecked Sendable: the only path to `State` is `withLock`, which holds `storage`'s mutex, so
// two threads never touch the state at once; and the state may move between threads only because
// it is `Sendable` itself. A `Locked` whose state is not `Sendable` (closures, user values) stays
// on one thread unless its owner names the hand-off that makes sharing it safe.
extension Locked: @unchecked Sendable where State: Sendable {}
