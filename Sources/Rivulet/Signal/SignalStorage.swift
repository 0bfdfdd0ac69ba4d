#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Who holds a signal's delivery turn, as stored in the turn word: nobody, a thread, or a waiting
/// thread being handed the turn. The word's lowest bit is not part of it (see `SignalStorage`).
@usableFromInline
struct TurnOwner: Equatable {
    @usableFromInline var rawValue: UInt

    @inlinable
    init(rawValue: UInt) { self.rawValue = rawValue }

    @inlinable
    init(_ thread: ThreadID) { rawValue = thread.rawValue }

    /// No thread is delivering.
    @inlinable
    static var none: TurnOwner { TurnOwner(rawValue: 0) }

    /// The turn is being passed to a waiting thread that has not woken yet. Never a thread's
    /// identity: those are aligned addresses.
    @inlinable
    static var handingOver: TurnOwner { TurnOwner(rawValue: 2) }
}

/// The tail of a signal core's allocation: the turn word and the lock, side by side.
@usableFromInline
struct SignalSynchronization: ~Copyable {
    /// The owner of the delivery turn, plus `SignalStorage.slowPathBit`.
    @usableFromInline let turnWord: Atomic<UInt>
    @usableFromInline var lock: PlatformLock

    @inlinable
    init() {
        turnWord = Atomic(0)
        lock = PlatformLock()
    }
}

/// A signal core's one allocation: the delivery state in the header, then the turn word and the
/// lock that guard it.
///
/// The turn word lets an uncontended send skip the lock. It holds the owner of the delivery turn
/// (a thread's identity, or 0) and one more bit, the *slow-path bit*, set while anything needs
/// the lock's attention: events queued by re-entrant sends, threads waiting for the turn, observer
/// changes made while a turn was held, a terminal event, or a turn being handed over.
///
/// - A send with no contention claims the turn with one compare-and-swap (0 → its thread), delivers,
///   and gives the turn back with another (its thread → 0). Neither succeeds when the bit is set.
/// - Everything else runs under the lock, through `withTurnLock`: it first sets the bit, which
///   freezes the word (the two compare-and-swaps above can no longer succeed), so the state
///   machine can read and change the owner freely; on the way out the word is stored again, with
///   the bit set only if something still needs the lock.
///
/// The observer list is written only by the turn's owner while it also holds the lock (or by a
/// lock holder that found no owner, which is the same thing), so the owner may read it without the
/// lock: that is how a delivery runs with no lock and no copy of the list.
@usableFromInline
final class SignalStorage<Value, Error: Swift.Error>: ManagedBuffer<DeliveryState<Value, Error>, SignalSynchronization> {
    @usableFromInline typealias State = DeliveryState<Value, Error>

    @inlinable
    static var slowPathBit: UInt { 1 }

    @inlinable
    static func make(resources: (any Disposable)?) -> SignalStorage {
        let buffer = create(minimumCapacity: 1) { _ in State(resources: resources) }
        let storage = unsafeDowncast(buffer, to: SignalStorage.self)
        storage.withUnsafeMutablePointerToElements { sync in
            sync.initialize(to: SignalSynchronization())
            PlatformLocking.initialize(&sync.pointee.lock)
        }
        return storage
    }

    deinit {
        // Attachments keep the storage alive, so the list is empty here; release it regardless,
        // as it holds its first observer by hand.
        withUnsafeMutablePointerToHeader { _ = $0.pointee.observers.removeAll() }
        withUnsafeMutablePointerToElements { sync in
            PlatformLocking.destroy(&sync.pointee.lock)
            sync.deinitialize(count: 1)
        }
    }

    // MARK: The uncontended path

    /// Takes the turn if nobody holds it and nothing needs the lock.
    @inlinable @inline(__always)
    func claimTurnIfIdle(_ thread: ThreadID) -> Bool {
        withUnsafeMutablePointerToElements { sync in
            sync.pointee.turnWord.compareExchange(
                expected: 0, desired: thread.rawValue, ordering: .acquiring
            ).exchanged
        }
    }

    /// Gives the turn back if nothing happened meanwhile that needs the lock.
    @inlinable @inline(__always)
    func releaseTurnIfUncontended(_ thread: ThreadID) -> Bool {
        withUnsafeMutablePointerToElements { sync in
            sync.pointee.turnWord.compareExchange(
                expected: thread.rawValue, desired: 0, ordering: .releasing
            ).exchanged
        }
    }

    /// Delivers `event` to every attached observer, on the turn's owner, with no lock held (O7).
    ///
    /// Only the turn's owner may call this: nothing changes the observer list while it holds the
    /// turn (changes wait in `pendingChanges`), so the list is read in place, without a copy.
    @inlinable @inline(__always)
    func deliverAsTurnOwner(_ event: Signal<Value, Error>.Event) {
        // Plain reads through the pointer, never an `inout` access: Thread Sanitizer treats an
        // `inout` access as a write to the whole state, which would race (on paper) with the lock
        // holders' `inout` access in `withTurnLock`. The fields read here are written only by
        // the turn's owner, so the real memory accesses never race.
        withUnsafeMutablePointerToHeader { state in
            guard let first = state.pointee.observers.first else { return }
            first._withUnsafeGuaranteedRef { $0.deliver(event) }
            if state.pointee.observers.rest.isEmpty { return }
            state.pointee.observers.rest.withUnsafeBufferPointer { ObserverList.deliver(event, toEach: $0) }
        }
    }

    // MARK: Under the lock

    /// Runs a transition of the state machine under the lock, with the turn word frozen: `body`
    /// gets the current owner and may change it.
    @inlinable
    func withTurnLock<Result>(_ body: (inout State, inout TurnOwner) -> Result) -> Result {
        withUnsafeMutablePointers { state, sync in
            PlatformLocking.lock(&sync.pointee.lock)
            defer { PlatformLocking.unlock(&sync.pointee.lock) }
            var owner = Self.freezeTurnWord(sync)
            let result = body(&state.pointee, &owner)
            let needsLock = owner == .handingOver || state.pointee.needsSlowPath
            // Releasing: the next uncontended claim must see what this transition wrote.
            sync.pointee.turnWord.store(owner.rawValue | (needsLock ? Self.slowPathBit : 0), ordering: .releasing)
            return result
        }
    }

    /// Reads the state under the lock, leaving the turn word alone.
    @inlinable
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        withUnsafeMutablePointers { state, sync in
            PlatformLocking.lock(&sync.pointee.lock)
            defer { PlatformLocking.unlock(&sync.pointee.lock) }
            return body(&state.pointee)
        }
    }

    /// Sets the slow-path bit (so that neither uncontended compare-and-swap can succeed) and
    /// returns the owner. Called with the lock held, so no other thread changes the word afterwards.
    @inlinable
    static func freezeTurnWord(_ sync: UnsafeMutablePointer<SignalSynchronization>) -> TurnOwner {
        var word = sync.pointee.turnWord.load(ordering: .acquiring)
        while word & slowPathBit == 0 {
            let (exchanged, original) = sync.pointee.turnWord.compareExchange(
                expected: word, desired: word | slowPathBit, ordering: .acquiringAndReleasing
            )
            if exchanged { break }
            word = original
        }
        return TurnOwner(rawValue: word & ~slowPathBit)
    }
}
