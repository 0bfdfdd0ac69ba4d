/// One result on its way into a channel, tagged with the activation it was sent for, so that a
/// result from a connection that has since been replaced is dropped rather than delivered out of
/// order (A10).
@usableFromInline
struct ChannelItem<Value> {
    @usableFromInline var result: Result<Value, ChannelEnd>
    @usableFromInline var generation: UInt

    @inlinable
    init(result: Result<Value, ChannelEnd>, generation: UInt) {
        self.result = result
        self.generation = generation
    }
}

/// Special generation tags carried by sends.
@usableFromInline
enum ChannelGeneration {
    /// A `create()` input that has not been bound to an activation yet.
    @inlinable static var unbound: UInt { 0 }
    /// An input that was replaced by a junction or cancelled: it never delivers again.
    @inlinable static var revoked: UInt { .max - 1 }
    /// A multi-input's send: whatever activation is current.
    @inlinable static var current: UInt { .max }
}

/// A channel node's state machine, kept in its `MailboxStorage` and changed only under its lock,
/// with the turn's owner passed in from the storage's turn word.
///
/// A channel is a mailbox whose inputs are results and whose policy is `queueForOwner` (A9): a
/// result arriving while another thread holds the turn is queued and delivered by that thread, in
/// order; nobody waits for a delivery. What a channel adds to `MailboxQueue`'s rules:
/// - **Activation.** An inactive node has no consumer and refuses results (`inactive`). Attaching
///   a consumer takes the turn, bumps the generation, and activates the node's source upstream.
///   The activating thread keeps the turn until the whole run is activated, so results from other
///   threads queue behind the activation values (A2). While the owner is not inside its own
///   consumer (during activation), its own results are handled at once; inside the consumer they
///   are queued (E6).
/// - **Generations.** Every activation and every deactivation bumps `generation`; a result tagged
///   with another generation belongs to a stale connection and is dropped (A10).
/// - **Deactivation** requested by a thread that does not hold the turn is recorded in
///   `pendingDeactivation` and carried out by the owner between two results; nobody waits.
/// - **Ending.** After the consumer has received an end, the node is ended for good: it releases
///   its consumer and its source's connections, and later sends report `disconnected`.
///
/// Fields marked *owner-only* are read and written by the turn's owner without the lock; the rest
/// only under the lock. `consumer`, `generation` and `isActivating` are written by the owner under the lock and read by
/// the owner without it (see `MailboxStorage`'s argument).
@usableFromInline
struct ChannelNodeState<Value>: MailboxGuardedState {
    @usableFromInline
    enum Phase {
        case inactive
        case activating
        case active
        case ended(ChannelEnd)
    }

    @usableFromInline var phase = Phase.inactive {
        didSet {
            if case .activating = phase { isActivating = true } else { isActivating = false }
        }
    }
    /// `phase == .activating`, as a plain flag for the owner's unlocked read: matching the enum
    /// (whose `ended` case carries an error) is a formal access that Thread Sanitizer would see
    /// racing with a lock holder's `inout` access to the state.
    @usableFromInline var isActivating = false
    @usableFromInline var generation: UInt = 2
    /// Retained by hand (the state owns that +1), so that the owner calls it through a plain
    /// load, with no retain and release per result.
    @usableFromInline var consumer: Unmanaged<ChannelConsumer<Value>>?
    @usableFromInline var source: ChannelSource<Value>
    @usableFromInline var queue = MailboxQueue<ChannelItem<Value>>()
    /// A thread that does not hold the turn asked for deactivation.
    @usableFromInline var pendingDeactivation = false
    /// The generation a rewiring (a junction binding in or letting go) moved the node to while
    /// another thread held the turn; that owner adopts it between two results, so results still
    /// queued from the replaced connection are dropped (A10). New connections already use it.
    @usableFromInline var pendingGeneration: UInt?
    /// The `create()` input while it is the node's input (a junction or the end replaces it).
    @usableFromInline var firstInput: ObjectIdentifier?
    /// The activation that the `create()` input was bound to: its first one (single use).
    @usableFromInline var firstInputGeneration: UInt?

    @inlinable
    init(source: ChannelSource<Value>) {
        self.source = source
    }

    @inlinable
    var isActiveOrActivating: Bool {
        switch phase {
        case .active, .activating: return true
        case .inactive, .ended: return false
        }
    }

    @inlinable
    var needsSlowPath: Bool {
        guard case .active = phase, !pendingDeactivation, pendingGeneration == nil else { return true }
        return queue.needsOwnerAttention
    }

    @inlinable
    mutating func prepareForDeallocation() {
        consumer?.release()
        consumer = nil
    }

    /// Moves the active node to a new generation for a rewiring and returns it: at once when
    /// `owner` is nobody or the calling thread, else through `pendingGeneration`.
    @inlinable
    mutating func advanceGenerationForRewiring(owner: TurnOwner, thread: ThreadID) -> UInt {
        let next = (pendingGeneration ?? generation) &+ 1
        if owner == .none || owner == TurnOwner(thread) {
            generation = next
            pendingGeneration = nil
        } else {
            pendingGeneration = next
        }
        return next
    }

    /// Whether `candidate` is the attached consumer.
    @inlinable
    func isConsumer(_ candidate: ChannelConsumer<Value>) -> Bool {
        consumer?.toOpaque() == Unmanaged.passUnretained(candidate).toOpaque()
    }
}
