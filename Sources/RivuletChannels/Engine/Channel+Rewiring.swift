extension Channel {
    /// The outcome of handing a channel's input over to another source.
    enum SourceSwap {
        /// Done; `generation` is the node's current activation if it is active.
        case swapped(activeGeneration: UInt?)
        /// `input` is not the channel's current input.
        case notCurrent
    }

    /// Replaces the node's current input `input` with `source` (a junction binding in), A10.
    /// If the node is active, the caller activates `source` for the returned generation.
    func replaceInput(_ input: ChannelInput<Value>, with source: ChannelSource<Value>) -> SourceSwap {
        let thread = ThreadID.current
        let swap = withNodeLock { state, owner -> SourceSwap in
            guard state.firstInput == ObjectIdentifier(input), !state.source.isJunction else {
                return .notCurrent
            }
            if case .ended = state.phase { return .notCurrent }
            state.firstInput = nil
            state.firstInputGeneration = nil
            state.source = source
            guard state.isActiveOrActivating else { return .swapped(activeGeneration: nil) }
            // Results the old input already queued belong to the old connection (A10).
            return .swapped(activeGeneration: state.advanceGenerationForRewiring(owner: owner, thread: thread))
        }
        if case .swapped = swap { input.revoke() }
        return swap
    }

    /// Gives the node a fresh input in place of `source` (a junction letting go). The input is
    /// bound to the current activation if there is one. Returns `nil` if `source` is no longer
    /// the node's source.
    func restoreInput(replacing source: ObjectIdentifier) -> ChannelInput<Value>? {
        let thread = ThreadID.current
        let (input, replaced) = withNodeLock {
            state, owner -> (ChannelInput<Value>?, ChannelSource<Value>?) in
            guard ObjectIdentifier(state.source) == source else { return (nil, nil) }
            if case .ended = state.phase { return (nil, nil) }
            let active = state.isActiveOrActivating && !state.pendingDeactivation
            // Results the junction already queued belong to the broken connection (A10).
            let generation = active ? state.advanceGenerationForRewiring(owner: owner, thread: thread) : nil
            let input = ChannelInput(channel: self, generation: generation ?? ChannelGeneration.unbound)
            let replaced = state.source
            state.source = .inert()
            state.firstInput = ObjectIdentifier(input)
            state.firstInputGeneration = generation
            return (input, replaced)
        }
        // The junction's source (and, through it, the junction and its closures) may go with the
        // last reference here, after the lock (O7).
        withExtendedLifetime(replaced) {}
        return input
    }

    /// Whether this channel's source currently draws (directly or through its own upstream) from
    /// `node`: binding `node`'s output into this channel would make a loop.
    func draws(from node: AnyObject) -> Bool {
        self === node || storage.withLock { $0.source }.reaches(node)
    }
}
