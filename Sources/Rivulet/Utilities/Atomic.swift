#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock, read and changed one thread at a time (ReactiveSwift's `Atomic`).
///
/// Every access takes the lock, so a `modify` closure sees and changes the value with no other
/// thread in between. The closures of `modify` and `withValue` run while the lock is held: keep
/// them short, and never touch the same `Atomic` from inside them. Doing so is a programming
/// error that stops the program with a message naming the method (the lock is not re-entrant),
/// rather than a deadlock.
///
/// `Atomic` is `Sendable` when its value is: a non-`Sendable` value read on one thread and
/// changed on another would be shared, lock or not.
///
/// - Note: The standard library's `Synchronization` module also has an `Atomic` type; a file
///   that imports both modules names them `Rivulet.Atomic` and `Synchronization.Atomic`.
public final class Atomic<Value> {
    private let storage: AtomicStorage<Value>

    /// An `Atomic` holding `value`.
    ///
    /// - Parameter value: The initial value.
    public init(_ value: Value) {
        storage = AtomicStorage.make(value)
    }

    /// The current value. Setting it replaces the value atomically; to change it based on the
    /// value it had, use `modify(_:)`, since a read followed by a write lets another thread in
    /// between.
    public var value: Value {
        get { storage.withLock("value") { $0 } }
        set { storage.withLock("value") { $0 = newValue } }
    }

    /// Runs `action` with the value, under the lock, and stores what `action` leaves in it.
    ///
    /// - Parameter action: Changes the value in place; runs while the lock is held.
    /// - Returns: What `action` returns.
    @discardableResult
    public func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock("modify(_:)", action)
    }

    /// Runs `action` with the value, under the lock, without changing it.
    ///
    /// - Parameter action: Reads the value; runs while the lock is held.
    /// - Returns: What `action` returns.
    @discardableResult
    public func withValue<Result>(_ action: (Value) throws -> Result) rethrows -> Result {
        try storage.withLock("withValue(_:)") { try action($0) }
    }

    /// Replaces the value with `newValue` atomically.
    ///
    /// - Parameter newValue: The value to store.
    /// - Returns: The value it had before.
    @discardableResult
    public func swap(_ newValue: Value) -> Value {
        storage.withLock("swap(_:)") { value in
            let old = value
            value = newValue
            return old
        }
    }
}

// @unchecked Sendable: the value is only reached through `AtomicStorage.withLock`, which holds the
// storage's mutex, and it may cross threads because it is `Sendable` itself.
extension Atomic: @unchecked Sendable where Value: Sendable {}

/// The value and its lock in one allocation. On Linux the mutex checks for re-entrant locking so
/// that misuse stops with a message; on Apple platforms `os_unfair_lock` stops the program on its
/// own when a thread locks it twice.
private final class AtomicStorage<Value>: ManagedBuffer<Value, PlatformMutex> {
    static func make(_ value: Value) -> AtomicStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: AtomicStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
            let status = pthread_mutex_init(lock, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(status == 0, "Rivulet: Atomic: pthread_mutex_init failed with \(status)")
            #endif
        }
        return storage
    }

    func withLock<Result>(_ method: StaticString, _ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, lock in
            #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            let status = pthread_mutex_lock(lock)
            precondition(
                status == 0,
                "Rivulet: Atomic.\(method): the same Atomic is already locked by this thread (its lock is not re-entrant: do not use an Atomic from inside its own modify or withValue)"
            )
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&value.pointee)
        }
    }

    deinit {
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
        }
    }
}
