#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Glitch-free batches of property changes.
///
/// In a diamond (`b` and `c` both derived from `a`, and `d = b.combineLatest(with: c)`), one change
/// of `a` normally makes `d` emit twice: once with the new `b` and the old `c` (a combination that
/// never existed, a *glitch*), then with both new. Inside `PropertyTransaction.perform`, every
/// write still takes effect and is emitted at once, and properties derived one-to-one (`map`,
/// `filter`, …) follow at once; but properties that *combine* others (`combineLatest`, `and`,
/// `or`, `all`, `any`) hold their change back until the block returns, and then take only their
/// final combination, deepest-last, so each emits at most once and never a mixed state.
///
/// A transaction belongs to the thread that runs it: writes from other threads are not batched.
/// Inside the block, a combining property's `value` still shows its combination from before the
/// transaction; it catches up, and emits, before `perform` returns.
public enum PropertyTransaction {
    /// Runs `body` as one transaction. Called inside another transaction on the same thread, it
    /// joins that one.
    ///
    /// - Parameter body: The writes to batch; called once, on the calling thread.
    /// - Returns: What `body` returns, once every combining property has caught up and emitted.
    public static func perform<Result>(_ body: () throws -> Result) rethrows -> Result {
        if TransactionContext.current != nil {
            return try body()
        }
        let context = TransactionContext()
        TransactionContext.current = context
        defer {
            // Still current while flushing: combinations that change because of a flush are
            // coalesced into the same transaction.
            context.flush()
            TransactionContext.current = nil
        }
        return try body()
    }

    /// Whether the current thread is inside a transaction.
    public static var isActive: Bool {
        TransactionContext.current != nil
    }
}

/// The pending work of one thread's transaction. Only its own thread touches it.
@usableFromInline
final class TransactionContext {
    private var pending: [(rank: Int, publish: () -> Void)] = []

    /// Publishes deferred combinations, the shallowest first, until none is left.
    func flush() {
        while let index = pending.indices.min(by: { pending[$0].rank < pending[$1].rank }) {
            let next = pending.remove(at: index)
            next.publish()
        }
    }

    @usableFromInline
    func postpone(rank: Int, _ publish: @escaping () -> Void) {
        pending.append((rank, publish))
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(
            status == 0,
            "Rivulet: pthread_key_create failed with \(status) for property transactions; transactions need a thread-specific key (internal error)"
        )
        return key
    }()

    @usableFromInline
    static var current: TransactionContext? {
        get {
            pthread_getspecific(key).map { Unmanaged<TransactionContext>.fromOpaque($0).takeUnretainedValue() }
        }
        set {
            if let old = pthread_getspecific(key) {
                Unmanaged<TransactionContext>.fromOpaque(old).release()
            }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
        }
    }
}

/// Feeds a combining property's storage: at once outside a transaction, and once at the end of a
/// transaction (with the final combination) inside one.
@usableFromInline
final class CoalescingWriter<Value>: @unchecked Sendable {
    // @unchecked Sendable: `state` is a `Locked`, through which the latest combination is handed
    // from the writing thread to the one that publishes it (a hand-off of values not required to
    // be `Sendable`); `storage` and `rank` are immutable.
    @usableFromInline
    struct State {
        @usableFromInline var latest: Value?
        @usableFromInline var awaitsFlush = false

        @inlinable
        init() {}
    }

    @usableFromInline let state = Locked(State())
    @usableFromInline let storage: PropertyStorage<Value>
    @usableFromInline let rank: Int

    @inlinable
    init(storage: PropertyStorage<Value>, rank: Int) {
        self.storage = storage
        self.rank = rank
    }

    @inlinable
    func receive(_ value: Value) {
        var displaced: Value? = value
        let context = storage.hasValue ? TransactionContext.current : nil
        let mustDefer = state.withLock { state -> Bool in
            swap(&state.latest, &displaced)
            guard context != nil, !state.awaitsFlush else { return false }
            state.awaitsFlush = true
            return true
        }
        displaced = nil
        if let context {
            if mustDefer { context.postpone(rank: rank) { [self] in publish() } }
        } else {
            publish()
        }
    }

    /// Writes the latest combination, if not written yet. Taking it while holding the storage's
    /// write turn keeps a transaction's flush and another thread's write in one order.
    @inlinable
    func publish() {
        storage.setTaking {
            state.withLock { state in
                state.awaitsFlush = false
                return state.latest.take()
            }
        }
    }
}

extension PropertyStorage {
    /// Takes the next value from `take` while holding the write turn, and writes it, if any.
    @inlinable
    func setTaking(_ take: () -> Value?) {
        withTurn { reentrant in
            var incoming = take()
            guard incoming != nil else { return ((), nil) }
            let change = state.withTurnLock { state, _ in state.write(&incoming, reentrant: reentrant) }
            return ((), change)
        }
    }
}
