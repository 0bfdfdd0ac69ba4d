/// What is attached below a channel node: an output's handler, a processor feeding the next node,
/// a multi's fan-out, a capture, a junction. The node calls it only from its turn, one result at a
/// time, never under a lock.
class ChannelConsumer<Value> {
    /// Handles one result. `activating` is true for activation values (A2), which a consumer with
    /// an execution context handles synchronously instead of hopping.
    func receive(_ result: Result<Value, ChannelEnd>, activating: Bool) {
        preconditionFailure("Rivulet: ChannelConsumer.receive must be overridden by \(type(of: self)) (internal error)")
    }

    /// The node attached this consumer (called by its new turn owner, before any result).
    func attached(to node: Channel<Value>) {}

    /// The activation run that attached this consumer is over: later results are ordinary values.
    func activationDidEnd() {}
}

/// What feeds a channel node: an input, a processor on another channel, a multi's branch, a
/// merge. It is told when its node activates and deactivates, always by the node's turn owner.
class ChannelSource<Value> {
    /// Connects upstream for the activation `generation` of `node`, inside `run`.
    func activate(_ node: Channel<Value>, generation: UInt, run: ActivationRun) {}

    /// Lets go of the upstream connections of the current activation.
    func deactivate(_ node: Channel<Value>) {}

    /// Whether activating this source can lead back to `node` (a junction or a multi-input
    /// bound into its own upstream).
    func reaches(_ node: AnyObject) -> Bool { false }
}

/// The result of connecting a consumer below a channel.
enum ChannelConnection<Value> {
    /// Connected to `node` (the channel itself, or a branch of a multi); detach it from there.
    case attached(Channel<Value>)
    /// A plain channel that already has an output (A4).
    case duplicate
    /// The channel has ended; the consumer was not attached.
    case ended(ChannelEnd)
}

/// One thread's activation of part of a graph: the nodes whose turns it holds (released
/// top-down once everything is connected, so queued results follow the activation values), and
/// the work to do after that (`generate` closures).
final class ActivationRun {
    private var heldNodes: [() -> Void] = []
    private var afterwards: [() -> Void] = []

    init() {}

    /// Records a node whose turn this run holds; `endActivation` runs when the run finishes.
    func hold(_ endActivation: @escaping () -> Void) {
        heldNodes.append(endActivation)
    }

    /// Runs `action` once every node of the run is active and its turn given back.
    func afterActivation(_ action: @escaping () -> Void) {
        afterwards.append(action)
    }

    /// Ends the activation of every held node, upstream first, then runs the deferred work.
    func finish() {
        while let endActivation = heldNodes.popLast() {
            endActivation()
        }
        while !afterwards.isEmpty {
            let actions = afterwards
            afterwards = []
            for action in actions { action() }
        }
    }

    /// Runs `body` in a new activation run and finishes it.
    static func perform<R>(_ body: (ActivationRun) -> R) -> R {
        let run = ActivationRun()
        let result = body(run)
        run.finish()
        return result
    }
}
