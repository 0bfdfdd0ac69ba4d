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
@usableFromInline
final class FlattenStartTrampoline {
    @usableFromInline
    struct State {
        /// The starts not yet run, in the order they were decided, and beside them their deciding
        /// threads. Objects rather than closures: a closure stored in an array (or a tuple) is
        /// reabstracted through a thunk whose context is allocated each time it goes in.
        @usableFromInline var starts: ContiguousArray<any FlattenDeferredStart> = []
        @usableFromInline var deciders: ContiguousArray<ThreadID> = []
        /// Threads inside `runAll`.
        @usableFromInline var runners: [ThreadID] = []

        @inlinable
        init() {}

        /// Takes out the oldest start decided by `thread`; if there is none, `thread` stops running.
        @inlinable
        mutating func next(on thread: ThreadID) -> (any FlattenDeferredStart)? {
            if let index = deciders.firstIndex(of: thread) {
                deciders.remove(at: index)
                return starts.remove(at: index)
            }
            runners.removeAll { $0 == thread }
            return nil
        }
    }

    // `state` guards `State`; `count` (the number of starts in it) lets every send skip the lock
    // when nothing waits. Its orderings only make the skip exact for the thread that added the
    // starts (which is the thread that runs them), and the lock orders everything else.

    /// The memory of `count`: the first stored property, never read or written directly after
    /// `init` (see AtomicWord.swift).
    @usableFromInline var countStorage = AtomicWord.storage(0)
    @usableFromInline let state = Locked(State())

    @inlinable
    var count: AtomicWord { AtomicWord(firstStoredPropertyOf: self) }

    @inlinable
    init() {}

    /// Records `start` for this thread; the caller runs `runAll()` after leaving the mailbox.
    @inlinable
    func add(_ start: any FlattenDeferredStart) {
        let thread = ThreadID.current
        state.withLock { state in
            state.starts.append(start)
            state.deciders.append(thread)
        }
        count.wrappingAddReleasing(1)
    }

    /// Runs the starts this thread decided, in order, unless this thread is already running them
    /// further up.
    @inlinable
    func runAll() {
        guard Int(bitPattern: count.loadAcquiring()) > 0 else { return }
        let thread = ThreadID.current
        let isNewRunner = state.withLock { state -> Bool in
            if state.runners.contains(thread) { return false }
            state.runners.append(thread)
            return true
        }
        guard isNewRunner else { return }
        while let start = state.withLock({ $0.next(on: thread) }) {
            count.wrappingSubtractRelaxed(1)
            start.run()
        }
    }
}

/// A start that a flattening has decided on and its trampoline runs (see `FlattenStartTrampoline`).
@usableFromInline
protocol FlattenDeferredStart: AnyObject {
    /// Starts the inner stream, unless the flattening no longer wants it.
    func run()
}
