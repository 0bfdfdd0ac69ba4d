import Dispatch

/// The delivery engine's state machine: a plain struct, mutated only under `SignalCore`'s lock.
///
/// Every method is a transition that returns what the caller must do once the lock is released:
/// deliver to a snapshot of observers, wait for a turn, wake a waiter, or dispose of resources.
/// Nothing here calls user code or releases the last reference to a user object (O7).
///
/// The rules it encodes:
/// - One thread at a time holds the *delivery turn* (E5). Observers run on that thread (E7).
/// - A send from the turn's owner (an observer sending on its own signal) is queued and
///   delivered by the owner right after the current event, in order (E6).
/// - A value from another thread waits for the turn, then is delivered on its own thread.
/// - A terminal event from another thread never waits: it is recorded, and delivered after
///   everything already accepted, by whichever thread holds the turn last.
/// - After a terminal event is accepted, further sends are ignored (E1).
@usableFromInline
struct DeliveryState<Value, Error: Swift.Error> {
    @usableFromInline typealias Event = Signal<Value, Error>.Event
    @usableFromInline typealias Observers = ContiguousArray<ObserverAttachment<Value, Error>>

    @usableFromInline
    enum Phase: Equatable {
        /// No thread is delivering; the next sender takes the turn.
        case idle
        /// `owner` is delivering; its own sends are queued, other threads wait.
        case delivering(owner: ThreadID)
        /// The turn has been passed to a waiting thread that has not woken yet.
        case handingOver
    }

    @usableFromInline
    enum Lifecycle {
        case alive
        /// A terminal event was accepted while a turn was in progress; it is delivered once all
        /// previously accepted events are.
        case terminalPending(Event)
        /// The terminal event has been (or is being) delivered, or the signal was disposed of silently.
        case terminated
    }

    @usableFromInline var phase: Phase = .idle
    @usableFromInline var lifecycle: Lifecycle = .alive
    @usableFromInline var observers: Observers = []
    /// Events sent by the turn's owner during delivery (E6).
    @usableFromInline var reentrantEvents = FIFOQueue<Event>()
    /// Threads blocked on `turnstile`, waiting for the turn.
    @usableFromInline var waiters = 0
    /// Created on first contention; one per signal, never per send.
    @usableFromInline var turnstile: DispatchSemaphore?
    /// Whether the public `Signal` object still exists (S4).
    @usableFromInline var isSignalReachable = true
    /// The generator's lifetime (or the pipe's disposable); taken out and disposed of exactly
    /// once, at termination (S5).
    @usableFromInline var resources: (any Disposable)?

    @inlinable
    init(resources: (any Disposable)?) {
        self.resources = resources
    }

    // MARK: Sending

    /// What the thread running `SignalCore.send` must do next, once the lock is released.
    /// Payload-free, so the hot path copies nothing generic; the data travels in `Turn`.
    @usableFromInline
    enum TurnAction: Equatable {
        /// Nothing more to do: the event was ignored or queued, or the turn is over.
        case done
        /// Deliver `turn.event` to `turn.observers`, then ask for the next step.
        case deliver
        /// Deliver the terminal `turn.event` to `turn.observers`, release them, dispose of
        /// `turn.resources`, then ask for the next step.
        case terminate
        /// Block on `turn.turnstile` until the turn is handed over, then `resumeAfterWaiting`.
        case wait
        /// Signal `turn.turnstile`: a waiting thread takes over the turn.
        case handOver
    }

    /// The data of one thread's delivery turn, filled in under the lock and used outside it.
    ///
    /// The caller empties `event` and `observers` before taking the lock again, so that
    /// whatever they hold is released outside the lock (O7).
    @usableFromInline
    struct Turn {
        @usableFromInline var event: Event?
        /// `nil` rather than empty between deliveries: no retain and release of the empty-array
        /// singleton on every send.
        @usableFromInline var observers: Observers?
        @usableFromInline var resources: (any Disposable)?
        @usableFromInline var turnstile: DispatchSemaphore?

        @inlinable
        init(event: Event) {
            self.event = event
        }
    }

    @inlinable
    mutating func send(on thread: ThreadID, turn: inout Turn) -> TurnAction {
        guard case .alive = lifecycle, let event = turn.event else { return .done }
        switch phase {
        case .idle:
            phase = .delivering(owner: thread)
            if event.isTerminating {
                commitTermination(into: &turn)
                return .terminate
            }
            turn.observers = observers
            return .deliver
        case .delivering(let owner) where owner == thread:
            if event.isTerminating {
                lifecycle = .terminalPending(event)
            } else {
                reentrantEvents.append(event)
            }
            return .done
        case .delivering, .handingOver:
            if event.isTerminating {
                lifecycle = .terminalPending(event)
                return .done
            }
            waiters += 1
            if turnstile == nil { turnstile = DispatchSemaphore(value: 0) }
            turn.turnstile = turnstile
            return .wait
        }
    }

    // MARK: Turn steps

    /// A waiting thread woke up holding the turn: deliver its own event, if still accepted.
    @inlinable
    mutating func resumeAfterWaiting(on thread: ThreadID, turn: inout Turn) -> TurnAction {
        guard phase == .handingOver else {
            preconditionFailure("Rivulet: a thread woke for a delivery turn that was not handed over (\(phase))")
        }
        phase = .delivering(owner: thread)
        switch lifecycle {
        case .alive, .terminalPending:
            // Accepted before any terminal event, so it is delivered before it.
            turn.observers = observers
            return .deliver
        case .terminated:
            // Disposed of silently while this thread waited: nobody can receive the value.
            turn.event = nil
            return nextStep(on: thread, turn: &turn)
        }
    }

    /// The turn's owner has finished an event: what next?
    @inlinable
    mutating func nextStep(on thread: ThreadID, turn: inout Turn) -> TurnAction {
        guard phase == .delivering(owner: thread) else {
            preconditionFailure("Rivulet: delivery step on a thread that does not hold the turn (\(phase))")
        }
        if case .terminated = lifecycle {
            return passTurn(&turn)
        }
        if !reentrantEvents.isEmpty, let event = reentrantEvents.popFirst() {
            turn.event = event
            turn.observers = observers
            return .deliver
        }
        if waiters > 0 {
            return passTurn(&turn)
        }
        if case let .terminalPending(event) = lifecycle {
            turn.event = event
            commitTermination(into: &turn)
            return .terminate
        }
        phase = .idle
        return .done
    }

    @inlinable
    mutating func passTurn(_ turn: inout Turn) -> TurnAction {
        guard waiters > 0, let turnstile else {
            phase = .idle
            return .done
        }
        waiters -= 1
        phase = .handingOver
        turn.turnstile = turnstile
        return .handOver
    }

    /// Marks the signal terminated and hands the turn what the terminal delivery needs: the
    /// observers (released by the caller after they receive the terminal event) and the resources.
    @inlinable
    mutating func commitTermination(into turn: inout Turn) {
        lifecycle = .terminated
        turn.observers = observers
        observers = []
        swap(&turn.resources, &resources)
    }

    // MARK: Observers

    /// Adds `attachment` unless the signal has terminated (the caller then sends it `interrupted`).
    @inlinable
    mutating func add(_ attachment: ObserverAttachment<Value, Error>) -> Bool {
        if case .terminated = lifecycle { return false }
        observers.append(attachment)
        return true
    }

    @usableFromInline
    struct Removal {
        /// Returned so that its last release happens outside the lock.
        @usableFromInline var removed: ObserverAttachment<Value, Error>?
        /// Set when the removal left the signal unreachable and unobserved (S4).
        @usableFromInline var silentDisposal: SilentDisposal?

        @inlinable
        init(removed: ObserverAttachment<Value, Error>?, silentDisposal: SilentDisposal?) {
            self.removed = removed
            self.silentDisposal = silentDisposal
        }
    }

    @inlinable
    mutating func remove(_ attachment: ObserverAttachment<Value, Error>) -> Removal {
        guard let index = observers.firstIndex(where: { $0 === attachment }) else {
            return Removal(removed: nil, silentDisposal: nil)
        }
        let removed = observers.remove(at: index)
        return Removal(removed: removed, silentDisposal: disposeSilentlyIfAbandoned())
    }

    /// The public `Signal` object has been deinitialized (or, for a producer's start, was never made).
    @inlinable
    mutating func signalBecameUnreachable() -> SilentDisposal? {
        isSignalReachable = false
        return disposeSilentlyIfAbandoned()
    }

    /// What a silent disposal leaves for the caller to release after the lock.
    @usableFromInline
    struct SilentDisposal {
        @usableFromInline var resources: (any Disposable)?
        @usableFromInline var discardedEvents: ContiguousArray<Event?>

        @inlinable
        init(resources: (any Disposable)?, discardedEvents: ContiguousArray<Event?>) {
            self.resources = resources
            self.discardedEvents = discardedEvents
        }
    }

    /// S4: a signal that nobody can reach and nobody observes stops, without sending any event.
    @inlinable
    mutating func disposeSilentlyIfAbandoned() -> SilentDisposal? {
        guard !isSignalReachable, observers.isEmpty else { return nil }
        if case .terminated = lifecycle { return nil }
        lifecycle = .terminated
        let resources = self.resources
        self.resources = nil
        return SilentDisposal(resources: resources, discardedEvents: reentrantEvents.removeAll())
    }
}
