import Dispatch

/// The state machine behind every mutable or composed property: its value, and the mailbox whose
/// turn is the *write turn* that keeps writes and their emissions in one order. A plain struct,
/// mutated only under `PropertyStorage`'s lock (a `MailboxStorage`, which lets an uncontended
/// write claim and give back the turn without the lock); each transition returns what the caller
/// does after the lock.
///
/// The turn follows `MailboxQueue`'s rules with the `waitForTurn` policy; the mailbox's inputs are
/// the changes to emit. What a property adds:
/// - Only the turn's holder writes the value and emits changes, so observers see the changes in
///   exactly the order the value took them (R2), and a change is visible before it is emitted.
/// - A write from the holder (an observer setting the property it observes, or a write inside
///   `modify`) takes effect at once, so `value` reads back what was written; its emission is
///   queued and made by the holder right after the current one (E6: never recursive).
/// - A write from another thread waits for the turn, then takes effect and is emitted on its own
///   thread before the write returns (E7).
/// - A producer started during an emission begins from the value being emitted, so the changes
///   queued after it reach the new observer exactly once, in order.
@usableFromInline
struct PropertyState<Value> {
    @usableFromInline typealias Event = Signal<Value, Never>.Event

    /// `nil` only while a composed property waits for its source's first value.
    @usableFromInline var value: Value?
    /// Changes already written but not yet emitted (and the end, if it came while busy), and the
    /// threads waiting for the turn.
    @usableFromInline var mailbox = MailboxQueue<Event>()
    /// How many of the queued changes are values: an observer attached now skips them, having been
    /// given the latest value already.
    @usableFromInline var pendingValues = 0
    @usableFromInline var hasEnded = false

    @inlinable
    init(value: Value?) {
        self.value = value
    }

    // MARK: Taking the turn

    @inlinable
    mutating func claim(on thread: ThreadID, owner: inout TurnOwner) -> MailboxQueue<Event>.Claim {
        mailbox.claimTurn(on: thread, owner: &owner)
    }

    /// A waiting thread woke holding the turn.
    @inlinable
    mutating func resume(on thread: ThreadID, owner: inout TurnOwner) {
        mailbox.resumeAfterWaiting(on: thread, owner: &owner)
    }

    // MARK: Writing (the caller holds the turn)

    /// Makes `newValue` the value. Returns the change to emit now, or `nil` if it was queued behind
    /// the changes already waiting (always so for a re-entrant writer) or the property has ended.
    ///
    /// On return `newValue` holds the displaced value, for the caller to release after the lock.
    @inlinable
    mutating func write(_ newValue: inout Value?, reentrant: Bool) -> Event? {
        if hasEnded { return nil }
        swap(&value, &newValue)
        let change = Event.value(value.unsafelyUnwrapped)
        if reentrant || !mailbox.queued.isEmpty {
            mailbox.enqueue(change)
            pendingValues += 1
            return nil
        }
        return change
    }

    /// Ends the property (its source completed, or it was deinitialized), after every change
    /// already written.
    @inlinable
    mutating func end(reentrant: Bool) -> Event? {
        if hasEnded { return nil }
        hasEnded = true
        if reentrant || !mailbox.queued.isEmpty {
            mailbox.enqueue(.completed)
            return nil
        }
        return .completed
    }

    /// The holder has finished an emission, or its own work: emit what is queued, hand the turn
    /// to a waiting thread, or go idle.
    @inlinable
    mutating func next(on thread: ThreadID, owner: inout TurnOwner) -> MailboxQueue<Event>.Step {
        let step = mailbox.next(on: thread, owner: &owner)
        if case let .handle(event) = step, event.value != nil { pendingValues -= 1 }
        return step
    }
}

extension PropertyState: MailboxGuardedState {
    /// Changes queued for the turn's owner, or threads waiting for the turn.
    @inlinable
    var needsSlowPath: Bool { mailbox.needsOwnerAttention }
}
