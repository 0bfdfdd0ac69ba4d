import Dispatch

extension Channel {
    @usableFromInline
    enum AttachStep {
        case duplicate
        case revived
        case ended(ChannelEnd)
        case wait(DispatchSemaphore)
        case deactivateFirst
        case activate(ChannelSource<Value>, generation: UInt)
        case activeAtOnce
    }

    /// Attaches `consumer` below this node and activates the node's source upstream, as part of
    /// `run` (A1). A node that already has a consumer answers `duplicate` (A4); an ended node
    /// answers with its end.
    ///
    /// The attaching thread takes the node's turn and keeps it until `run` finishes. If another
    /// thread holds it, this node is inactive or has a deactivation pending, so that thread is
    /// refusing a send, tearing the node down, or finishing its last delivery to the consumer
    /// being detached; the attacher waits for that, never for a delivery of the new activation.
    @inlinable
    final func attach(_ consumer: ChannelConsumer<Value>, run: ActivationRun) -> ChannelConnection<Value> {
        let thread = ThreadID.current
        var claimed = false
        while true {
            let step = withNodeLock { state, owner -> AttachStep in
                switch state.phase {
                case let .ended(end):
                    return .ended(end)
                case .active, .activating:
                    if state.pendingDeactivation, state.isConsumer(consumer) {
                        // The same consumer comes back (a multi's fan-out whose last output left
                        // and a new one joined): the node simply stays active, without waiting.
                        state.pendingDeactivation = false
                        return .revived
                    }
                    if !state.pendingDeactivation || owner == TurnOwner(thread) { return .duplicate }
                case .inactive:
                    break
                }
                if owner == .none {
                    owner = TurnOwner(thread)
                    claimed = true
                } else if owner != TurnOwner(thread) {
                    guard case let .mustWait(turnstile) = state.queue.claimTurn(on: thread, owner: &owner) else {
                        preconditionFailure(
                            "Rivulet: a channel's turn was held by another thread but could not be waited for (internal error)")
                    }
                    return .wait(turnstile)
                }
                if state.pendingDeactivation { return .deactivateFirst }
                // Nothing upstream to activate and nothing to tell the consumer when the run is
                // over: the node is active at once, with no activation values (A2 holds
                // trivially), and its turn goes back right after `attached`.
                let activeAtOnce = state.source.isInert && consumer.activationDidEnd == nil
                state.phase = activeAtOnce ? .active : .activating
                state.generation &+= 1
                state.consumer = .passRetained(consumer)
                if state.firstInput != nil, state.firstInputGeneration == nil {
                    state.firstInputGeneration = state.generation
                }
                return activeAtOnce ? .activeAtOnce : .activate(state.source, generation: state.generation)
            }
            switch step {
            case .revived:
                if claimed { finishTurn(on: thread) }
                return .attached(self)
            case .duplicate:
                if claimed { finishTurn(on: thread) }
                return .duplicate
            case let .ended(end):
                if claimed { finishTurn(on: thread) }
                return .ended(end)
            case let .wait(turnstile):
                turnstile.wait()
                withNodeLock { state, owner in state.queue.resumeAfterWaiting(on: thread, owner: &owner) }
                claimed = true
            case .deactivateFirst:
                performDeactivation()
            case .activeAtOnce:
                consumer.attached?(consumer, self)
                // Results sent meanwhile were queued for this owner; `finishTurn` delivers them.
                if claimed, !storage.releaseTurnIfUncontended(thread) { finishTurn(on: thread) }
                return .attached(self)
            case let .activate(source, generation):
                let releasesTurn = claimed
                consumer.attached?(consumer, self)
                run.hold(
                    ActivationRun.HeldNode(node: self, releasesTurn: releasesTurn, thread: thread) {
                        unsafeDowncast($0, to: Channel<Value>.self).endActivation(releasingTurn: $1, on: $2)
                    })
                source.activate(self, generation, run)
                return .attached(self)
            }
        }
    }

    /// The run that activated this node is done upstream: later results are ordinary values, and
    /// those queued meanwhile are delivered now, after the activation values (A2).
    @inlinable
    final func endActivation(releasingTurn: Bool, on thread: ThreadID) {
        let (consumer, turnGivenBack) = withNodeLock { state, owner -> (ChannelConsumer<Value>?, Bool) in
            guard case .activating = state.phase else { return (nil, false) }
            state.phase = .active
            let consumer = state.consumer?.takeUnretainedValue()
            // With nothing to tell the consumer and nothing waiting, the turn goes back now,
            // without a second round through the lock in `finishTurn`.
            if releasingTurn, consumer?.activationDidEnd == nil, !state.queue.needsOwnerAttention,
                !state.pendingDeactivation, state.pendingGeneration == nil
            {
                owner = .none
                return (consumer, true)
            }
            return (consumer, false)
        }
        if turnGivenBack { return }
        consumer?.activationDidEnd?()
        if releasingTurn { finishTurn(on: thread) }
    }

    /// Deactivates this node if `consumer` is still attached to it (A6): at once when nobody
    /// holds the turn, otherwise by the owner between two results. Never waits.
    @inlinable
    final func detach(_ consumer: ChannelConsumer<Value>) {
        let thread = ThreadID.current
        var turnClaimed = false
        let released = withNodeLock { state, owner -> Released? in
            guard state.isActiveOrActivating, state.isConsumer(consumer) else { return nil }
            guard owner == .none else {
                state.pendingDeactivation = true
                return nil
            }
            // Nobody holds the turn: deactivate in the same round through the lock, and take the
            // turn for the source's deactivation, unless the source is inert (nothing to do).
            if !state.source.isInert {
                owner = TurnOwner(thread)
                turnClaimed = true
            }
            state.pendingDeactivation = false
            state.phase = .inactive
            return Self.takeActivation(&state)
        }
        // Consumed, so that the parts move out of the optional rather than being copied.
        switch consume released {
        case .none:
            return
        case let .some(released):
            if turnClaimed { released.source.deactivate(self) }
            withExtendedLifetime(released) {}
        }
        if turnClaimed { finishTurn(on: thread) }
    }

    /// Connects `consumer` in a new activation run and finishes the run.
    @inlinable
    final func connectNow(_ consumer: ChannelConsumer<Value>) -> ChannelConnection<Value> {
        ActivationRun.perform { connect(consumer, run: $0) }
    }
}
