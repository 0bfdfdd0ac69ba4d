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
    ///
    /// Without a `run` (a connection that starts here), the node makes one only when it has a
    /// source to activate, and finishes it before returning: attaching to an inert node, the
    /// commonest case (an output on a `create()` channel), allocates no run.
    @inlinable
    final func attach(_ consumer: ChannelConsumer<Value>, run: ActivationRun?) -> AttachOutcome {
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
                if state.source.isInert, consumer.activationDidEnd == nil, !state.pendingDeactivation,
                    owner == .none || owner == TurnOwner(thread)
                {
                    // Nothing upstream to activate and nothing to tell the consumer when the run
                    // is over: the node is active at once, in this round through the lock, with
                    // no activation values (A2 holds trivially) and no turn to take. `attached`
                    // runs here, before any result can reach the consumer; it only records the
                    // node (a retain, never a release, and no user code).
                    state.phase = .active
                    activateState(&state, consumer: consumer)
                    consumer.attached?(consumer, self)
                    return .activeAtOnce
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
                state.phase = .activating
                activateState(&state, consumer: consumer)
                return .activate(state.source, generation: state.generation)
            }
            switch step {
            case .revived:
                if claimed { finishTurn(on: thread) }
                return .attached
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
                if claimed { finishTurn(on: thread) }
                return .attached
            case let .activate(source, generation):
                consumer.attached?(consumer, self)
                let held = ActivationRun.HeldNode(node: self, releasesTurn: claimed, thread: thread) {
                    unsafeDowncast($0, to: Channel<Value>.self).endActivation(releasingTurn: $1, on: $2)
                }
                if let run {
                    run.hold(held)
                    source.activate(self, generation, run)
                } else {
                    ActivationRun.perform { run in
                        run.hold(held)
                        source.activate(self, generation, run)
                    }
                }
                return .attached
            }
        }
    }

    /// Starts an activation of the node for `consumer` (under the lock).
    @inlinable
    final func activateState(_ state: inout ChannelNodeState<Value>, consumer: ChannelConsumer<Value>) {
        state.generation &+= 1
        state.consumer = .passRetained(consumer)
        if state.firstInput != nil, state.firstInputGeneration == nil {
            state.firstInputGeneration = state.generation
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
            if turnClaimed { released.source?.deactivate(self) }
            withExtendedLifetime(released) {}
        }
        if turnClaimed { finishTurn(on: thread) }
    }

    /// Connects `consumer` now, in an activation run of its own if anything needs activating.
    @inlinable
    final func connectNow(_ consumer: ChannelConsumer<Value>) -> ChannelConnection<Value> {
        connect(consumer, run: nil)
    }
}
