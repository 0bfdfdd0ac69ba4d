/// A signal core as a member of a shared delivery turn (see `SharedTurnMember`), and the routing of
/// every state transition to the lock that guards it: the core's own, or its host's.
extension SignalCore {
    /// A core for a signal that only the deliveries of `upstream` feed: it shares the turn of
    /// `upstream`'s host (`upstream` itself, unless it is a member too).
    @inlinable
    init<UpstreamValue, UpstreamError>(
        sharingTurnOf upstream: SignalCore<UpstreamValue, UpstreamError>, resources: any Disposable
    ) {
        self.init(sharingTurnThrough: upstream.sharedTurnHostLink ?? SharedTurnHostLink(upstream.storage), resources: resources)
    }

    /// A core for a signal that only `mailbox`'s handler sends to: it shares the mailbox's turn.
    @inlinable
    init<Input>(sharingTurnOf mailbox: Mailbox<Input>, resources: any Disposable) {
        self.init(sharingTurnThrough: SharedTurnHostLink(mailbox.storage), resources: resources)
    }

    @inlinable
    init(sharingTurnThrough link: SharedTurnHostLink, resources: any Disposable) {
        storage = SignalStorage.make(DeliveryState(resources: resources, isSharedTurnMember: true))
        // The turn word of a member is never a turn (see `DeliveryState.isSharedTurnMember`);
        // released in `prepareForDeallocation(turnWord:)`.
        storage.withUnsafeMutablePointerToElements { sync in
            MailboxSynchronization.turn(sync).storeReleasing(UInt(bitPattern: Unmanaged.passRetained(link).toOpaque()))
        }
    }

    /// The way to the host whose turn this core shares, or `nil` for a turn of its own.
    @inlinable @inline(__always)
    var sharedTurnHostLink: SharedTurnHostLink? {
        // Both written only when the storage is made, before any other thread can see it.
        guard storage.withUnsafeMutablePointerToHeader({ $0.pointee.isSharedTurnMember }) else { return nil }
        return storage.withUnsafeMutablePointerToElements { sync in
            let bits = MailboxSynchronization.turn(sync).loadRelaxed()
            return Unmanaged<SharedTurnHostLink>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
                .takeUnretainedValue()
        }
    }

    /// The host whose turn this core shares, or `nil` for a turn of its own.
    @inlinable
    var sharedTurnHost: AnyObject? { sharedTurnHostLink?.host }

    /// Runs a transition of the state machine under the lock that guards it, with the turn's
    /// owner. For a member, the owner is the shared turn's, except that the owner's own changes
    /// apply at once when it is not delivering on this signal (as with a turn of its own); a
    /// change left pending is applied by the owner before it gives up the turn.
    @inlinable
    func withTransition<Result>(_ body: (inout State, inout TurnOwner) -> Result) -> Result {
        guard let link = sharedTurnHostLink else { return storage.withTurnLock(body) }
        return withSharedTurnTransition(link: link, body)
    }

    @inlinable @inline(never)
    func withSharedTurnTransition<Result>(link: SharedTurnHostLink, _ body: (inout State, inout TurnOwner) -> Result) -> Result {
        let thread = ThreadID.current
        var result: Result?
        storage.withUnsafeMutablePointerToHeader { state in
            link.withTurnLock(storage) { hostOwner in
                var owner = hostOwner
                if owner == TurnOwner(thread), !state.pointee.isDeliveringInSharedTurn {
                    // Not reading this member's observers now: its list may change at once.
                    owner = .none
                }
                let ownerBefore = owner
                result = body(&state.pointee, &owner)
                precondition(
                    owner == ownerBefore,
                    "Rivulet: a transition of a signal sharing its upstream's turn changed the turn's owner; only sends do, and a member is sent to only from its upstream's turn (internal error)"
                )
                let needsOwner = !state.pointee.pendingChanges.isEmpty && !state.pointee.isAwaitingSharedTurnOwner
                if needsOwner { state.pointee.isAwaitingSharedTurnOwner = true }
                return needsOwner
            }
        }
        return result.unsafelyUnwrapped
    }

    /// Runs `body` under the lock that guards the state: for reads.
    @inlinable
    func withStateLock<Result>(_ body: (inout State) -> Result) -> Result {
        guard let link = sharedTurnHostLink else { return storage.withLock(body) }
        var result: Result?
        storage.withUnsafeMutablePointerToHeader { state in
            link.withLock { result = body(&state.pointee) }
        }
        return result.unsafelyUnwrapped
    }

    // MARK: Sending inside the shared turn

    /// Sends `event` from this member's stage, which its upstream runs inside the shared turn.
    @inlinable
    func sendInSharedTurn(_ event: Event) {
        if case .value = event {
            deliverInSharedTurn(event)
        } else {
            terminateInSharedTurn(event)
        }
    }

    /// Delivers a value to the observers, read in place: the shared turn keeps the list still.
    @inlinable @inline(__always)
    func deliverInSharedTurn(_ event: Event) {
        assert(
            isSharedTurnHeldByCurrentThread,
            "Rivulet: a signal sharing its upstream's turn was sent a value outside that turn (internal error)")
        // Plain reads and writes through the pointer, as in `deliverAsTurnOwner`: the flag is the
        // owner's alone, and nobody else writes the list while the turn is held.
        storage.withUnsafeMutablePointerToHeader { state in
            guard let first = state.pointee.observers.first else { return }
            state.pointee.isDeliveringInSharedTurn = true
            first._withUnsafeGuaranteedRef { $0.deliver(event) }
            if !state.pointee.observers.rest.isEmpty {
                state.pointee.observers.rest.withUnsafeBufferPointer { ObserverList.deliver(event, toEach: $0) }
            }
            state.pointee.isDeliveringInSharedTurn = false
        }
    }

    /// Ends the member with a terminal event from its stage: its observers receive it, are
    /// released, and then its resources are disposed of (S5).
    @inlinable @inline(never)
    func terminateInSharedTurn(_ event: Event) {
        assert(
            isSharedTurnHeldByCurrentThread,
            "Rivulet: a signal sharing its upstream's turn was sent a terminal event outside that turn (internal error)")
        var turn = State.Turn(event: event)
        let accepted = withTransition { state, _ -> Bool in
            // Observers attached during the turn receive the terminal event too.
            state.applyPendingChanges(into: &turn)
            guard case .alive = state.lifecycle else {
                turn.refusedAfter = state.ending
                return false
            }
            state.commitTermination(into: &turn)
            return true
        }
        if accepted {
            SignalAudit.terminalAccepted(by: storage)
            deliverTermination(&turn)
        } else {
            if turn.refusedAfter != .none, !event.isInterruption {
                SignalAudit.eventDroppedAfterTerminal(event, afterInterruption: turn.refusedAfter == .interrupted, by: storage)
            }
            Self.releaseOutsideLock(&turn)
        }
    }

    /// Ends a member that nobody can see yet, because its upstream had already ended: later
    /// observers receive `interrupted` (S3), and its resources are disposed of.
    @inlinable
    func endBeforePublication() {
        var turn = withTransition { state, _ -> State.Turn in
            var turn = State.Turn(event: .interrupted)
            state.commitTermination(into: &turn)
            return turn
        }
        turn.event = nil
        Self.releaseOutsideLock(&turn)
    }

    /// Whether this thread holds the turn this member shares (debug checks).
    @inlinable
    var isSharedTurnHeldByCurrentThread: Bool {
        sharedTurnHostLink?.isTurnHeld(.current) ?? false
    }
}

extension Signal {
    /// A signal whose events are this signal's events passed through `transform`, for a stage
    /// that sends only while this signal delivers to it (never from a timer, an inner stream or
    /// its lifetime's end): the new signal shares this signal's delivery turn (see
    /// `SharedTurnMember`), so a value passes through it with no turn of its own.
    @inlinable
    func flatMapEventSharingTurn<U, F>(_ transform: @escaping EventTransform<Value, Error, U, F>) -> Signal<U, F> {
        flatMapEventSharingTurn(into: { derived, lifetime in transform({ event in derived.sendInSharedTurn(event) }, lifetime) })
    }

    /// `flatMapEventSharingTurn(_:)` for a stage that sends into the new signal's core itself:
    /// one call per event fewer than through an `EventSink`.
    @inlinable
    func flatMapEventSharingTurn<U, F>(
        into makeStage: (SignalCore<U, F>, Lifetime) -> EventSink<Value, Error>
    ) -> Signal<U, F> {
        let resources = CompositeDisposable()
        let derived = SignalCore<U, F>(sharingTurnOf: core, resources: resources)
        let upstream = makeStage(derived, Lifetime(resources))
        let handle = ObservationHandle(core: core)
        resources += handle
        if !core.attach(EventObserverAttachment(action: upstream, handle: handle)) {
            derived.endBeforePublication()
        }
        return Signal<U, F>(core: derived)
    }
}
