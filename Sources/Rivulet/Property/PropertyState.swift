import Dispatch

/// The state machine behind every mutable or composed property: its value, and the *write turn*
/// that keeps writes and their emissions in one order. A plain struct, mutated only under
/// `PropertyStorage`'s lock, with the turn's owner passed in from the storage's turn word
/// (`TurnLockStorage`, which lets an uncontended write claim and give back the turn without the
/// lock); each transition returns what the caller does after the lock.
///
/// The rules it encodes:
/// - One thread at a time holds the write turn. Only the holder writes the value and emits
///   changes, so observers see the changes in exactly the order the value took them (R2), and a
///   change is visible before it is emitted.
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
    /// Changes already written but not yet emitted (and the end, if it came while busy).
    @usableFromInline var pending = FIFOQueue<Event>()
    /// How many of `pending` are values: an observer attached now skips them, having been given
    /// the latest value already.
    @usableFromInline var pendingValues = 0
    @usableFromInline var hasEnded = false
    @usableFromInline var waiters = 0
    /// Created at the first contention and reused: one per property, never per write.
    @usableFromInline var turnstile: DispatchSemaphore?

    @inlinable
    init(value: Value?) {
        self.value = value
    }

    // MARK: Taking the turn

    @usableFromInline
    enum Claim {
        /// The thread now holds the turn; it must end with `next` until that says `idle`.
        case first
        /// The thread already held the turn (it is inside an emission or a `modify`).
        case reentrant
        /// Another thread holds it: wait on the turnstile, then `resume`.
        case wait(DispatchSemaphore)
    }

    @inlinable
    mutating func claim(on thread: ThreadID, owner: inout TurnOwner) -> Claim {
        switch owner {
        case .none:
            owner = TurnOwner(thread)
            return .first
        case TurnOwner(thread):
            return .reentrant
        default:
            waiters += 1
            if turnstile == nil { turnstile = DispatchSemaphore(value: 0) }
            return .wait(turnstile.unsafelyUnwrapped)
        }
    }

    /// A waiting thread woke holding the turn.
    @inlinable
    mutating func resume(on thread: ThreadID, owner: inout TurnOwner) {
        guard owner == .handingOver else {
            preconditionFailure("Rivulet: a thread woke for a property's write turn that was not handed over (\(owner.rawValue))")
        }
        owner = TurnOwner(thread)
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
        if reentrant || !pending.isEmpty {
            pending.append(change)
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
        if reentrant || !pending.isEmpty {
            pending.append(.completed)
            return nil
        }
        return .completed
    }

    @usableFromInline
    enum Next {
        case emit(Event)
        /// Signal the turnstile: a waiting thread takes the turn. The caller's turn is over.
        case handOver(DispatchSemaphore)
        /// The turn is over.
        case idle
    }

    /// The holder has finished an emission, or its own work: emit what is queued, hand the turn
    /// to a waiting thread, or go idle.
    @inlinable
    mutating func next(on thread: ThreadID, owner: inout TurnOwner) -> Next {
        guard owner == TurnOwner(thread) else {
            preconditionFailure("Rivulet: property step on a thread that does not hold its write turn (\(owner.rawValue))")
        }
        if let event = pending.popFirst() {
            if event.value != nil { pendingValues -= 1 }
            return .emit(event)
        }
        if waiters > 0, let turnstile {
            waiters -= 1
            owner = .handingOver
            return .handOver(turnstile)
        }
        owner = .none
        return .idle
    }
}

extension PropertyState: TurnGuardedState {
    /// Changes queued for the turn's owner, or threads waiting for the turn.
    @inlinable
    var needsSlowPath: Bool { !pending.isEmpty || waiters > 0 }
}
