import Dispatch

extension Channel {
    // MARK: Sending results into the node

    /// Delivers `result`, sent for activation `generation`, to the node's consumer: at once when
    /// nobody holds the turn, else queued for the owner (A9). Returns why it went nowhere, if it did.
    @inlinable @discardableResult
    final func deliver(_ result: Result<Value, ChannelEnd>, generation: UInt) -> ChannelSendError? {
        let thread = ThreadID.current
        if storage.claimTurnIfIdle(thread) {
            let delivered = handleAsOwner(ChannelItem(result: result, generation: generation))
            if !storage.releaseTurnIfUncontended(thread) { finishTurn(on: thread) }
            return delivered ? nil : .disconnected
        }
        return deliverTakingTheLock(
            ChannelItem(result: result, generation: generation), from: nil, cancelling: false, on: thread)
    }

    /// A send from `input`, whose binding may have been decided after the caller read it.
    /// `cancelling` marks the end sent by the input's `cancel()` or release (A7), which also
    /// ends a channel that never activated.
    @inlinable
    final func deliver(
        _ result: Result<Value, ChannelEnd>, from input: ChannelInput<Value>, cancelling: Bool = false
    ) -> ChannelSendError? {
        let generation = input.generation.loadAcquiring()
        if generation != ChannelGeneration.unbound, !cancelling {
            return deliver(result, generation: generation)
        }
        if generation != ChannelGeneration.unbound, generation < ChannelGeneration.revoked,
            generation < publishedGeneration.loadAcquiring()
        {
            // The input's activation is over (an input released after its channel deactivated):
            // the answer under the lock would be the same.
            return .disconnected
        }
        return deliverTakingTheLock(
            ChannelItem(result: result, generation: generation), from: input, cancelling: cancelling,
            on: ThreadID.current)
    }

    @usableFromInline
    enum Admission {
        case refused(ChannelSendError)
        case queued
        case handleNow(ChannelItem<Value>, claimed: Bool)
    }

    @inlinable @inline(never)
    final func deliverTakingTheLock(
        _ item: ChannelItem<Value>, from input: ChannelInput<Value>?, cancelling: Bool, on thread: ThreadID
    ) -> ChannelSendError? {
        let admission = withNodeLock { state, owner -> Admission in
            var item = item
            let isFirstInput = input.map { state.firstInput == ObjectIdentifier($0) } ?? false
            let bindsOnActivation = isFirstInput && state.firstInputGeneration == nil
            switch state.phase {
            case .ended:
                return .refused(.disconnected)
            case .inactive:
                if bindsOnActivation || item.generation == ChannelGeneration.current, cancelling,
                    case let .failure(end) = item.result
                {
                    // A7: the input went away before anything listened; later outputs see the end.
                    state.phase = .ended(end)
                    state.firstInput = nil
                    return .refused(.inactive)
                }
                let waitingForActivation = bindsOnActivation || item.generation == ChannelGeneration.current
                return .refused(waitingForActivation ? .inactive : .disconnected)
            case .active, .activating:
                if item.generation == ChannelGeneration.current {
                    if state.pendingDeactivation { return .refused(.inactive) }
                    item.generation = state.generation
                } else if item.generation == ChannelGeneration.unbound {
                    guard isFirstInput, let bound = state.firstInputGeneration else {
                        return .refused(.disconnected)
                    }
                    item.generation = bound
                }
                let current = item.generation == state.generation
                // A result for the generation a rewiring moved to waits behind the owner's adoption.
                let upcoming = item.generation == state.pendingGeneration
                guard current || upcoming, !state.pendingDeactivation else {
                    return .refused(.disconnected)
                }
                if upcoming {
                    state.queue.enqueue(item)
                    return .queued
                }
                if owner == TurnOwner(thread), !ownerIsHandling.loadRelaxed() {
                    // The owner is activating, not inside its consumer: activation values go
                    // straight through, ahead of anything queued (A2).
                    return .handleNow(item, claimed: false)
                }
                // The core's rules with the never-waiting policy (A9): claim an idle turn, queue
                // a re-entrant result (E6), queue for the owner what another thread sends.
                switch state.queue.submit(item, on: thread, owner: &owner, policy: .queueForOwner) {
                case .handleNow:
                    return .handleNow(item, claimed: true)
                case .queued:
                    return .queued
                case .mustWait:
                    preconditionFailure(
                        "Rivulet: a channel's send was told to wait for the turn; channel sends never wait (internal error)")
                }
            }
        }
        switch admission {
        case let .refused(error):
            return error
        case .queued:
            return nil
        case let .handleNow(item, claimed):
            if let input, item.generation != ChannelGeneration.unbound {
                input.learnBinding(item.generation)
            }
            _ = handleAsOwner(item)
            if claimed { finishTurn(on: thread) }
            return nil
        }
    }

    // MARK: The turn

    /// Hands `item` to the consumer (the caller holds the turn); an end ends the node. Returns
    /// whether the item belonged to the current activation.
    @inlinable @discardableResult
    final func handleAsOwner(_ item: ChannelItem<Value>) -> Bool {
        // The owner reads `generation`, `isActivating` and `consumer` without the lock, and alone
        // writes `ownerIsHandling` (see `ChannelNodeState`).
        let delivered = storage.withUnsafeMutablePointerToHeader { state -> Bool in
            guard state.pointee.generation == item.generation || item.generation == ChannelGeneration.current,
                let consumer = state.pointee.consumer
            else { return false }
            let activating = state.pointee.isActivating
            ownerIsHandling.storeRelaxed(true)
            consumer._withUnsafeGuaranteedRef { $0.receive(item.result, activating) }
            ownerIsHandling.storeRelaxed(false)
            return true
        }
        if delivered, case let .failure(end) = item.result {
            endNode(with: end)
        }
        return delivered
    }

    @usableFromInline
    enum TurnStep {
        case handle(ChannelItem<Value>)
        case deactivate
        case handOver(DispatchSemaphore)
        case idle
    }

    /// The owner handles what was queued meanwhile and any deactivation asked for, then hands the
    /// turn to a waiting attacher or gives it back.
    @inlinable @inline(never)
    final func finishTurn(on thread: ThreadID) {
        while true {
            let step = withNodeLock { state, owner -> TurnStep in
                if let adopted = state.pendingGeneration {
                    state.generation = adopted
                    state.pendingGeneration = nil
                }
                if state.pendingDeactivation { return .deactivate }
                if let item = state.queue.popQueued() { return .handle(item) }
                if let turnstile = state.queue.handOverToWaiter(owner: &owner) { return .handOver(turnstile) }
                owner = .none
                return .idle
            }
            switch step {
            case let .handle(item):
                handleAsOwner(item)
            case .deactivate:
                performDeactivation()
            case let .handOver(turnstile):
                turnstile.signal()
                return
            case .idle:
                return
            }
        }
    }

    // MARK: Deactivation and ending

    /// What a node lets go of when it deactivates or ends, released after the lock; `source` is
    /// the source to deactivate (none when it is inert, since that does nothing).
    @usableFromInline
    struct Released {
        @usableFromInline var consumer: ChannelConsumer<Value>?
        @usableFromInline var source: ChannelSource<Value>?
        @usableFromInline var discarded: ContiguousArray<ChannelItem<Value>?>

        @inlinable
        init(
            consumer: ChannelConsumer<Value>?, source: ChannelSource<Value>?,
            discarded: ContiguousArray<ChannelItem<Value>?>
        ) {
            self.consumer = consumer
            self.source = source
            self.discarded = discarded
        }
    }

    /// Deactivates the node (the caller holds the turn): its consumer is released, its source
    /// disconnects upstream, and results still queued for this activation are dropped (A6, A10).
    @inlinable @inline(never)
    final func performDeactivation() {
        let released = withNodeLock { state, _ -> Released? in
            state.pendingDeactivation = false
            guard state.isActiveOrActivating else { return nil }
            state.phase = .inactive
            return Self.takeActivation(&state)
        }
        guard let released else { return }
        released.source?.deactivate(self)
        withExtendedLifetime(released) {}
    }

    /// Ends the node for good after its consumer received `end`.
    @inlinable @inline(never)
    final func endNode(with end: ChannelEnd) {
        let released = withNodeLock { state, _ -> Released? in
            state.pendingDeactivation = false
            if case .ended = state.phase { return nil }
            let wasActive = state.isActiveOrActivating
            state.phase = .ended(end)
            state.firstInput = nil
            return wasActive ? Self.takeActivation(&state) : nil
        }
        guard let released else { return }
        released.source?.deactivate(self)
        withExtendedLifetime(released) {}
    }

    @inlinable
    static func takeActivation(_ state: inout ChannelNodeState<Value>) -> Released {
        state.generation = (state.pendingGeneration ?? state.generation) &+ 1
        state.pendingGeneration = nil
        // The +1 the state owned moves to `Released`, which drops it after the lock.
        let consumer = state.consumer?.takeRetainedValue()
        state.consumer = nil
        return Released(
            consumer: consumer, source: state.source.isInert ? nil : state.source,
            discarded: state.queue.queued.isEmpty ? [] : state.queue.removeAllQueued())
    }
}
