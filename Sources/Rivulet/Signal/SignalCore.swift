import Dispatch

/// The shared heart of a `Signal`: its delivery state and the code that runs a delivery turn.
/// Input observers and observer attachments refer to it; the public `Signal` object only tells it
/// when it becomes unreachable (S4).
@usableFromInline
struct SignalCore<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: `storage`'s state is touched only under its lock, except the observer
    // list, which the holder of the delivery turn (claimed through the storage's atomic turn word)
    // reads; see `SignalStorage`.
    @usableFromInline typealias Event = Signal<Value, Error>.Event
    @usableFromInline typealias State = DeliveryState<Value, Error>

    @usableFromInline let storage: SignalStorage<Value, Error>

    @inlinable
    init(resources: (any Disposable)?, interruptsWhenInputIsReleased: Bool = true) {
        storage = SignalStorage.make(resources: resources, interruptsWhenInputIsReleased: interruptsWhenInputIsReleased)
    }

    /// Whether releasing the signal's last input observer interrupts it (see `DeliveryState`).
    @inlinable
    var interruptsWhenInputIsReleased: Bool { storage.interruptsWhenInputIsReleased() }

    @inlinable
    init(storage: SignalStorage<Value, Error>) {
        self.storage = storage
    }

    // MARK: Sending

    /// Sends `event` to every observer, serially (E5), on this thread (E7), queueing it if this
    /// thread is already delivering on this signal (E6).
    ///
    /// Observers run here, with no lock held (O7). An uncontended value takes no lock at all:
    /// one compare-and-swap claims the turn, one gives it back (see `SignalStorage`).
    @inlinable
    func send(_ event: Event) {
        assert(
            !storage.withUnsafeMutablePointerToHeader { $0.pointee.isSharedTurnMember },
            "Rivulet: a signal sharing its upstream's turn was sent an event through a turn of its own; its stage sends with sendInSharedTurn (internal error)"
        )
        let thread = ThreadID.current
        if case .value = event, storage.claimTurnIfIdle(thread) {
            storage.deliverAsTurnOwner(event)
            if storage.releaseTurnIfUncontended(thread) { return }
            finishTurn(on: thread)
            return
        }
        sendTakingTheLock(event, on: thread)
    }

    /// The turn's owner was asked for attention while it delivered (a waiter, a queued event, an
    /// observer change): carry on under the lock. Out of line, like `sendTakingTheLock`, so that
    /// the uncontended path stays small enough to inline.
    @inlinable @inline(never)
    func finishTurn(on thread: ThreadID) {
        var turn = State.Turn(event: nil)
        let action = storage.withTurnLock { $0.nextStep(on: thread, owner: &$1, turn: &turn) }
        runTurn(action, on: thread, turn: &turn)
    }

    /// Sends `event` through the lock: a terminal event, or a value while the turn is held or the
    /// signal needs the slow path.
    @inlinable @inline(never)
    func sendTakingTheLock(_ event: Event, on thread: ThreadID) {
        var turn = State.Turn(event: event)
        var action = storage.withTurnLock { $0.send(on: thread, owner: &$1, turn: &turn) }
        if turn.refusedAfter != .none, !event.isInterruption {
            SignalAudit.eventDroppedAfterTerminal(event, afterInterruption: turn.refusedAfter == .interrupted, by: storage)
        } else if turn.acceptedTerminal {
            SignalAudit.terminalAccepted(by: storage)
        }
        if action == .wait {
            DeadlockDiagnostics.wait(
                on: turn.turnstile.unsafelyUnwrapped,
                for: { "Signal<\(Value.self), \(Error.self)> \(storage.addressForDiagnostics)" },
                owner: { storage.turnOwnerForDiagnostics })
            turn.turnstile = nil
            action = storage.withTurnLock { $0.resumeAfterWaiting(on: thread, owner: &$1, turn: &turn) }
            if turn.refusedAfter != .none {
                SignalAudit.eventDroppedAfterTerminal(event, afterInterruption: turn.refusedAfter == .interrupted, by: storage)
            }
        }
        runTurn(action, on: thread, turn: &turn)
    }

    /// Carries out `action` and the turn's later steps until the turn is over or handed over.
    @inlinable
    func runTurn(_ firstAction: State.TurnAction, on thread: ThreadID, turn: inout State.Turn) {
        var action = firstAction
        while true {
            // What the last transition let go of is released (and disposed of) here, after the
            // lock; a terminal delivery disposes of the resources only after the observers have
            // received the event (S5).
            if action != .terminate { Self.releaseOutsideLock(&turn) }
            switch action {
            case .done:
                return
            case .deliver:
                storage.deliverAsTurnOwner(turn.event.unsafelyUnwrapped)
                turn.event = nil
                if storage.releaseTurnIfUncontended(thread) { return }
            case .terminate:
                deliverTermination(&turn)
            case .handOver:
                turn.turnstile.unsafelyUnwrapped.signal()
                return
            case .wait:
                preconditionFailure(
                    "Rivulet: a thread already holding the delivery turn was told to wait; the turn's owner never waits (internal error)"
                )
            }
            action = storage.withTurnLock { $0.nextStep(on: thread, owner: &$1, turn: &turn) }
        }
    }

    /// Delivers the terminal event of a committed termination to the observers it took out of
    /// the state, releases them, then disposes of the resources (S5).
    @inlinable
    func deliverTermination(_ turn: inout State.Turn) {
        // Borrowed, not copied into a local: a local copy would keep the observers alive until
        // the end of this function, after the resources are disposed of.
        Self.deliver(turn.event.unsafelyUnwrapped, to: turn.observers.unsafelyUnwrapped)
        turn.event = nil
        turn.observers = nil
        Self.releaseOutsideLock(&turn)
        SignalAudit.terminalDelivered(by: storage)
    }

    /// Delivers a terminal event to the observers taken out of the state.
    @inlinable
    static func deliver(_ event: Event, to observers: State.Observers) {
        observers.first?.deliver(event)
        var index = observers.rest.startIndex
        while index < observers.rest.endIndex {
            observers.rest[index].deliver(event)
            index += 1
        }
    }

    /// Lets go of what a transition took out of the state, with no lock held (O7): discarded
    /// events, applied observer changes, and resources to dispose of.
    @inlinable
    static func releaseOutsideLock(_ turn: inout State.Turn) {
        if !turn.discardedEvents.isEmpty { turn.discardedEvents = [] }
        if !turn.appliedChanges.isEmpty { releaseAppliedChanges(&turn) }
        if let resources = turn.resources {
            turn.resources = nil
            resources.dispose()
        }
    }

    // MARK: Observers

    /// Releases the observer changes a turn applied, and what the changes of the members sharing
    /// the turn let go of.
    @inlinable @inline(never)
    static func releaseAppliedChanges(_ turn: inout State.Turn) {
        let applied = turn.appliedChanges
        turn.appliedChanges = []
        for case let .appliedMember(memberRelease) in applied { memberRelease.release() }
    }

    /// Attaches `observer`; if the signal has terminated, sends it `interrupted` at once (S3).
    @inlinable
    func observe(_ observer: Signal<Value, Error>.Observer) -> Disposable? {
        if observer.inputOf == nil {
            // A closure observer: keep its closure only.
            return observe(action: observer.action)
        }
        // The input of another signal: the attachment keeps it (and so that signal's input) alive.
        return observe(action: observer.sink)
    }

    /// Attaches an observer that runs `action`; if the signal has terminated, runs it with
    /// `interrupted` at once (S3).
    @inlinable
    func observe(action: @escaping Signal<Value, Error>.Observer.Action) -> Disposable? {
        let handle = ObservationHandle(core: self)
        guard attach(EventObserverAttachment(action: action, handle: handle)) else {
            action(.interrupted)
            return nil
        }
        return handle
    }

    /// Attaches an observer that runs `action` for each value; returns `nil` if the signal has
    /// terminated (a values-only observer has nothing to run for `interrupted`).
    @inlinable
    func observe(values action: __owned @escaping (Value) -> Void) -> Disposable? {
        let handle = ObservationHandle(core: self)
        return attach(ValuesObserverAttachment(values: consume action, handle: handle)) ? handle : nil
    }

    /// Attaches an observer that stays until the signal ends: no handle, no allocation for one
    /// (a producer's start). Runs `action` with `interrupted` if the signal has terminated.
    @inlinable
    func observeUntilEnd(_ observer: Signal<Value, Error>.Observer) {
        let action = observer.inputOf == nil ? observer.action : observer.sink
        if !attach(EventObserverAttachment(action: action, handle: nil)) {
            action(.interrupted)
        }
    }

    /// Adds `attachment` unless the signal has terminated.
    ///
    /// The caller's reference moves into the list (or into the pending change) as it is: taken
    /// as a +1 here, before the lock, where the compiler pairs it with the end of the argument's
    /// lifetime and emits neither, instead of a retain under the lock for the list and a release
    /// after it for the argument (two atomic operations per observe).
    @inlinable
    func attach(_ attachment: __owned ObserverAttachment<Value, Error>) -> Bool {
        let retained = Unmanaged.passRetained(consume attachment)
        guard withTransition({ $0.add(retained: retained, owner: $1) }) else {
            // Released after the lock: the attachment holds the observer's closure (O7).
            retained.release()
            return false
        }
        return true
    }

    /// Detaches the observer that `handle` identifies, if it is still attached.
    @inlinable
    func detach(handle: UInt) {
        var removal = withTransition { $0.remove(handle: handle, owner: $1) }
        // The attachment (with the observer's closure) is released here, after the lock (O7),
        // and then whatever a silent end let go of is disposed of.
        removal.observer = nil
        removal.discardedEvents = nil
        if let resources = removal.resources {
            removal.resources = nil
            resources.dispose()
        }
    }

    /// The public `Signal` object is gone, or a producer's start never made one: if nobody
    /// observes, stop silently (S4).
    @inlinable
    func signalDidDeinitialize() {
        var disposal = withTransition { state, _ in state.signalBecameUnreachable() }
        Self.releaseOutsideLock(&disposal)
    }
}

extension SignalCore {
    /// Whether the signal has accepted a terminal event or been disposed of: nothing more can be sent.
    @inlinable
    var hasTerminated: Bool {
        withStateLock { state in
            if case .alive = state.lifecycle { return false }
            return true
        }
    }

    /// How many observers are attached (for tests), counting those waiting to be attached.
    @usableFromInline
    var observerCount: Int {
        withStateLock { state in
            state.pendingChanges.reduce(state.observers.count) { count, change in
                switch change {
                case .attach: count + 1
                case .detach: count - 1
                case .member, .appliedMember: count
                }
            }
        }
    }
}
