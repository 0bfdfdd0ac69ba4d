/// What is attached below a channel node: an output, a processor feeding the next node, a
/// multi's fan-out, a capture, a junction. The node calls `receive` only from its turn, one
/// result at a time, never under a lock; `activating` is true for activation values (A2), which
/// a consumer with an execution context handles synchronously instead of hopping.
///
/// The node calls the consumer through `handle`, a closure given the consumer itself, not
/// through an overridden method: a method of a generic class is called through its vtable in
/// unspecialised code, while `handle` is formed where the consumer is made, in code the compiler
/// specialises for the value types (the public, inlinable API), so that the delivery path runs
/// specialised code with no generic metadata look-ups. A subclass keeps its state in its own
/// fields and passes a `handle` that captures nothing (so it allocates no closure context) and
/// downcasts the consumer it is given; `ClosureConsumer` keeps its state in a closure.
@usableFromInline
class ChannelConsumer<Value> {
    /// The memory of `stopped`: the first stored property, never read or written directly after
    /// `init` (see Rivulet's AtomicWord.swift).
    @usableFromInline final var stoppedStorage = AtomicFlag.storage(false)
    @usableFromInline let handle: (ChannelConsumer<Value>, Result<Value, ChannelEnd>, Bool) -> Void
    /// Whether the consumer was stopped (detached or ended), for a consumer that guards itself:
    /// it then drops whatever still reaches it.
    @inlinable
    final var stopped: AtomicFlag { AtomicFlag(firstStoredPropertyOf: self) }
    /// For a consumer that guards itself and whose values all go to one closure on the
    /// delivering thread (`subscribeValues` without a context): that closure, which a multi's
    /// steady branch calls directly while the consumer is not stopped, skipping `handle`.
    @usableFromInline final let directValues: ((Value) -> Void)?
    /// `directValues != nil`, as a flag: testing the closure itself would copy (retain) it.
    @usableFromInline final let takesDirectValues: Bool
    /// Told which node attached the consumer, before any result: by the node's new turn owner,
    /// or, for a node that is active at once, under its lock, so it must only record the node
    /// (no user code, no release).
    @usableFromInline let attached: ((ChannelConsumer<Value>, Channel<Value>) -> Void)?
    /// Told when the activation run that attached the consumer is over.
    @usableFromInline let activationDidEnd: (() -> Void)?
    /// Whether the consumer drops, by itself, every result that reaches it after it was
    /// stopped (detached), so that a multi may call it without its branch's turn (see
    /// `MultiFanOut`).
    @usableFromInline let guardsItself: Bool

    let liveObject = LiveObjectTracker<LiveObjectTag.ChannelNode>()

    @inlinable
    init(
        handle: @escaping (ChannelConsumer<Value>, Result<Value, ChannelEnd>, Bool) -> Void,
        attached: ((ChannelConsumer<Value>, Channel<Value>) -> Void)? = nil, activationDidEnd: (() -> Void)? = nil,
        guardsItself: Bool = false, directValues: ((Value) -> Void)? = nil
    ) {
        precondition(
            directValues == nil || guardsItself,
            "Rivulet: a channel consumer with direct values must guard itself (internal error)")
        self.handle = handle
        self.directValues = directValues
        takesDirectValues = directValues != nil
        self.attached = attached
        self.activationDidEnd = activationDidEnd
        self.guardsItself = guardsItself
    }

    /// Hands the consumer a result; `activating` marks an activation value (A2).
    @inlinable @inline(__always)
    final func receive(_ result: Result<Value, ChannelEnd>, _ activating: Bool) {
        handle(self, result, activating)
    }

    /// A consumer whose state is whatever `receive` captures.
    @inlinable
    static func closure(
        attached: ((ChannelConsumer<Value>, Channel<Value>) -> Void)? = nil, activationDidEnd: (() -> Void)? = nil,
        receive: @escaping (Result<Value, ChannelEnd>, Bool) -> Void
    ) -> ChannelConsumer<Value> {
        ClosureConsumer(attached: attached, activationDidEnd: activationDidEnd, body: receive)
    }
}

/// A consumer made of a closure (`ChannelConsumer.closure`).
@usableFromInline
final class ClosureConsumer<Value>: ChannelConsumer<Value> {
    @usableFromInline let body: (Result<Value, ChannelEnd>, Bool) -> Void

    @inlinable
    init(
        attached: ((ChannelConsumer<Value>, Channel<Value>) -> Void)?, activationDidEnd: (() -> Void)?,
        body: @escaping (Result<Value, ChannelEnd>, Bool) -> Void
    ) {
        self.body = body
        super.init(
            handle: { unsafeDowncast($0, to: ClosureConsumer<Value>.self).body($1, $2) }, attached: attached,
            activationDidEnd: activationDidEnd)
    }
}

/// What feeds a channel node: an input, a processor on another channel, a multi's branch, a
/// merge. It is told when its node activates and deactivates, always by the node's turn owner.
///
/// Like a consumer, a source is a set of closures formed where the source is made, so that the
/// activation path of the common operators runs specialised code.
@usableFromInline
final class ChannelSource<Value> {
    /// Connects upstream for the activation `generation` of the node, inside the run.
    @usableFromInline let activate: (Channel<Value>, UInt, ActivationRun) -> Void
    /// Lets go of the upstream connections of the current activation.
    @usableFromInline let deactivate: (Channel<Value>) -> Void
    /// Whether activating this source can lead back to the given node (a junction or a
    /// multi-input bound into its own upstream).
    @usableFromInline let reaches: (AnyObject) -> Bool
    /// Whether this is a junction's source (a channel fed by a junction refuses a second one).
    @usableFromInline let isJunction: Bool
    /// Whether activating and deactivating it do nothing (`inert()`): its node activates and
    /// deactivates in one round through its lock.
    @usableFromInline let isInert: Bool

    let liveObject = LiveObjectTracker<LiveObjectTag.ChannelNode>()

    @inlinable
    init(
        isJunction: Bool = false, isInert: Bool = false,
        activate: @escaping (Channel<Value>, UInt, ActivationRun) -> Void,
        deactivate: @escaping (Channel<Value>) -> Void,
        reaches: @escaping (AnyObject) -> Bool
    ) {
        self.activate = activate
        self.deactivate = deactivate
        self.reaches = reaches
        self.isJunction = isJunction
        self.isInert = isInert
    }

    /// A source with nothing upstream: a `create()` input sends straight into its node.
    @inlinable
    static func inert() -> ChannelSource {
        ChannelSource(isInert: true, activate: { _, _, _ in }, deactivate: { _ in }, reaches: { _ in false })
    }

    /// The source made of `behaviour`'s methods.
    @inlinable
    static func of<Behaviour: ChannelSourceBehaviour>(_ behaviour: Behaviour, isJunction: Bool = false)
        -> ChannelSource where Behaviour.Value == Value
    {
        ChannelSource(
            isJunction: isJunction,
            activate: { behaviour.activate($0, generation: $1, run: $2) },
            deactivate: { behaviour.deactivate($0) },
            reaches: { behaviour.reaches($0) })
    }
}

/// The methods of a stateful source, wrapped into a `ChannelSource` by `ChannelSource.of`.
@usableFromInline
protocol ChannelSourceBehaviour: AnyObject {
    associatedtype Value
    func activate(_ node: Channel<Value>, generation: UInt, run: ActivationRun)
    func deactivate(_ node: Channel<Value>)
    func reaches(_ node: AnyObject) -> Bool
}

extension ChannelSourceBehaviour {
    @inlinable
    func reaches(_ node: AnyObject) -> Bool { false }
}

/// How attaching a consumer to a node went (`Channel.attach`).
@usableFromInline
enum AttachOutcome {
    /// Attached, to the node `attach` was called on.
    case attached
    /// A plain channel that already has an output (A4).
    case duplicate
    /// The node has ended; the consumer was not attached.
    case ended(ChannelEnd)
}

/// The result of connecting a consumer below a channel.
@usableFromInline
enum ChannelConnection<Value> {
    /// Connected to `node` (the channel itself, or a branch of a multi); detach it from there.
    case attached(Channel<Value>)
    /// A plain channel that already has an output (A4).
    case duplicate
    /// The channel has ended; the consumer was not attached.
    case ended(ChannelEnd)

    /// The connection `outcome` describes, made on `node`.
    @inlinable
    init(_ outcome: AttachOutcome, node: Channel<Value>) {
        switch outcome {
        case .attached: self = .attached(node)
        case .duplicate: self = .duplicate
        case let .ended(end): self = .ended(end)
        }
    }

    /// The outcome, without the node.
    @inlinable
    var outcome: AttachOutcome {
        switch self {
        case .attached: return .attached
        case .duplicate: return .duplicate
        case let .ended(end): return .ended(end)
        }
    }
}

/// One thread's activation of part of a graph: the nodes whose turns it holds (released
/// top-down once everything is connected, so queued results follow the activation values), and
/// the work to do after that (`generate` closures).
@usableFromInline
final class ActivationRun {
    /// A node whose turn the run holds, and how to end its activation: a closure that captures
    /// nothing (so making it allocates nothing), given the node back.
    @usableFromInline
    struct HeldNode {
        @usableFromInline let node: AnyObject
        @usableFromInline let releasesTurn: Bool
        @usableFromInline let thread: ThreadID
        @usableFromInline let endActivation: (AnyObject, Bool, ThreadID) -> Void

        @inlinable
        init(
            node: AnyObject, releasesTurn: Bool, thread: ThreadID,
            endActivation: @escaping (AnyObject, Bool, ThreadID) -> Void
        ) {
            self.node = node
            self.releasesTurn = releasesTurn
            self.thread = thread
            self.endActivation = endActivation
        }

        @inlinable
        func end() { endActivation(node, releasesTurn, thread) }
    }

    // Owner-only: a run belongs to the thread that performs it, so its fields need no dynamic
    // exclusivity checks (each would cost a runtime call per access).
    /// The first held nodes, kept inline so that a run through a short chain allocates nothing.
    @exclusivity(unchecked) private var held0: HeldNode?
    @exclusivity(unchecked) private var held1: HeldNode?
    @exclusivity(unchecked) private var held2: HeldNode?
    @exclusivity(unchecked) private var held3: HeldNode?
    @exclusivity(unchecked) private var heldCount = 0
    @exclusivity(unchecked) private var moreHeld: [HeldNode] = []
    @exclusivity(unchecked) private var firstAfterwards: Deferred?
    @exclusivity(unchecked) private var moreAfterwards: [Deferred] = []

    /// Work to run after the run: `action(target, argument)`, with an action that captures
    /// nothing, so that deferring it allocates nothing.
    @usableFromInline
    struct Deferred {
        @usableFromInline let target: AnyObject
        @usableFromInline let argument: AnyObject
        @usableFromInline let action: (AnyObject, AnyObject) -> Void

        @inlinable
        init(target: AnyObject, argument: AnyObject, action: @escaping (AnyObject, AnyObject) -> Void) {
            self.target = target
            self.argument = argument
            self.action = action
        }
    }

    @usableFromInline
    init() {}

    /// Records a node whose turn this run holds; its `endActivation` runs when the run finishes.
    @usableFromInline
    func hold(_ held: consuming HeldNode) {
        switch heldCount {
        case 0: held0 = held
        case 1: held1 = held
        case 2: held2 = held
        case 3: held3 = held
        default: moreHeld.append(held)
        }
        heldCount += 1
    }

    /// Runs `action(target, argument)` once every node of the run is active and its turn given
    /// back.
    @usableFromInline
    func afterActivation(
        _ target: AnyObject, _ argument: AnyObject, _ call: @escaping (AnyObject, AnyObject) -> Void
    ) {
        let action = Deferred(target: target, argument: argument, action: call)
        if firstAfterwards == nil, moreAfterwards.isEmpty {
            firstAfterwards = action
        } else {
            moreAfterwards.append(action)
        }
    }

    /// Ends the activation of every held node, upstream first (the reverse of the order they
    /// were held in), then runs the deferred work.
    @usableFromInline
    func finish() {
        while heldCount > 0 {
            heldCount -= 1
            let held: HeldNode?
            switch heldCount {
            case 0: held = held0.take()
            case 1: held = held1.take()
            case 2: held = held2.take()
            case 3: held = held3.take()
            default: held = moreHeld.popLast()
            }
            held?.end()
        }
        while let deferred = firstAfterwards {
            firstAfterwards = nil
            deferred.action(deferred.target, deferred.argument)
            if !moreAfterwards.isEmpty {
                firstAfterwards = moreAfterwards.removeFirst()
            }
        }
    }

    /// Runs `body` in a new activation run and finishes it.
    @usableFromInline
    static func perform<R>(_ body: (ActivationRun) -> R) -> R {
        let run = ActivationRun()
        let result = body(run)
        run.finish()
        return result
    }
}
