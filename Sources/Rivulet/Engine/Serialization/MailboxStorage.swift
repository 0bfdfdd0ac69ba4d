#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who holds a mailbox's turn, as stored in its turn word: nobody, a thread, or a waiting thread
/// being handed the turn. The word's lowest bit is not part of it (see `MailboxStorage`).
@usableFromInline
package struct TurnOwner: Equatable {
    @usableFromInline package var rawValue: UInt

    @inlinable
    package init(rawValue: UInt) { self.rawValue = rawValue }

    @inlinable
    package init(_ thread: ThreadID) { rawValue = thread.rawValue }

    /// No thread holds the turn.
    @inlinable
    package static var none: TurnOwner { TurnOwner(rawValue: 0) }

    /// The turn is being passed to a waiting thread that has not woken yet. Never a thread's
    /// identity: those are aligned addresses.
    @inlinable
    package static var handingOver: TurnOwner { TurnOwner(rawValue: 2) }
}

/// State kept in a `MailboxStorage`: it says when the turn's owner must take the lock.
@usableFromInline
package protocol MailboxGuardedState {
    /// Whether giving the turn back must go through the lock: something waits for the owner's
    /// attention (queued inputs, waiting threads), or the state no longer takes the fast path.
    var needsSlowPath: Bool { get }

    /// Lets go of anything the state holds by hand, before the storage is freed.
    mutating func prepareForDeallocation()

    /// `prepareForDeallocation()`, for a state that keeps something in its turn word (a signal
    /// that shares another's turn keeps the way to it there: see `SharedTurnMember`).
    mutating func prepareForDeallocation(turnWord: UInt)
}

extension MailboxGuardedState {
    @inlinable
    package mutating func prepareForDeallocation() {}

    @inlinable
    package mutating func prepareForDeallocation(turnWord: UInt) {
        prepareForDeallocation()
    }
}

/// The tail of a `MailboxStorage`'s allocation: the turn word and the lock, side by side.
///
/// The turn word is the first stored property, so its address is the tail's (Swift lays out a
/// struct's stored properties in declaration order from offset 0; `AtomicLayoutTests` checks it):
/// `turn(_:)` reaches it without any Swift access to the property. Never copied once in place.
@usableFromInline
package struct MailboxSynchronization {
    /// The owner of the turn, plus `MailboxStorage.slowPathBit`. Only ever reached through
    /// `turn(_:)`.
    @usableFromInline package var turnWord: AtomicWordStorage
    @usableFromInline package var lock: PlatformLock

    @inlinable
    package init() {
        turnWord = AtomicWord.storage(0)
        lock = PlatformLock()
    }

    /// The turn word of the tail at `sync`.
    @inlinable @inline(__always)
    package static func turn(_ sync: UnsafeMutablePointer<MailboxSynchronization>) -> AtomicWord {
        AtomicWord(UnsafeMutableRawPointer(sync).assumingMemoryBound(to: AtomicWordStorage.self))
    }
}

/// The memory of every mailbox: its state (a `MailboxQueue` inside the client's own state machine)
/// guarded by a lock, plus an atomic *turn word* that says which thread holds the turn, all in one
/// allocation. Signal cores, properties and `Mailbox` are built on it; the rules of the turn are in
/// `MailboxQueue`.
///
/// The turn word holds the turn's owner (a thread's identity, or 0) and one more bit, the
/// *slow-path bit*, set while anything needs the lock's attention
/// (`MailboxGuardedState.needsSlowPath`, or a turn being handed over).
///
/// - An uncontended turn is claimed with one compare-and-swap (0 → its thread) and given back
///   with another (its thread → 0). Neither succeeds when the bit is set.
/// - Every other transition of the turn runs under the lock, through `withTurnLock`: it first
///   sets the bit, which freezes the word (the two compare-and-swaps above can no longer succeed),
///   so the state machine can read and change the owner freely; on the way out the word is stored
///   again, with the bit set only if something still needs the lock.
///
/// Why this is safe:
/// - *Mutual exclusion of owners.* The word names at most one thread. A thread becomes the owner
///   either by the idle claim (0 → thread: only one compare-and-swap can win) or inside
///   `withTurnLock` (under the lock, with the word frozen, so no idle claim can race it).
/// - *The owner's reads without the lock.* Fields that the owner reads without the lock (a
///   signal's observer list, a mailbox's handler) are written only by a thread that holds both the
///   lock and the turn, or holds the lock while the word says nobody owns the turn and is frozen.
///   So while a thread owns the turn, nobody else writes them.
/// - *Visibility from one owner to the next.* A turn given back by the idle release
///   (compare-and-swap with *releasing* order) is claimed by the idle claim (*acquiring* order),
///   so the next owner sees everything the previous one wrote. A turn given back or handed over
///   under the lock is ordered by the lock itself (and by the turnstile semaphore for a waiting
///   thread); `withTurnLock` stores the word with *releasing* order and freezes it with
///   *acquiring-and-releasing* order, so an idle claim after a locked transition sees that
///   transition's writes too.
/// - *No lost wake-up.* Work for the owner (a queued input, a waiting thread) is recorded only
///   under the lock, by `withTurnLock`, which leaves the bit set while the work waits. The owner's
///   idle release then fails (it expects the word without the bit) and the owner takes the lock,
///   where it finds the work. Debug builds check that `withLock` never creates such work.
///
/// The rules of `Locked` hold for every body run under the lock (O7): it only touches the state,
/// never calls user code, never drops the last reference to a user object, never takes another lock.
@usableFromInline
package final class MailboxStorage<State: MailboxGuardedState>: ManagedBuffer<State, MailboxSynchronization> {
    @inlinable
    package static var slowPathBit: UInt { 1 }

    /// This storage's address, to tell two signals or properties of one type apart in a report.
    @usableFromInline package var addressForDiagnostics: String {
        "0x" + String(UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()), radix: 16)
    }

    /// The turn word's owner (a `TurnOwner`'s raw value), read without the lock: for reports
    /// about a long wait (`DeadlockDiagnostics`), never for decisions.
    @usableFromInline package var turnOwnerForDiagnostics: UInt {
        withUnsafeMutablePointerToElements { MailboxSynchronization.turn($0).loadAcquiring() & ~Self.slowPathBit }
    }

    @inlinable
    package static func make(_ initialState: State) -> MailboxStorage {
        let buffer = create(minimumCapacity: 1) { _ in initialState }
        let storage = unsafeDowncast(buffer, to: MailboxStorage.self)
        storage.withUnsafeMutablePointerToElements { sync in
            sync.initialize(to: MailboxSynchronization())
            PlatformLocking.initialize(&sync.pointee.lock)
        }
        LiveObjects.didCreateStorage(of: State.self)
        return storage
    }

    deinit {
        LiveObjects.didDestroyStorage(of: State.self)
        withUnsafeMutablePointers { state, sync in
            state.pointee.prepareForDeallocation(turnWord: MailboxSynchronization.turn(sync).loadRelaxed())
        }
        withUnsafeMutablePointerToElements { sync in
            PlatformLocking.destroy(&sync.pointee.lock)
            sync.deinitialize(count: 1)
        }
    }

    /// Whether `thread` holds the turn: it is running the handler or delivering, or sending from
    /// inside either.
    ///
    /// Only `thread` itself can make this true or false (it claims and gives back its own turn), so
    /// the answer is exact when `thread` is the calling thread.
    @inlinable
    package func isTurnHeld(by thread: ThreadID) -> Bool {
        withUnsafeMutablePointerToElements { sync in
            MailboxSynchronization.turn(sync).loadRelaxed() & ~Self.slowPathBit == thread.rawValue
        }
    }

    // MARK: The uncontended path

    /// Takes the turn if nobody holds it and nothing needs the lock.
    @inlinable @inline(__always)
    package func claimTurnIfIdle(_ thread: ThreadID) -> Bool {
        withUnsafeMutablePointerToElements { sync in
            MailboxSynchronization.turn(sync).compareExchangeAcquiring(
                expected: 0, desired: thread.rawValue
            ).exchanged
        }
    }

    /// Gives the turn back if nothing happened meanwhile that needs the lock.
    @inlinable @inline(__always)
    package func releaseTurnIfUncontended(_ thread: ThreadID) -> Bool {
        withUnsafeMutablePointerToElements { sync in
            MailboxSynchronization.turn(sync).compareExchangeReleasing(
                expected: thread.rawValue, desired: 0
            ).exchanged
        }
    }

    // MARK: Under the lock

    /// Runs a transition of the state machine under the lock, with the turn word frozen: `body`
    /// gets the current owner and may change it.
    @inlinable
    package func withTurnLock<Result>(_ body: (inout State, inout TurnOwner) -> Result) -> Result {
        withUnsafeMutablePointers { state, sync in
            PlatformLocking.lock(&sync.pointee.lock)
            defer { PlatformLocking.unlock(&sync.pointee.lock) }
            var owner = Self.freezeTurnWord(sync)
            let result = body(&state.pointee, &owner)
            let needsLock = owner == .handingOver || state.pointee.needsSlowPath
            // Releasing: the next idle claim must see what this transition wrote.
            MailboxSynchronization.turn(sync).storeReleasing(owner.rawValue | (needsLock ? Self.slowPathBit : 0))
            return result
        }
    }

    /// Runs `body` under the lock, leaving the turn word alone: for reads, and for changes that
    /// cannot create work for the turn's owner. A change that can (queueing an input, waiting for
    /// the turn) must go through `withTurnLock`, which sets the slow-path bit; debug builds check.
    @inlinable
    package func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        withUnsafeMutablePointers { state, sync in
            PlatformLocking.lock(&sync.pointee.lock)
            defer { PlatformLocking.unlock(&sync.pointee.lock) }
            var neededSlowPath = false
            assert(
                {
                    neededSlowPath = state.pointee.needsSlowPath; return true
                }(), "Rivulet: the debug-only read of needsSlowPath returned false; it always returns true (internal error)")
            let result = body(&state.pointee)
            assert(
                neededSlowPath || !state.pointee.needsSlowPath,
                "Rivulet: work for the turn's owner was queued under withLock; such work must be queued under withTurnLock (internal error)"
            )
            return result
        }
    }

    /// Sets the slow-path bit (so that neither uncontended compare-and-swap can succeed) and
    /// returns the owner. Called with the lock held, so no other thread changes the word afterwards.
    @inlinable
    package static func freezeTurnWord(_ sync: UnsafeMutablePointer<MailboxSynchronization>) -> TurnOwner {
        let turnWord = MailboxSynchronization.turn(sync)
        var word = turnWord.loadAcquiring()
        while word & slowPathBit == 0 {
            let (exchanged, original) = turnWord.compareExchangeAcquiringAndReleasing(
                expected: word, desired: word | slowPathBit
            )
            if exchanged { break }
            word = original
        }
        return TurnOwner(rawValue: word & ~slowPathBit)
    }
}
