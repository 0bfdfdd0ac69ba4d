import Synchronization

/// The inner streams a flattening has decided to start, started by the deciding thread once it
/// has left the inbox: every send into the inbox is followed by `runAll()`.
///
/// An inner stream started while the inbox's turn is held would have everything it sends
/// synchronously queued until its start returns: its values would reach downstream only after
/// it has finished, and nothing downstream (say `take(first:)`) could stop it, even if it never
/// ends. Started outside the turn, it delivers each value as it sends it (E7) and stops as soon
/// as the result is disposed of (P4).
@usableFromInline
final class FlattenPendingStarts {
    @usableFromInline
    struct State {
        @usableFromInline var starts = FIFOQueue<() -> Void>()
        /// Threads inside `runAll`: a nested call leaves its work to the loop below it, so that a
        /// chain of synchronous inner streams (`.concat`) starts iteratively, never recursively.
        @usableFromInline var runners: [ThreadID] = []

        @inlinable
        init() {}
    }

    // Both guard `State`; `count` lets every send skip the lock when nothing waits.
    @usableFromInline let state = Locked(State())
    @usableFromInline let count = Atomic<Int>(0)

    @inlinable
    init() {}

    /// Queues `start`; the caller runs `runAll()` after leaving the inbox.
    @inlinable
    func add(_ start: @escaping () -> Void) {
        state.withLock { $0.starts.append(start) }
        count.wrappingAdd(1, ordering: .releasing)
    }

    /// Runs the queued starts in order, unless this thread is already running them further up.
    @inlinable
    func runAll() {
        guard count.load(ordering: .acquiring) > 0 else { return }
        let thread = ThreadID.current
        let isNewRunner = state.withLock { state -> Bool in
            if state.runners.contains(thread) { return false }
            state.runners.append(thread)
            return true
        }
        guard isNewRunner else { return }
        while let start = next(on: thread) {
            start()
        }
    }

    @inlinable func next(on thread: ThreadID) -> (() -> Void)? {
        let start = state.withLock { state -> (() -> Void)? in
            if let start = state.starts.popFirst() { return start }
            state.runners.removeAll { $0 == thread }
            return nil
        }
        if start != nil { count.wrappingSubtract(1, ordering: .relaxed) }
        return start
    }
}
