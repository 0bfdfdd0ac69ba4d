/// A channel: the receiving end of a stream of results, inert until an output is attached (A1).
///
/// A plain `Channel` has one output (A4): a second `subscribe` ends at once with
/// `ChannelBindError.duplicate`, and fan-out takes a `ChannelMulti` (`continuous()`, `playback()`,
/// `multicast()`, `customActivation(...)`). Make one with `create()` or `generate(context:_:)`,
/// transform it with `transform`, `map`, `filter`, `combine`…, and listen with `subscribe`.
///
/// Each channel is a node of a graph. Attaching an output activates every inactive node between
/// it and the sources (per node, not per subscriber); releasing the output deactivates the part
/// of the graph that only it used (A6). Sends into the graph never wait for another thread: a
/// result sent while another thread delivers is queued and delivered by that thread, in order (A9).
public class Channel<Value> {
    /// The memory of `publishedGeneration` and `ownerIsHandling`: the first stored property, never
    /// read or written directly after `init` (see Rivulet's AtomicWord.swift).
    @usableFromInline var atomicsStorage = AtomicWordAndFlagStorage(word: 0, flag: false)
    @usableFromInline let storage: MailboxStorage<ChannelNodeState<Value>>
    /// How a consumer is connected below this channel when it is not attached to the node
    /// itself: a multi gives each consumer a branch of its own.
    /// Whether the turn's owner is inside the consumer (written and read only by the owner).
    /// Kept outside the node state: a lock holder's `inout` access covers the whole state, and
    /// Thread Sanitizer would count the owner's plain writes to it as racing with that access.
    @inlinable
    final var ownerIsHandling: AtomicFlag { AtomicFlag(pairIn: self) }
    @usableFromInline let connector: ((ChannelConsumer<Value>, ActivationRun?) -> ChannelConnection<Value>)?
    /// The node's generation as of its last transition under the lock, readable without it. It
    /// only grows and never runs ahead of the state's, so an input whose generation is below it
    /// belongs to an activation that is over, and its end can be refused without the lock.
    @inlinable
    final var publishedGeneration: AtomicWord { AtomicWord(pairIn: self) }
    /// For a multi's branch: the activation in which a value reached this node's consumer through
    /// the uncontended path, so that later values may skip the turn (see `MultiFanOut`). Read and
    /// written only by the multi node's turn owner, hence no dynamic exclusivity check.
    @exclusivity(unchecked) @usableFromInline var directDeliveryGeneration: UInt = 0

    @inlinable
    init(
        source: ChannelSource<Value>,
        connector: ((ChannelConsumer<Value>, ActivationRun?) -> ChannelConnection<Value>)? = nil
    ) {
        self.connector = connector
        storage = MailboxStorage.make(ChannelNodeState(source: source))
        // A new node is inactive: set the turn word's slow-path bit, so that no send takes the
        // uncontended path before an activation has cleared it.
        storage.withTurnLock { _, _ in }
    }

    /// Runs a transition of the node's state machine under its lock (`MailboxStorage`'s
    /// `withTurnLock`), then publishes the generation it leaves.
    @inlinable
    final func withNodeLock<R>(_ body: (inout ChannelNodeState<Value>, inout TurnOwner) -> R) -> R {
        storage.withTurnLock { state, owner in
            let result = body(&state, &owner)
            publishedGeneration.storeReleasing(state.generation)
            return result
        }
    }

    /// Connects `consumer` below this channel. A plain channel attaches it to itself; a multi
    /// gives it a branch of its own. Without a `run`, one is made only if something needs
    /// activating (see `attach`).
    @inlinable
    final func connect(_ consumer: ChannelConsumer<Value>, run: ActivationRun?) -> ChannelConnection<Value> {
        if let connector { return connector(consumer, run) }
        return ChannelConnection(attach(consumer, run: run), node: self)
    }
}

// @unchecked Sendable: a channel's mutable state is its node state, changed only under its
// storage's lock or by the turn's owner (see `ChannelNodeState` and `MailboxStorage`), and its
// atomics (`atomicsStorage`, never accessed after `init` but through their atomic operations).
// Only where `Value` is Sendable: a result sent on one thread may be delivered by another (A9),
// so a channel of other values stays in one isolation region, with its inputs and outputs.
extension Channel: @unchecked Sendable where Value: Sendable {}
