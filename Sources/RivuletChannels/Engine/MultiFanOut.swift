/// What a multi remembers for outputs that join later.
@usableFromInline
enum MultiPolicy<Value> {
    /// The latest value (`continuous`); forgotten at the end. `whileActive` also forgets it when
    /// the last output leaves, and activates upstream only while outputs exist.
    case latest(whileActive: Bool)
    /// Every value and the end (`playback`).
    case all
    /// Nothing (`multicast`); upstream is active only while outputs exist.
    case nothing
    /// Whatever the updater leaves (`customActivation`).
    case custom((inout [Value], inout ChannelEnd?, Result<Value, ChannelEnd>) -> Void)

    /// Whether upstream is activated by the first output and deactivated by the last.
    @inlinable
    var activatesOnDemand: Bool {
        switch self {
        case let .latest(whileActive): return whileActive
        case .nothing: return true
        case .all, .custom: return false
        }
    }
}

/// A multi's consumer: it keeps the activation values for later outputs and fans every result
/// out to the branches, each a node of its own with its own turn.
///
/// Joining and fanning out agree through the lock: a branch added before a result is fanned out
/// receives it; one added after finds it in the activation values (A2). User code (a custom
/// updater) runs outside the lock, on the multi node's turn.
///
/// **Direct delivery.** A branch node is fed by this fan-out alone once its activation is over
/// (the joining thread delivers its activation values, A2; after that only the multi node's turn
/// owner, here, sends into it). So once a value has gone through the branch's uncontended path
/// (which proves the branch active, its queue empty and nothing pending) and its consumer guards
/// itself (it drops what arrives after it was stopped, as an output's and a processor's links
/// do), later values skip the branch's turn and go straight to the consumer: the multi's turn
/// already serialises them. Ends still go through the branch's turn, which ends the node. A
/// branch detached meanwhile is still called from the snapshot the loop works on (which keeps
/// its consumer alive) and drops the value, as it would through its turn. A consumer whose
/// values all go to one closure (`directValues`) is called through that closure, after a check
/// of its `stopped` flag, without its `handle`.
@usableFromInline
final class MultiFanOut<Value> {
    @usableFromInline
    struct Branch {
        @usableFromInline let node: Channel<Value>
        @usableFromInline let generation: UInt
        /// The branch's consumer, when it guards itself (see "Direct delivery"); the entry owns
        /// it, and `directConsumer` is the same reference, called without a retain.
        @usableFromInline let consumer: ChannelConsumer<Value>?
        /// Set once, under the lock, by the turn owner: values go straight to this consumer.
        @usableFromInline var directConsumer: Unmanaged<ChannelConsumer<Value>>?

        @inlinable
        init(node: Channel<Value>, generation: UInt, consumer: ChannelConsumer<Value>?) {
            self.node = node
            self.generation = generation
            self.consumer = consumer
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var branches: ContiguousArray<Branch> = []
        @usableFromInline var activationValues: [Value] = []
        @usableFromInline var end: ChannelEnd?
        /// Whether upstream should be active (on-demand multis), and whether a thread is
        /// bringing the multi node in line with that.
        @usableFromInline var wantsUpstream = false
        @usableFromInline var isReconciling = false
        @usableFromInline var reconcileAgain = false
        @usableFromInline var upstreamIsActive = false

        @usableFromInline
        init(activationValues: [Value], end: ChannelEnd?) {
            self.activationValues = activationValues
            self.end = end
        }
    }

    @usableFromInline let policy: MultiPolicy<Value>
    @usableFromInline let state: Locked<State>
    /// Owner-only copies for a custom updater, which must run outside the lock.
    @usableFromInline var customValues: [Value]
    @usableFromInline var customEnd: ChannelEnd?
    /// The multi node this fans out for; it owns this fan-out.
    @usableFromInline unowned(unsafe) var multi: Channel<Value>!
    /// The fan-out's consumer on the multi node, made by the (specialised) code that made the
    /// multi; set once, before the multi is shared.
    @usableFromInline var consumer: ChannelConsumer<Value>!

    @usableFromInline
    init(policy: MultiPolicy<Value>, initialValues: [Value], end: ChannelEnd? = nil) {
        self.policy = policy
        customValues = initialValues
        customEnd = end
        state = Locked(State(activationValues: initialValues, end: end))
    }

    // MARK: Results from upstream (the multi node's turn)

    @inlinable
    func receive(_ result: Result<Value, ChannelEnd>) {
        if case let .custom(updater) = policy {
            updater(&customValues, &customEnd, result)
        }
        var previous: Value?
        let (branches, dropped) = state.withLock { state -> (ContiguousArray<Branch>, [Value]) in
            var dropped: [Value] = []
            switch (policy, result) {
            case let (.latest, .success(value)):
                if state.activationValues.count == 1 {
                    // Replace in place, so that a steady stream allocates nothing; the old value
                    // is released after the lock.
                    previous = state.activationValues[0]
                    state.activationValues[0] = value
                } else {
                    swap(&dropped, &state.activationValues)
                    state.activationValues.append(value)
                }
            case let (.all, .success(value)):
                state.activationValues.append(value)
            case (.custom, _):
                swap(&dropped, &state.activationValues)
                state.activationValues = customValues
                state.end = customEnd
            case (.nothing, .success):
                break
            case let (.latest, .failure(end)), let (.nothing, .failure(end)):
                swap(&dropped, &state.activationValues)
                state.end = end
            case let (.all, .failure(end)):
                state.end = end
            }
            return (state.branches, dropped)
        }
        withExtendedLifetime((dropped, previous)) {}
        guard case let .success(value) = result else {
            for branch in branches {
                branch.node.deliver(result, generation: branch.generation)
            }
            return
        }
        let thread = ThreadID.current
        // Through the buffer, so that reading an entry copies (and retains) nothing: the snapshot
        // keeps every branch's node and consumer alive until the loop is done.
        let anyReady = branches.withUnsafeBufferPointer { buffer -> Bool in
            var anyReady = false
            for index in buffer.indices {
                if let consumer = buffer[index].directConsumer {
                    consumer._withUnsafeGuaranteedRef { consumer in
                        // A consumer that takes values straight to a closure is called without
                        // its `handle`; it guards itself, so the stopped check is its own.
                        if consumer.takesDirectValues {
                            if !consumer.stopped.loadAcquiring() { consumer.directValues?(value) }
                        } else {
                            consumer.receive(result, false)
                        }
                    }
                } else if deliverThroughTurn(result, to: buffer[index], on: thread) {
                    anyReady = true
                }
            }
            return anyReady
        }
        if anyReady {
            // After the snapshot is gone, so that marking the branches copies no array.
            _ = consume branches
            makeReadyBranchesDirect()
        }
    }

    /// Delivers a value to `branch` through the branch node's turn. Returns whether it went
    /// through the uncontended path to a consumer that guards itself: the branch is then ready
    /// for direct delivery (see "Direct delivery"), which its node records.
    @inlinable
    func deliverThroughTurn(_ result: Result<Value, ChannelEnd>, to branch: Branch, on thread: ThreadID) -> Bool {
        let node = branch.node
        guard node.storage.claimTurnIfIdle(thread) else {
            _ = node.deliverTakingTheLock(
                ChannelItem(result: result, generation: branch.generation), from: nil, cancelling: false, on: thread)
            return false
        }
        let delivered = node.handleAsOwner(ChannelItem(result: result, generation: branch.generation))
        if !node.storage.releaseTurnIfUncontended(thread) {
            node.finishTurn(on: thread)
            return false
        }
        guard delivered, branch.consumer != nil else { return false }
        node.directDeliveryGeneration = branch.generation
        return true
    }

    /// Makes direct every branch whose node recorded that it is ready. Out of line: once a branch.
    @inlinable @inline(never)
    func makeReadyBranchesDirect() {
        state.withLock { state in
            for index in state.branches.indices where state.branches[index].directConsumer == nil {
                guard let consumer = state.branches[index].consumer,
                    state.branches[index].node.directDeliveryGeneration == state.branches[index].generation
                else { continue }
                state.branches[index].directConsumer = Unmanaged.passUnretained(consumer)
            }
        }
    }

    // MARK: Branches (each branch node's turn)

    /// Connects `consumer` on a new branch of the multi (A4: every output has its own node).
    @inlinable
    func connectBranch(_ consumer: ChannelConsumer<Value>, run: ActivationRun?) -> ChannelConnection<Value> {
        let branch = Channel(source: .of(MultiBranchSource(fanOut: self, multi: multi)))
        return ChannelConnection(branch.attach(consumer, run: run), node: branch)
    }

    /// Adds `node` (activating as `generation`) and sends it the activation values (A2).
    @inlinable
    func addBranch(_ node: Channel<Value>, generation: UInt, run: ActivationRun) {
        // The activating thread holds the branch node's turn, so it may read its consumer.
        let consumer = node.storage.withUnsafeMutablePointerToHeader { $0.pointee.consumer?.takeUnretainedValue() }
        let direct = consumer.flatMap { $0.guardsItself ? $0 : nil }
        let (values, end) = state.withLock { state -> ([Value], ChannelEnd?) in
            state.branches.append(Branch(node: node, generation: generation, consumer: direct))
            if policy.activatesOnDemand { state.wantsUpstream = true }
            return (state.activationValues, state.end)
        }
        if policy.activatesOnDemand, end == nil {
            reconcileUpstream(run: run)
        }
        for value in values {
            node.deliver(.success(value), generation: generation)
        }
        if let end {
            node.deliver(.failure(end), generation: generation)
        }
    }

    /// Removes `node`; the last branch of an on-demand multi deactivates its upstream.
    @inlinable
    func removeBranch(_ node: Channel<Value>) {
        let removed = state.withLock { state -> Branch? in
            guard let index = state.branches.firstIndex(where: { $0.node === node }) else { return nil }
            let branch = state.branches.remove(at: index)
            if policy.activatesOnDemand, state.branches.isEmpty { state.wantsUpstream = false }
            return branch
        }
        withExtendedLifetime(removed) {}
        if policy.activatesOnDemand {
            reconcileUpstream(run: nil)
        }
    }

    /// Activates the multi node's upstream for this consumer now (multis that are active from
    /// the start).
    @inlinable
    func activateUpstream(run: ActivationRun) {
        state.withLock { $0.upstreamIsActive = true }
        connectToMulti(run: run)
    }

    /// Brings the multi node's activation in line with `wantsUpstream`. One thread at a time
    /// does it; a thread that finds another at work leaves it a note to look again.
    @inlinable
    func reconcileUpstream(run: ActivationRun?) {
        while true {
            var forgotten: [Value] = []
            let change = state.withLock { state -> Bool? in
                if state.isReconciling {
                    state.reconcileAgain = true
                    return nil
                }
                guard state.wantsUpstream != state.upstreamIsActive else { return nil }
                state.isReconciling = true
                state.upstreamIsActive = state.wantsUpstream
                if !state.wantsUpstream, case .latest = policy { swap(&forgotten, &state.activationValues) }
                return state.wantsUpstream
            }
            // A forgotten value (`continuousWhileActive`) is released after the lock (O7).
            withExtendedLifetime(forgotten) {}
            guard let activate = change else { return }
            if activate {
                if let run {
                    connectToMulti(run: run)
                } else {
                    ActivationRun.perform { connectToMulti(run: $0) }
                }
            } else {
                multi.detach(consumer)
            }
            let again = state.withLock { state -> Bool in
                state.isReconciling = false
                defer { state.reconcileAgain = false }
                return state.reconcileAgain
            }
            if !again { return }
        }
    }

    @inlinable
    func connectToMulti(run: ActivationRun) {
        switch multi.attach(consumer, run: run) {
        case .attached, .duplicate:
            break
        case let .ended(end):
            receive(.failure(end))
        }
    }
}

/// The source of a multi's branch: activating it joins the multi's fan-out.
@usableFromInline
final class MultiBranchSource<Value>: ChannelSourceBehaviour {
    @usableFromInline let fanOut: MultiFanOut<Value>
    /// Keeps the multi alive while the branch exists.
    @usableFromInline let multi: Channel<Value>

    @inlinable
    init(fanOut: MultiFanOut<Value>, multi: Channel<Value>) {
        self.fanOut = fanOut
        self.multi = multi
    }

    @inlinable
    func activate(_ node: Channel<Value>, generation: UInt, run: ActivationRun) {
        fanOut.addBranch(node, generation: generation, run: run)
    }

    @inlinable
    func deactivate(_ node: Channel<Value>) {
        fanOut.removeBranch(node)
    }

    @usableFromInline
    func reaches(_ node: AnyObject) -> Bool {
        multi.draws(from: node)
    }
}
