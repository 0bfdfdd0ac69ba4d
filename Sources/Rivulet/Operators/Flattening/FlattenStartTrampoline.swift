/// The inner streams a flattening has decided to start, each started by the thread that decided
/// it, once that thread has left the mailbox: every send into the mailbox is followed by `runAll()`.
///
/// An inner stream started while the mailbox's turn is held would have everything it sends
/// synchronously queued until its start returns: its values would reach downstream only after
/// it has finished, and nothing downstream (say `take(first:)`) could stop it, even if it never
/// ends. Started outside the turn, it delivers each value as it sends it (E7) and stops as soon
/// as the result is disposed of (P4).
///
/// This is a trampoline, not a serializer: a thread runs only the starts it decided itself (the
/// mailbox runs the flattening's state machine on the sending thread, so the deciding thread is
/// the one that sent), and two threads run theirs at the same time, as ReactiveSwift starts an
/// inner stream on the thread that sent the outer value. A start decided while its thread is
/// already running starts further up (an inner stream that completes synchronously, in `.concat`)
/// is left to that loop, so a chain of synchronous inner streams starts iteratively, never
/// recursively. Each start stays on the thread that made it.
///
/// The common case (one thread decides a start, runs it, and nothing else is pending) takes no
/// lock: a *slot* holds one start, owned by the thread that put it there. The slot's word is 0
/// (free) or the owner's `ThreadID` with `pendingBit` (a start waits in `slotStart`) and
/// `runningBit` (the owner is running starts, and nested calls leave new ones to that loop). Only
/// the owner reads or writes `slotStart`, and only the owner changes a word that names it; a
/// thread takes a free slot with one compare-and-swap. Starts that find the slot taken, or that a
/// thread decides while starts of any thread wait in the list, go to the locked list, as before.
/// A thread's start goes into the slot only when the list is empty, so its slot start is always
/// older than its listed ones, and the loop takes the slot first: each thread's starts still run
/// in the order it decided them.
@usableFromInline
final class FlattenStartTrampoline {
    @usableFromInline
    struct State {
        /// The starts not yet run, in the order they were decided, and beside them their deciding
        /// threads. Objects rather than closures: a closure stored in an array (or a tuple) is
        /// reabstracted through a thunk whose context is allocated each time it goes in.
        @usableFromInline var starts: ContiguousArray<any FlattenDeferredStart> = []
        @usableFromInline var deciders: ContiguousArray<ThreadID> = []
        /// Threads inside `runAll` on the locked path.
        @usableFromInline var runners: [ThreadID] = []

        @inlinable
        init() {}

        /// Takes out the oldest start decided by `thread`, if any.
        @inlinable
        mutating func takeOldest(decidedBy thread: ThreadID) -> (any FlattenDeferredStart)? {
            guard let index = deciders.firstIndex(of: thread) else { return nil }
            deciders.remove(at: index)
            return starts.remove(at: index)
        }
    }

    // `count` is the number of starts in the list, `slot` the slot's word, `slowRunners` the
    // number of threads running starts on the locked path. Each thread reads the three for its own
    // sake only: its own starts and its own running are changed by itself alone, so what it reads
    // about itself is exact, whatever other threads do meanwhile; the lock orders the rest.

    /// The memory of `count`, `slot` and `slowRunners`: the first stored property, never read or
    /// written directly after `init` (see AtomicWord.swift).
    @usableFromInline var atomicsStorage = FlattenTrampolineAtomics()
    /// The slot's start; read and written only by the thread that `slot` names.
    @exclusivity(unchecked) @usableFromInline var slotStart: (any FlattenDeferredStart)?
    @usableFromInline let state = Locked(State())

    /// `slot`'s flag: a start waits in `slotStart`.
    @inlinable static var pendingBit: UInt { 0b01 }
    /// `slot`'s flag: the owner is running starts.
    @inlinable static var runningBit: UInt { 0b10 }

    @inlinable
    var count: AtomicWord {
        AtomicWord(_getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: AtomicWordStorage.self))
    }

    @inlinable
    var slot: AtomicWord {
        AtomicWord(
            _getUnsafePointerToStoredProperties(self).advanced(by: FlattenTrampolineAtomics.slotOffset)
                .assumingMemoryBound(to: AtomicWordStorage.self))
    }

    @inlinable
    var slowRunners: AtomicWord {
        AtomicWord(
            _getUnsafePointerToStoredProperties(self).advanced(by: FlattenTrampolineAtomics.slowRunnersOffset)
                .assumingMemoryBound(to: AtomicWordStorage.self))
    }

    @inlinable
    init() {}

    /// Records `start` for this thread; the caller runs `runAll()` after leaving the mailbox.
    @inlinable
    func add(_ start: any FlattenDeferredStart) {
        let thread = ThreadID.current.rawValue
        // No start waits in the list, so none of this thread's: the slot keeps the order.
        if count.loadAcquiring() == 0 {
            let word = slot.loadAcquiring()
            if word == 0, slot.compareExchangeAcquiring(expected: 0, desired: thread | Self.pendingBit).exchanged {
                slotStart = start
                return
            }
            if word == thread | Self.runningBit {
                // This thread's own loop, further up, will take it.
                slotStart = start
                slot.storeRelaxed(thread | Self.runningBit | Self.pendingBit)
                return
            }
        }
        state.withLock { state in
            state.starts.append(start)
            state.deciders.append(ThreadID(rawValue: thread))
        }
        count.wrappingAddReleasing(1)
    }

    /// Runs the starts this thread decided, in order, unless this thread is already running them
    /// further up. Inlined where it is called: after most sends no start waits at all (the slot
    /// may be held by a thread running its start, whose inner stream is sending), and two loads
    /// say so.
    @inlinable @inline(__always)
    func runAll() {
        guard count.loadAcquiring() != 0 || slot.loadAcquiring() & Self.pendingBit != 0 else { return }
        runDecidedStarts()
    }

    @usableFromInline @inline(never)
    func runDecidedStarts() {
        let thread = ThreadID.current.rawValue
        let word = slot.loadAcquiring()
        let ownsSlot = word & ~(Self.pendingBit | Self.runningBit) == thread
        if ownsSlot, word & Self.runningBit != 0 { return }
        guard ownsSlot || count.loadAcquiring() != 0 else { return }
        // With no thread on the locked path, this one is not running starts further up.
        let isSlotRunner = ownsSlot && slowRunners.loadAcquiring() == 0
        if isSlotRunner {
            slot.storeRelaxed(word | Self.runningBit)
        } else {
            let isNewRunner = state.withLock { state -> Bool in
                if state.runners.contains(ThreadID(rawValue: thread)) { return false }
                state.runners.append(ThreadID(rawValue: thread))
                return true
            }
            guard isNewRunner else { return }
            slowRunners.wrappingAddRelaxed(1)
        }
        while let start = next(on: thread, ownsSlotWhileRunning: isSlotRunner) {
            start.run()
        }
        if isSlotRunner {
            slot.storeReleasing(0)
        } else {
            slowRunners.wrappingSubtractRelaxed(1)
            state.withLock { state in state.runners.removeAll { $0.rawValue == thread } }
        }
    }

    /// Takes out this thread's oldest start: the slot's, then the list's.
    @inlinable
    func next(on thread: UInt, ownsSlotWhileRunning: Bool) -> (any FlattenDeferredStart)? {
        let word = slot.loadAcquiring()
        if word & ~(Self.pendingBit | Self.runningBit) == thread, word & Self.pendingBit != 0 {
            let start = slotStart.take()
            slot.storeReleasing(ownsSlotWhileRunning ? thread | Self.runningBit : 0)
            return start
        }
        guard count.loadAcquiring() != 0 else { return nil }
        let start = state.withLock { $0.takeOldest(decidedBy: ThreadID(rawValue: thread)) }
        if start != nil { count.wrappingSubtractRelaxed(1) }
        return start
    }
}

/// The atomics of a `FlattenStartTrampoline`, its first stored property: `count`, `slot` and
/// `slowRunners`, in this order (`AtomicLayoutTests` checks the offsets).
@usableFromInline
struct FlattenTrampolineAtomics {
    @usableFromInline var count = AtomicWordStorage(0)
    @usableFromInline var slot = AtomicWordStorage(0)
    @usableFromInline var slowRunners = AtomicWordStorage(0)

    @inlinable
    init() {}

    /// The offset of `slot`.
    @inlinable
    static var slotOffset: Int { MemoryLayout<AtomicWordStorage>.stride }

    /// The offset of `slowRunners`.
    @inlinable
    static var slowRunnersOffset: Int { 2 * MemoryLayout<AtomicWordStorage>.stride }
}

/// A start that a flattening has decided on and its trampoline runs (see `FlattenStartTrampoline`).
@usableFromInline
protocol FlattenDeferredStart: AnyObject {
    /// Starts the inner stream, unless the flattening no longer wants it.
    func run()
}
