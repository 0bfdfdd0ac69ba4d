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
    @usableFromInline let storage: MailboxStorage<ChannelNodeState<Value>>

    @usableFromInline
    init(source: ChannelSource<Value>) {
        storage = MailboxStorage.make(ChannelNodeState(source: source))
        // A new node is inactive: set the turn word's slow-path bit, so that no send takes the
        // uncontended path before an activation has cleared it.
        storage.withTurnLock { _, _ in }
    }

    /// Connects `consumer` below this channel. A plain channel attaches it to itself; a multi
    /// gives it a branch of its own.
    @usableFromInline
    func connect(_ consumer: ChannelConsumer<Value>, run: ActivationRun) -> ChannelConnection<Value> {
        attach(consumer, run: run)
    }
}

// @unchecked Sendable: a channel's mutable state is its node state, changed only under its
// storage's lock or by the turn's owner (see `ChannelNodeState` and `MailboxStorage`).
extension Channel: @unchecked Sendable {}
