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

/// The tail of a `MailboxStorage`'s allocation: the turn word, which is also the lock (see
/// `MailboxStorage`).
///
/// The turn word is the only stored property, so its address is the tail's (`AtomicLayoutTests`
/// checks it): `turn(_:)` reaches it without any Swift access to the property. Never copied once
/// in place.
@usableFromInline
package struct MailboxSynchronization {
    /// The owner of the turn, plus `MailboxStorage.slowPathBit`, `lockedBit` and `sleepersBit`.
    /// Only ever reached through `turn(_:)`.
    @usableFromInline package var turnWord: AtomicWordStorage

    @inlinable
    package init() {
        turnWord = AtomicWord.storage(0)
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
/// The turn word holds the turn's owner (a thread's identity, or 0) and three bits:
/// - the *slow-path bit*, set while anything needs the lock's attention
///   (`MailboxGuardedState.needsSlowPath`, or a turn being handed over);
/// - the *locked bit*: the word is also the lock that guards the state;
/// - the *sleepers bit*: a thread may be asleep waiting for the lock.
///
/// - An uncontended turn is claimed with one compare-and-swap (0 → its thread) and given back
///   with another (its thread → 0). Neither succeeds while any bit is set.
/// - Every other transition of the turn runs under the lock, through `withTurnLock`. Taking the
///   lock (one compare-and-swap setting the locked bit) also freezes the word: the two
///   compare-and-swaps above can no longer succeed, so the state machine can read and change the
///   owner freely. Giving the lock back is one exchange that stores the new owner, with the
///   slow-path bit set only if something still needs the lock. So a locked transition costs two
///   atomic read-modify-writes, where a separate lock cost three (lock, freeze, unlock).
///
/// Why this is safe:
/// - *Mutual exclusion of lock holders.* Only a compare-and-swap from a word without the locked
///   bit to the same word with it takes the lock; only its holder clears the bit.
/// - *The frozen word.* While the locked bit is set, nobody but the holder changes the owner or
///   the slow-path bit: both uncontended compare-and-swaps expect a word without flags, and a
///   thread going to sleep only adds the sleepers bit (by compare-and-swap, keeping the rest).
/// - *Mutual exclusion of owners.* The word names at most one thread. A thread becomes the owner
///   either by the idle claim (0 → thread: only one compare-and-swap can win) or under the lock
///   (the word frozen, so no idle claim can race it).
/// - *The owner's reads without the lock.* Fields that the owner reads without the lock (a
///   signal's observer list, a mailbox's handler) are written only by a thread that holds both the
///   lock and the turn, or holds the lock while the word says nobody owns the turn. So while a
///   thread owns the turn, nobody else writes them.
/// - *Visibility from one owner or lock holder to the next.* Every change of the word is a
///   read-modify-write with acquiring and releasing order (the idle claim acquiring, the idle
///   release releasing), and each reads the value the previous change wrote, so whoever takes
///   the turn or the lock sees everything written before the word was last changed.
/// - *No lost wake-up.* Work for the owner (a queued input, a waiting thread) is recorded only
///   under the lock, by `withTurnLock`, which leaves the slow-path bit set while the work waits.
///   The owner's idle release then fails (it expects the word without the bit) and the owner
///   takes the lock, where it finds the work. Debug builds check that `withLock` never creates
///   such work. A thread sleeps for the lock only while the word still has both the locked and
///   the sleepers bit (checked under the parking lot's mutex), and the unlocking exchange wakes
///   one sleeper whenever the word it replaced had the sleepers bit.
///
/// The rules of `Locked` hold for every body run under the lock (O7): it only touches the state,
/// never calls user code, never drops the last reference to a user object, never takes another lock.
@usableFromInline
package final class MailboxStorage<State: MailboxGuardedState>: ManagedBuffer<State, MailboxSynchronization> {
    @inlinable
    package static var slowPathBit: UInt { 1 }

    /// The bits of the turn word that are not the owner: the slow-path bit and the lock's.
    @inlinable
    package static var flagBits: UInt { slowPathBit | MailboxTurnWord.lockedBit | MailboxTurnWord.sleepersBit }

    /// This storage's address, to tell two signals or properties of one type apart in a report.
    @usableFromInline package var addressForDiagnostics: String {
        "0x" + String(UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()), radix: 16)
    }

    /// The turn word's owner (a `TurnOwner`'s raw value), read without the lock: for reports
    /// about a long wait (`DeadlockDiagnostics`), never for decisions.
    @usableFromInline package var turnOwnerForDiagnostics: UInt {
        withUnsafeMutablePointerToElements { MailboxSynchronization.turn($0).loadAcquiring() & ~Self.flagBits }
    }

    @inlinable
    package static func make(_ initialState: State) -> MailboxStorage {
        let buffer = create(minimumCapacity: 1) { _ in initialState }
        let storage = unsafeDowncast(buffer, to: MailboxStorage.self)
        storage.withUnsafeMutablePointerToElements { sync in
            sync.initialize(to: MailboxSynchronization())
        }
        LiveObjects.didCreateStorage(of: State.self)
        return storage
    }

    deinit {
        LiveObjects.didDestroyStorage(of: State.self)
        withUnsafeMutablePointers { state, sync in
            state.pointee.prepareForDeallocation(turnWord: MailboxSynchronization.turn(sync).loadRelaxed())
        }
        _ = withUnsafeMutablePointerToElements { sync in sync.deinitialize(count: 1) }
    }

    /// Whether `thread` holds the turn: it is running the handler or delivering, or sending from
    /// inside either.
    ///
    /// Only `thread` itself can make this true or false (it claims and gives back its own turn), so
    /// the answer is exact when `thread` is the calling thread.
    @inlinable
    package func isTurnHeld(by thread: ThreadID) -> Bool {
        withUnsafeMutablePointerToElements { sync in
            MailboxSynchronization.turn(sync).loadRelaxed() & ~Self.flagBits == thread.rawValue
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
            let turnWord = MailboxSynchronization.turn(sync)
            var owner = TurnOwner(rawValue: MailboxTurnWord.lock(turnWord) & ~Self.slowPathBit)
            let result = body(&state.pointee, &owner)
            let needsLock = owner == .handingOver || state.pointee.needsSlowPath
            MailboxTurnWord.unlock(turnWord, storing: owner.rawValue | (needsLock ? Self.slowPathBit : 0))
            return result
        }
    }

    /// Runs `body` under the lock, leaving the owner and the slow-path bit as they were: for
    /// reads, and for changes that cannot create work for the turn's owner. A change that can
    /// (queueing an input, waiting for the turn) must go through `withTurnLock`, which sets the
    /// slow-path bit; debug builds check.
    @inlinable
    package func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        withUnsafeMutablePointers { state, sync in
            let turnWord = MailboxSynchronization.turn(sync)
            let unlocked = MailboxTurnWord.lock(turnWord)
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
            MailboxTurnWord.unlock(turnWord, storing: unlocked)
            return result
        }
    }
}

/// The lock that a mailbox's turn word is (see `MailboxStorage`): not generic, so that taking and
/// giving it back inline into every transition without type metadata.
@usableFromInline
package enum MailboxTurnWord {
    /// The bit of the turn word that says the lock is held.
    @inlinable
    package static var lockedBit: UInt { 4 }

    /// The bit of the turn word that says a thread may be asleep waiting for the lock.
    @inlinable
    package static var sleepersBit: UInt { 8 }

    /// Takes the lock and returns the turn word as it was, without the lock's bits: one
    /// compare-and-swap when the lock is free.
    @inlinable @inline(__always)
    package static func lock(_ turnWord: AtomicWord) -> UInt {
        tryLock(turnWord) ?? lockContended(turnWord)
    }

    /// Takes the lock if it is free, setting `alsoSetting` too, and returns the turn word as it
    /// was; `nil` if the lock was held or the word changed meanwhile.
    @inlinable @inline(__always)
    static func tryLock(_ turnWord: AtomicWord, alsoSetting extraBits: UInt = 0) -> UInt? {
        let word = turnWord.loadRelaxed()
        guard word & lockedBit == 0,
            turnWord.compareExchangeAcquiringAndReleasing(expected: word, desired: word | lockedBit | extraBits).exchanged
        else { return nil }
        return word
    }

    /// Gives the lock back, storing `word` (an owner and the slow-path bit), and wakes a thread
    /// asleep for the lock, if any may be: one exchange.
    @inlinable @inline(__always)
    package static func unlock(_ turnWord: AtomicWord, storing word: UInt) {
        assert(word & (lockedBit | sleepersBit) == 0, "Rivulet: a turn word stored on unlocking kept a lock bit (internal error)")
        let replaced = turnWord.exchangeAcquiringAndReleasing(word)
        if replaced & sleepersBit != 0 { wakeSleeper(turnWord) }
    }

    /// The lock was taken: spin briefly (critical sections are short), then mark the word
    /// "a thread may be asleep" and sleep until an unlock wakes this thread, until the lock is
    /// taken. Taken after sleeping, the lock keeps the sleepers bit, so that its unlock wakes
    /// whoever went to sleep meanwhile.
    @usableFromInline @inline(never)
    static func lockContended(_ turnWord: AtomicWord) -> UInt {
        for _ in 0..<64 {
            if let word = tryLock(turnWord) { return word }
        }
        while true {
            // A free word never has the sleepers bit (every unlock clears it).
            if let word = tryLock(turnWord, alsoSetting: sleepersBit) { return word }
            let word = turnWord.loadRelaxed()
            guard word & lockedBit != 0 else { continue }
            if word & sleepersBit == 0,
                !turnWord.compareExchangeAcquiringAndReleasing(expected: word, desired: word | sleepersBit).exchanged
            {
                continue
            }
            let asleepWhile = word | sleepersBit
            ParkingLot.shared.sleep(on: turnWord.address) { turnWord.loadRelaxed() == asleepWhile }
        }
    }

    /// An unlock replaced a word with the sleepers bit: wake one thread asleep for the lock.
    @usableFromInline @inline(never)
    static func wakeSleeper(_ turnWord: AtomicWord) {
        ParkingLot.shared.wakeOne(waitingOn: turnWord.address)
    }
}
