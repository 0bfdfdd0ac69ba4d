import Dispatch

/// Who waits when an input arrives while another thread holds a mailbox's turn.
@usableFromInline
package enum MailboxPolicy: Sendable {
    /// The sender waits for the turn, then handles its input on its own thread before `send`
    /// returns: a signal's and a property's senders (E5, E7 strict, natural backpressure), and a
    /// scheduler's callback into a time-based stage (what it sends goes out on the scheduler).
    case waitForTurn
    /// The sender never waits: the input is queued, and the thread holding the turn handles it
    /// before giving the turn back. For inputs that must never block on other code: a time-based
    /// stage's upstream, an `on(…)` stage's end, and (next) activation channels (A9).
    case queueForOwner
}

/// Rivulet's one serializer: the rules of a mailbox's *turn*, kept inside the state machine of
/// every client (a signal's `DeliveryState`, a property's `PropertyState`, a `Mailbox`'s handler
/// state) and changed only under its `MailboxStorage`'s lock.
///
/// The rules:
/// - One thread at a time holds the turn, and only that thread handles inputs (E5). An input is
///   handled on the thread that holds the turn (E7).
/// - An input sent while nobody holds the turn is handled at once on the sending thread: the
///   sender takes the turn.
/// - An input sent by the turn's owner (re-entrant: a handler or an observer sending into its own
///   mailbox) is queued and handled by the owner right after the current one, in order (E6). Never
///   recursive, never a deadlock.
/// - An input sent from another thread while the turn is held follows the sender's
///   `MailboxPolicy`: `waitForTurn` blocks on the turnstile until the turn is handed over, then
///   handles its input on its own thread; `queueForOwner` queues it for the owner and returns.
/// - When the owner is done with an input it handles the queued ones first, then hands the turn to
///   one waiting thread (FIFO order is not promised among waiters: they race for the lock, as in a
///   mutex), then gives the turn back.
/// - The turnstile (a semaphore) is created at the first contention, once per mailbox, never per
///   input; the queue keeps its capacity, so a steady stream of re-entrant input allocates nothing.
///   Both live in a `MailboxBacklog`, made at the first queued input or contention, so that an
///   idle mailbox carries one empty reference for them.
///
/// Transitions only change state and return what the caller must do after the lock: handle an
/// input, wait on or signal the turnstile. Nothing here calls user code or releases the last
/// reference to a user object (O7).
@usableFromInline
package struct MailboxQueue<Input> {
    /// The queued inputs, the waiting threads and the turnstile: made when the first input is
    /// queued or the first thread waits, then kept. An idle mailbox (nearly every signal and
    /// property, nearly all the time) holds one empty reference here, 8 bytes instead of 32.
    @usableFromInline package var backlog: MailboxBacklog<Input>?

    @inlinable
    package init() {}

    /// Whether the owner has work besides its current input: a queued input or a waiting thread.
    @inlinable
    package var needsOwnerAttention: Bool {
        guard let backlog else { return false }
        return backlog.waiters > 0 || !backlog.queued.isEmpty
    }

    /// Threads blocked on the turnstile, waiting for the turn.
    @inlinable
    package var waiters: Int { backlog?.waiters ?? 0 }

    /// The queued inputs, as far as a client may look at them.
    @inlinable
    package var queued: QueuedInputs { QueuedInputs(count: backlog?.queued.count ?? 0) }

    /// How many inputs are queued.
    @usableFromInline
    package struct QueuedInputs {
        @usableFromInline package let count: Int

        @inlinable
        init(count: Int) { self.count = count }

        @inlinable
        package var isEmpty: Bool { count == 0 }
    }

    /// The backlog, made on first use.
    @inlinable
    mutating func makeBacklog() -> MailboxBacklog<Input> {
        if let backlog { return backlog }
        return makeFirstBacklog()
    }

    /// Makes the backlog. Out of line, so that code that may queue an input (a property's write,
    /// a signal's send) stays small enough to be inlined into its callers.
    @inlinable @inline(never)
    mutating func makeFirstBacklog() -> MailboxBacklog<Input> {
        let made = MailboxBacklog<Input>()
        backlog = made
        return made
    }

    // MARK: Taking the turn

    /// The result of asking for the turn.
    @usableFromInline
    package enum Claim {
        /// The caller now holds the turn; it ends its turn with `next`-style steps.
        case claimed
        /// The caller already held the turn (it is inside its own handler or emission).
        case alreadyHeld
        /// Another thread holds it: wait on the turnstile, then `resumeAfterWaiting`.
        case mustWait(DispatchSemaphore)
    }

    /// Takes the turn for `thread` if nobody holds it; otherwise registers `thread` as a waiter
    /// (unless it already holds the turn).
    @inlinable
    package mutating func claimTurn(on thread: ThreadID, owner: inout TurnOwner) -> Claim {
        switch owner {
        case .none:
            owner = TurnOwner(thread)
            return .claimed
        case TurnOwner(thread):
            return .alreadyHeld
        default:
            let backlog = makeBacklog()
            backlog.waiters += 1
            if backlog.turnstile == nil { backlog.turnstile = DispatchSemaphore(value: 0) }
            return .mustWait(backlog.turnstile.unsafelyUnwrapped)
        }
    }

    /// The result of sending an input.
    @usableFromInline
    package enum Submission {
        /// The caller took the turn: it handles its input now, then continues with `next`.
        case handleNow
        /// The input was queued for the owner; the caller is done.
        case queued
        /// Wait on the turnstile, then `resumeAfterWaiting` and handle the input.
        case mustWait(DispatchSemaphore)
    }

    /// Sends `input` from `thread`, following the rules above and `policy`.
    @inlinable
    package mutating func submit(
        _ input: Input, on thread: ThreadID, owner: inout TurnOwner, policy: MailboxPolicy
    ) -> Submission {
        if policy == .queueForOwner, owner != .none, owner != TurnOwner(thread) {
            makeBacklog().queued.append(input)
            return .queued
        }
        switch claimTurn(on: thread, owner: &owner) {
        case .claimed:
            return .handleNow
        case .alreadyHeld:
            makeBacklog().queued.append(input)
            return .queued
        case let .mustWait(turnstile):
            return .mustWait(turnstile)
        }
    }

    /// Queues `input` for the owner (the caller holds the turn, or knows that someone does).
    @inlinable
    package mutating func enqueue(_ input: Input) {
        makeBacklog().queued.append(input)
    }

    /// A waiting thread woke holding the turn.
    @inlinable
    package func resumeAfterWaiting(on thread: ThreadID, owner: inout TurnOwner) {
        guard owner == .handingOver else {
            preconditionFailure(
                "Rivulet: a thread woke for a turn that was not handed over (owner \(owner.rawValue)); a waiting thread wakes only when the turn is handed to it (internal error)"
            )
        }
        owner = TurnOwner(thread)
    }

    // MARK: Ending an input

    /// The next queued input, if any, for the owner to handle.
    @inlinable
    package mutating func popQueued() -> Input? {
        backlog?.queued.popFirst()
    }

    /// Hands the turn to a waiting thread, if there is one: the caller signals the returned
    /// turnstile and its turn is over.
    @inlinable
    package mutating func handOverToWaiter(owner: inout TurnOwner) -> DispatchSemaphore? {
        guard let backlog, backlog.waiters > 0, let turnstile = backlog.turnstile else { return nil }
        backlog.waiters -= 1
        owner = .handingOver
        return turnstile
    }

    /// What the owner does once it is done with an input.
    @usableFromInline
    package enum Step {
        /// Handle this queued input, then ask again.
        case handle(Input)
        /// Signal the turnstile: a waiting thread takes over. The caller's turn is over.
        case handOver(DispatchSemaphore)
        /// The turn is given back.
        case idle
    }

    /// The owner is done with an input: the next queued input, else a waiting thread, else idle.
    @inlinable
    package mutating func next(on thread: ThreadID, owner: inout TurnOwner) -> Step {
        guard owner == TurnOwner(thread) else {
            preconditionFailure(
                "Rivulet: a turn's step ran on a thread that does not hold the turn (owner \(owner.rawValue)); only the turn's owner steps (internal error)"
            )
        }
        if let input = backlog?.queued.popFirst() { return .handle(input) }
        if let turnstile = handOverToWaiter(owner: &owner) { return .handOver(turnstile) }
        owner = .none
        return .idle
    }

    /// Removes every queued input, for the caller to release after the lock.
    @inlinable
    package mutating func removeAllQueued() -> ContiguousArray<Input?> {
        backlog?.queued.removeAll() ?? []
    }
}

/// The part of a `MailboxQueue` that an idle mailbox does without: the inputs queued for the
/// turn's owner, the threads waiting for the turn, and the turnstile they wait on.
@usableFromInline
package final class MailboxBacklog<Input> {
    /// Inputs left for the turn's owner: re-entrant ones, and `queueForOwner` input from other
    /// threads. Keeps its capacity, so a steady stream of re-entrant input allocates nothing.
    // @exclusivity(unchecked): read and written only under the lock of the `MailboxStorage` whose
    // state holds this backlog (the `MailboxQueue` that owns it lives there), never by two threads
    // at once; a run-time exclusivity check would only cost time on every queued input.
    @exclusivity(unchecked) @usableFromInline package var queued = FIFOQueue<Input>()
    /// Threads blocked on `turnstile`, waiting for the turn (under the same lock).
    @exclusivity(unchecked) @usableFromInline package var waiters = 0
    /// Made at the first contention (under the same lock).
    @exclusivity(unchecked) @usableFromInline package var turnstile: DispatchSemaphore?

    @inlinable
    package init() {}
}
