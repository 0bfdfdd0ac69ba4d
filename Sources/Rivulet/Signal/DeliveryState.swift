import Dispatch

/// A signal's state machine: a plain struct, changed only under the lock of its `SignalStorage`
/// (a `MailboxStorage`), with the turn's owner passed in from the storage's turn word.
///
/// Every method is a transition that returns what the caller must do once the lock is released:
/// deliver, wait for a turn, wake a waiter, or dispose of resources. Nothing here calls user code
/// or releases the last reference to a user object (O7).
///
/// A signal is a mailbox whose inputs are events and whose policy is `waitForTurn`: the turn is
/// the *delivery turn* (E5, E7), a send from the owner is queued (E6), and a value from another
/// thread waits for the turn and is delivered on its own thread (`MailboxQueue` has those rules).
/// What a signal adds:
/// - A terminal event from another thread never waits: it is recorded, and delivered after
///   everything already accepted, by whichever thread holds the turn last.
/// - After a terminal event is accepted, further sends are ignored (E1).
/// - While a turn is held, observers attached or detached (from any thread, the owner included)
///   wait in `pendingChanges`; the owner applies them between two events. So the owner can read
///   `observers` without the lock and without copying it.
@usableFromInline
struct DeliveryState<Value, Error: Swift.Error> {
    @usableFromInline typealias Event = Signal<Value, Error>.Event
    @usableFromInline typealias Attachment = ObserverAttachment<Value, Error>
    @usableFromInline typealias Observers = TerminalObservers<Value, Error>

    @usableFromInline
    enum Lifecycle {
        case alive
        /// A terminal event was accepted while a turn was in progress; it is delivered once all
        /// previously accepted events are.
        case terminalPending(Event)
        /// The terminal event has been (or is being) delivered, or the signal was disposed of silently.
        case terminated
    }

    @usableFromInline
    enum ObserverChange {
        case attach(Attachment)
        case detach(Attachment)
        /// A signal sharing this one's turn has changes of its own to apply (see `SharedTurnMember`).
        case member(any SharedTurnMember)
        /// What applying a member's changes let go of, to release after the lock.
        case appliedMember(SharedTurnRelease)
    }

    @usableFromInline var lifecycle: Lifecycle = .alive
    /// Whether the public `Signal` object still exists (S4). Declared next to `lifecycle` so
    /// that it fills that field's padding.
    @usableFromInline var isSignalReachable = true
    /// How the signal ended, if it ended with an event: a later send is then a sender's bug
    /// (unless it lost a race), which `SignalAudit` can report. Fills padding too.
    @usableFromInline var ending = Ending.none
    /// Whether releasing the last input observer interrupts the signal: true for `Signal.init`
    /// and `pipe()`, false for a producer's start handler (ReactiveSwift's rule: only a terminal
    /// event or disposal ends a start). Set when the core is made and never changed, so it is read
    /// without the lock. Fills padding too.
    @usableFromInline var interruptsWhenInputIsReleased = true
    /// Whether the shared turn's owner is delivering on this signal right now (members only; see
    /// `SharedTurnMember`). Read and written only by that owner, so without the lock. Fills padding.
    @usableFromInline var isDeliveringInSharedTurn = false
    /// Whether the host has this member among its pending changes. Under the host's lock.
    @usableFromInline var isAwaitingSharedTurnOwner = false
    /// Whether this signal shares another's turn (see `SharedTurnMember`). A member never claims a
    /// turn of its own, so its turn word holds the way to its host instead (a retained
    /// `SharedTurnHostLink`): 8 bytes no signal pays for in its state. Set when the storage is
    /// made, never changed, so read without the lock. Fills padding.
    @usableFromInline var isSharedTurnMember = false

    /// How a signal ended (`none` also after a silent disposal: nobody can observe it any more, so
    /// a later send is nobody's concern).
    @usableFromInline
    enum Ending: UInt8 {
        case none
        case completedOrFailed
        case interrupted
    }
    /// Read by the turn's owner without the lock; written only under the lock, by the owner or
    /// by a lock holder that found no owner.
    @usableFromInline var observers = ObserverList<Value, Error>()
    /// Attachments and detachments requested while a turn was held, in order.
    @usableFromInline var pendingChanges: ContiguousArray<ObserverChange> = []
    /// Events sent by the turn's owner during delivery (E6), and the threads waiting for the turn.
    @usableFromInline var mailbox = MailboxQueue<Event>()
    /// The generator's lifetime (or the pipe's disposable); taken out and disposed of exactly
    /// once, at termination (S5).
    @usableFromInline var resources: (any Disposable)?

    @inlinable
    init(resources: (any Disposable)?, interruptsWhenInputIsReleased: Bool = true, isSharedTurnMember: Bool = false) {
        self.resources = resources
        self.interruptsWhenInputIsReleased = interruptsWhenInputIsReleased
        self.isSharedTurnMember = isSharedTurnMember
    }

    /// Whether an uncontended send must not bypass the lock: something waits for the owner's
    /// attention, or the signal no longer accepts events.
    @inlinable
    var needsSlowPath: Bool {
        guard case .alive = lifecycle else { return true }
        return mailbox.needsOwnerAttention || !pendingChanges.isEmpty
    }

    // MARK: Sending

    /// What the thread running `SignalCore.send` must do next, once the lock is released.
    /// Payload-free, so the hot path copies nothing generic; the data travels in `Turn`.
    @usableFromInline
    enum TurnAction: Equatable {
        /// Nothing more to do: the event was ignored or queued, or the turn is over.
        case done
        /// Deliver `turn.event` to the observers, then ask for the next step.
        case deliver
        /// Deliver the terminal `turn.event` to `turn.observers`, release them, then ask for the
        /// next step.
        case terminate
        /// Block on `turn.turnstile` until the turn is handed over, then `resumeAfterWaiting`.
        case wait
        /// Signal `turn.turnstile`: a waiting thread takes over the turn.
        case handOver
    }

    /// The data of one thread's delivery turn, filled in under the lock and used outside it.
    ///
    /// The caller empties it before taking the lock again, so that whatever it holds is released
    /// (and disposed of) outside the lock (O7).
    @usableFromInline
    struct Turn {
        @usableFromInline var event: Event?
        /// The observers of a terminal delivery, taken out of the state.
        @usableFromInline var observers: Observers?
        /// Resources to dispose of once the lock is released (termination or silent disposal).
        @usableFromInline var resources: (any Disposable)?
        @usableFromInline var turnstile: DispatchSemaphore?
        /// Discarded events, whose last release must happen after the lock.
        @usableFromInline var discardedEvents: ContiguousArray<Event?> = []
        /// Observer changes just applied, released after the lock.
        @usableFromInline var appliedChanges: ContiguousArray<ObserverChange> = []
        /// The event was refused because the signal had ended this way (see `SignalAudit`).
        @usableFromInline var refusedAfter = Ending.none
        /// The event was a terminal event, and the signal accepted it (see `SignalAudit`).
        @usableFromInline var acceptedTerminal = false

        @inlinable
        init(event: Event?) {
            self.event = event
        }
    }

    @inlinable
    mutating func send(on thread: ThreadID, owner: inout TurnOwner, turn: inout Turn) -> TurnAction {
        guard case .alive = lifecycle, let event = turn.event else {
            switch lifecycle {
            case .alive: break
            case let .terminalPending(terminal): turn.refusedAfter = terminal.isInterruption ? .interrupted : .completedOrFailed
            case .terminated: turn.refusedAfter = ending
            }
            return .done
        }
        if event.isTerminating, owner != .none {
            // Never waits: delivered by the owner after the event it is delivering and the events
            // it queued itself. Values that other threads are still waiting to send are refused
            // (ReactiveSwift's rule: a terminal event overtakes every value not yet delivered).
            lifecycle = .terminalPending(event)
            turn.acceptedTerminal = true
            return .done
        }
        switch mailbox.submit(event, on: thread, owner: &owner, policy: .waitForTurn) {
        case .handleNow:
            if event.isTerminating {
                commitTermination(into: &turn)
                turn.acceptedTerminal = true
                return .terminate
            }
            return .deliver
        case .queued:
            return .done
        case let .mustWait(turnstile):
            turn.turnstile = turnstile
            return .wait
        }
    }

    // MARK: Turn steps

    /// A waiting thread woke up holding the turn: deliver its own event, if still accepted.
    @inlinable
    mutating func resumeAfterWaiting(on thread: ThreadID, owner: inout TurnOwner, turn: inout Turn) -> TurnAction {
        mailbox.resumeAfterWaiting(on: thread, owner: &owner)
        applyPendingChanges(into: &turn)
        switch lifecycle {
        case .alive, .terminalPending:
            // Handed the turn before any terminal event was sent, so it is delivered before it.
            return .deliver
        case .terminated:
            // A terminal event overtook it, or the signal was disposed of silently, while this
            // thread waited: nobody can receive the value. It is released after the lock (O7).
            turn.refusedAfter = ending
            turn.discardedEvents.append(turn.event)
            turn.event = nil
            return nextStep(on: thread, owner: &owner, turn: &turn)
        }
    }

    /// The turn's owner has finished an event: what next?
    @inlinable
    mutating func nextStep(on thread: ThreadID, owner: inout TurnOwner, turn: inout Turn) -> TurnAction {
        guard owner == TurnOwner(thread) else {
            preconditionFailure(
                "Rivulet: a delivery step ran on a thread that does not hold the turn (owner \(owner.rawValue)); only the turn's owner steps (internal error)"
            )
        }
        applyPendingChanges(into: &turn)
        if case .terminated = lifecycle {
            return passTurn(owner: &owner, turn: &turn)
        }
        if let event = mailbox.popQueued() {
            turn.event = event
            return .deliver
        }
        if case let .terminalPending(event) = lifecycle {
            // Before the threads waiting for the turn: their values are refused once they wake.
            turn.event = event
            commitTermination(into: &turn)
            return .terminate
        }
        if mailbox.waiters > 0 {
            return passTurn(owner: &owner, turn: &turn)
        }
        owner = .none
        return .done
    }

    @inlinable
    mutating func passTurn(owner: inout TurnOwner, turn: inout Turn) -> TurnAction {
        guard let turnstile = mailbox.handOverToWaiter(owner: &owner) else {
            owner = .none
            return .done
        }
        turn.turnstile = turnstile
        return .handOver
    }

    /// Marks the signal terminated and hands the turn what the terminal delivery needs: the
    /// observers (released by the caller after they receive the terminal event) and the resources.
    @inlinable
    mutating func commitTermination(into turn: inout Turn) {
        lifecycle = .terminated
        ending = turn.event.map { $0.isInterruption ? .interrupted : .completedOrFailed } ?? .none
        turn.observers = observers.takeAll()
        swap(&turn.resources, &resources)
    }

    // MARK: Observers

    /// Adds `attachment` unless the signal has terminated (the caller then sends it `interrupted`).
    /// While a turn is held, the attachment waits for the owner to add it between two events.
    ///
    /// `attachment` is retained by the caller: the list or the pending change takes over that +1,
    /// unless the signal has terminated, in which case the caller keeps it (and releases it after
    /// the lock).
    @inlinable
    mutating func add(retained attachment: Unmanaged<Attachment>, owner: TurnOwner) -> Bool {
        if case .terminated = lifecycle { return false }
        if owner == .none {
            observers.append(retained: attachment)
        } else {
            pendingChanges.append(.attach(attachment.takeRetainedValue()))
        }
        return true
    }

    /// What a disposal let go of, released by the caller after the lock (O7): the observer it
    /// detached and, if that left a signal nobody can reach unobserved, what the signal's silent
    /// end let go of (S4). Three words rather than a `Turn`, which an observe-and-dispose cycle
    /// would otherwise build and destroy, empty arrays and all, every time.
    @usableFromInline
    struct Removal {
        @usableFromInline var observer: Attachment?
        /// The events still queued when the signal ended silently.
        @usableFromInline var discardedEvents: ContiguousArray<Event?>?
        /// The resources of a signal that ended silently, to dispose of.
        @usableFromInline var resources: (any Disposable)?

        @inlinable
        init() {}
    }

    /// Detaches the observer that `handle` identifies: marks it detached at once (it receives
    /// nothing more, even within the current event), and removes it now if no turn is held,
    /// otherwise has the owner remove it between two events.
    @inlinable
    mutating func remove(handle: UInt, owner: TurnOwner) -> Removal {
        var removal = Removal()
        if owner == .none, pendingChanges.isEmpty {
            // Nobody delivers and nothing waits to be attached: found and removed in one pass.
            guard let removed = observers.removeNewest(detachedBy: handle) else { return removal }
            removed.markDetached()
            removal.observer = removed
        } else {
            // Not retained: the list, or the pending change, keeps it while the lock is held.
            guard let attachment = attachment(detachedBy: handle) else { return removal }
            attachment._withUnsafeGuaranteedRef { $0.markDetached() }
            if owner != .none {
                pendingChanges.append(.detach(attachment.takeUnretainedValue()))
                return removal
            }
            guard let removed = observers.remove(address: UInt(bitPattern: attachment.toOpaque())) else { return removal }
            removal.observer = removed
        }
        if !isSignalReachable {
            var turn = Turn(event: nil)
            disposeSilentlyIfAbandoned(into: &turn)
            removal.discardedEvents = turn.discardedEvents
            swap(&removal.resources, &turn.resources)
        }
        return removal
    }

    /// The attached observer, or the one waiting to be attached, that `handle` detaches: the
    /// newest carrying its address (see `ObserverAttachment.handle`), so those waiting to be
    /// attached first, from the last. Not retained, so valid only while the lock is held.
    @inlinable
    func attachment(detachedBy handle: UInt) -> Unmanaged<Attachment>? {
        if !pendingChanges.isEmpty {
            for case let .attach(attachment) in pendingChanges.reversed() where attachment.isDetached(by: handle) {
                return Unmanaged.passUnretained(attachment)
            }
        }
        return observers.last(detachedBy: handle)
    }

    /// Applies the observer changes requested during the turn; called by the owner between events.
    @inlinable
    mutating func applyPendingChanges(into turn: inout Turn) {
        guard !pendingChanges.isEmpty else { return }
        for index in pendingChanges.indices {
            switch pendingChanges[index] {
            case let .attach(attachment):
                guard case .terminated = lifecycle else {
                    observers.append(attachment)
                    break
                }
                // `add` refuses a terminated signal, and termination (committed or silent) waits
                // until the pending changes are applied.
                preconditionFailure(
                    "Rivulet: an observer attached during a turn outlived the signal's termination; termination waits until pending changes are applied (internal error)"
                )
            case let .detach(attachment):
                // The change itself keeps the attachment until after the lock (below).
                _ = observers.remove(attachment)
            case let .member(member):
                pendingChanges[index] = .appliedMember(member.applyPendingChangesForHost())
            case .appliedMember:
                preconditionFailure(
                    "Rivulet: a member's applied changes were still pending; they are only ever in a turn's applied changes (internal error)"
                )
            }
        }
        // The list may hold the last reference to a detached attachment: it is released after
        // the lock (O7).
        swap(&turn.appliedChanges, &pendingChanges)
        disposeSilentlyIfAbandoned(into: &turn)
    }

    /// The public `Signal` object has been deinitialized (or, for a producer's start, was never made).
    @inlinable
    mutating func signalBecameUnreachable() -> Turn {
        isSignalReachable = false
        var turn = Turn(event: nil)
        disposeSilentlyIfAbandoned(into: &turn)
        return turn
    }

    /// S4: a signal that nobody can reach and nobody observes stops, without sending any event.
    @inlinable
    mutating func disposeSilentlyIfAbandoned(into turn: inout Turn) {
        guard !isSignalReachable, observers.isEmpty, pendingChanges.isEmpty else { return }
        if case .terminated = lifecycle { return }
        lifecycle = .terminated
        swap(&turn.resources, &resources)
        turn.discardedEvents = mailbox.removeAllQueued()
    }
}

extension DeliveryState: SharedTurnState {
    @inlinable
    mutating func recordMemberNeedingOwner(_ member: any SharedTurnMember) {
        pendingChanges.append(.member(member))
    }

    /// As a member: applies the changes made while the shared turn was held.
    @inlinable
    mutating func applyPendingChangesForHost() -> SharedTurnRelease {
        isAwaitingSharedTurnOwner = false
        var turn = Turn(event: nil)
        applyPendingChanges(into: &turn)
        return SharedTurnRelease { [turn] in
            var released = turn
            SignalCore<Value, Error>.releaseOutsideLock(&released)
        }
    }
}

/// The observers of a terminal delivery, taken out of the signal's list: the first is kept
/// inline, as the list keeps it, so that ending a signal with one observer allocates nothing.
@usableFromInline
struct TerminalObservers<Value, Error: Swift.Error> {
    @usableFromInline var first: ObserverAttachment<Value, Error>?
    @usableFromInline var rest: ContiguousArray<ObserverAttachment<Value, Error>>

    @inlinable
    init(first: ObserverAttachment<Value, Error>?, rest: ContiguousArray<ObserverAttachment<Value, Error>>) {
        self.first = first
        self.rest = rest
    }
}

extension ObserverList {
    /// Empties the list and returns its observers, in order: the one observer of a list without
    /// a buffer comes out without building an array.
    @inlinable
    mutating func takeAll() -> TerminalObservers<Value, Error> {
        guard bits & 1 == 0 else { return TerminalObservers(first: nil, rest: removeAll()) }
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return TerminalObservers(first: nil, rest: []) }
        bits = 0
        return TerminalObservers(first: Unmanaged<Attachment>.fromOpaque(pointer).takeRetainedValue(), rest: [])
    }
}
