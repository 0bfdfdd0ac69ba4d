/// The source of a channel fed by several channels at once: a multi-input, a merged input,
/// `merge` and `combine`. Each source channel gets a consumer of its own that forwards into the
/// node, whose turn serialises them (A9). A source's end only detaches that source, unless its
/// propagation lets the end through or it was the last one and the channel ends with it.
final class MultiInputSource<Value>: ChannelSourceBehaviour {
    struct Entry {
        let id: Int
        let channel: Channel<Value>
        let propagation: ChannelEndPropagation
        let removeOnDeactivate: Bool
        var consumer: ChannelConsumer<Value>?
        var forwarder: MergeForwarder<Value>?
        var attachedTo: Channel<Value>?
    }

    struct State {
        var entries: [Entry] = []
        var nextID = 0
        /// The node and its activation, while active.
        var activation: (node: Channel<Value>, generation: UInt)?
        /// How the last source to end ended.
        var lastSourceEnd: ChannelEnd?
    }

    /// How the channel ends when its last source ends (and the source's own end did not).
    enum LastSourceRule {
        /// It does not end.
        case staysOpen
        /// It ends with this end (a merged input's `onLastInputClosed`).
        case endsWith(ChannelEnd)
        /// It ends the way the last source did (`merge`: complete after the last completes,
        /// cancelled after the last is cancelled).
        case endsLikeTheLastSource

        func end(after sourceEnd: ChannelEnd) -> ChannelEnd? {
            switch self {
            case .staysOpen: return nil
            case let .endsWith(end): return end
            case .endsLikeTheLastSource: return sourceEnd
            }
        }
    }

    private let state = Locked(State())
    private let lastSourceRule: LastSourceRule

    init(onLastInputClosed: ChannelEnd?) {
        lastSourceRule = onLastInputClosed.map { .endsWith($0) } ?? .staysOpen
    }

    init(lastSourceRule: LastSourceRule) {
        self.lastSourceRule = lastSourceRule
    }

    // MARK: Sources

    func add(_ channel: Channel<Value>, propagation: ChannelEndPropagation, removeOnDeactivate: Bool) {
        let connectNow = state.withLock { state -> (Entry, Channel<Value>, UInt)? in
            let entry = Entry(
                id: state.nextID, channel: channel, propagation: propagation, removeOnDeactivate: removeOnDeactivate)
            state.nextID += 1
            state.entries.append(entry)
            return state.activation.map { (entry, $0.node, $0.generation) }
        }
        if let (entry, node, generation) = connectNow {
            ActivationRun.perform { connect(entry, into: node, generation: generation, run: $0) }
        }
    }

    func remove(_ channel: Channel<Value>) {
        let removed = state.withLock { state -> [Entry] in
            let removed = state.entries.filter { $0.channel === channel }
            state.entries.removeAll { $0.channel === channel }
            return removed
        }
        for entry in removed { disconnect(entry) }
    }

    // MARK: Activation (the node's turn)

    func activate(_ node: Channel<Value>, generation: UInt, run: ActivationRun) {
        let entries = state.withLock { state -> [Entry] in
            state.activation = (node, generation)
            return state.entries
        }
        if entries.isEmpty, let lastEnd = state.withLock({ $0.lastSourceEnd }), let end = lastSourceRule.end(after: lastEnd) {
            node.deliver(.failure(end), generation: generation)
            return
        }
        for entry in entries {
            connect(entry, into: node, generation: generation, run: run)
        }
    }

    func deactivate(_ node: Channel<Value>) {
        let entries = state.withLock { state -> [Entry] in
            state.activation = nil
            let entries = state.entries
            state.entries.removeAll { $0.removeOnDeactivate }
            for index in state.entries.indices {
                state.entries[index].consumer = nil
                state.entries[index].forwarder = nil
                state.entries[index].attachedTo = nil
            }
            return entries
        }
        for entry in entries { disconnect(entry) }
    }

    func reaches(_ node: AnyObject) -> Bool {
        state.withLock { $0.entries.map(\.channel) }.contains { $0.draws(from: node) }
    }

    private func connect(_ entry: Entry, into node: Channel<Value>, generation: UInt, run: ActivationRun) {
        let forwarder = MergeForwarder(source: self, entryID: entry.id, node: node, generation: generation)
        let consumer = ChannelConsumer<Value>.closure { result, _ in forwarder.receive(result) }
        let current = state.withLock { state -> Bool in
            guard state.activation?.generation == generation,
                let index = state.entries.firstIndex(where: { $0.id == entry.id })
            else { return false }
            state.entries[index].consumer = consumer
            state.entries[index].forwarder = forwarder
            return true
        }
        guard current else { return }
        switch entry.channel.connect(consumer, run: run) {
        case let .attached(upstreamNode):
            let kept = state.withLock { state -> Bool in
                guard let index = state.entries.firstIndex(where: { $0.id == entry.id }),
                    state.entries[index].consumer === consumer
                else { return false }
                state.entries[index].attachedTo = upstreamNode
                return true
            }
            if !kept {
                forwarder.stop()
                upstreamNode.detach(consumer)
            }
        case .duplicate:
            forwarder.receive(.failure(.other(ChannelBindError<Value>.duplicate(nil))))
        case let .ended(end):
            forwarder.receive(.failure(end))
        }
    }

    private func disconnect(_ entry: Entry) {
        guard let consumer = entry.consumer else { return }
        entry.forwarder?.stop()
        entry.attachedTo?.detach(consumer)
    }

    /// A source ended: detach it, and end the channel if its propagation or the last-source rule
    /// says so.
    func sourceEnded(entryID: Int, end: ChannelEnd, node: Channel<Value>, generation: UInt) {
        let outcome = state.withLock { state -> (entry: Entry, propagate: Bool, wasLast: Bool)? in
            guard let index = state.entries.firstIndex(where: { $0.id == entryID }) else { return nil }
            let entry = state.entries.remove(at: index)
            state.lastSourceEnd = end
            return (entry, entry.propagation.propagates(end), state.entries.isEmpty)
        }
        guard let outcome else { return }
        // The removed entry (its channel and consumer) is let go here, after the lock (O7).
        withExtendedLifetime(outcome.entry) {}
        if outcome.propagate {
            node.deliver(.failure(end), generation: generation)
        } else if outcome.wasLast, let lastEnd = lastSourceRule.end(after: end) {
            node.deliver(.failure(lastEnd), generation: generation)
        }
    }
}

/// What a multi-input's consumer on one of its sources does: forward values, report the end.
final class MergeForwarder<Value> {
    /// The memory of `stopped`: the first stored property, never read or written directly after
    /// `init` (see Rivulet's AtomicWord.swift).
    var stoppedStorage = AtomicFlag.storage(false)
    private let source: MultiInputSource<Value>
    private let entryID: Int
    private let node: Channel<Value>
    private let generation: UInt
    private var stopped: AtomicFlag { AtomicFlag(firstStoredPropertyOf: self) }

    init(source: MultiInputSource<Value>, entryID: Int, node: Channel<Value>, generation: UInt) {
        self.source = source
        self.entryID = entryID
        self.node = node
        self.generation = generation
    }

    func stop() {
        stopped.storeReleasing(true)
    }

    func receive(_ result: Result<Value, ChannelEnd>) {
        guard !stopped.loadAcquiring() else { return }
        switch result {
        case .success:
            node.deliver(result, generation: generation)
        case let .failure(end):
            stopped.storeReleasing(true)
            source.sourceEnded(entryID: entryID, end: end, node: node, generation: generation)
        }
    }
}
