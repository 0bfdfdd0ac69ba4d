import Synchronization

/// The listening end of a channel, returned by `subscribe`. Keep it: it keeps the graph above it
/// active (A1), and releasing it, or calling `cancel()`, deactivates the part of the graph that
/// only it used (A6). A cancelled output receives nothing more, not even an end.
public final class ChannelOutput<Value>: Disposable {
    private let channel: Channel<Value>
    private weak var consumer: OutputConsumer<Value>?
    private let cancelled = Atomic<Bool>(false)

    init(channel: Channel<Value>, consumer: OutputConsumer<Value>) {
        self.channel = channel
        self.consumer = consumer
    }

    deinit {
        cancel()
    }

    /// Stops the output and deactivates what only it kept active.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard let consumer else { return }
        consumer.stop()
        consumer.connectedNode?.detach(consumer)
    }

    /// Whether the output receives nothing more: it was cancelled, or its channel ended.
    public var isClosed: Bool {
        guard !cancelled.load(ordering: .acquiring), let consumer else { return true }
        return consumer.isStopped
    }

    /// Same as `isClosed`.
    public var isDisposed: Bool { isClosed }

    /// Same as `cancel()`.
    public func dispose() {
        cancel()
    }
}

// @unchecked Sendable: the output's own state is atomic (the weak reference is only read), and
// its channel is Sendable.
extension ChannelOutput: @unchecked Sendable {}

/// An output's consumer: calls the user's handler, on the output's context, until the output is
/// cancelled or an end arrives.
final class OutputConsumer<Value>: ChannelConsumer<Value> {
    private let handler: (Result<Value, ChannelEnd>) -> Bool
    /// Set once in `init`, before the consumer is shared.
    private var hop: SerialHop<Result<Value, ChannelEnd>>?
    private let stopped = Atomic<Bool>(false)
    /// The node the consumer is attached to; set by the node as it attaches the consumer,
    /// before any result arrives.
    private(set) var connectedNode: Channel<Value>?
    /// An output that keeps itself alive (`subscribeWhile`) until its handler says stop.
    var retainedOutput: AnyObject?

    init(context: Exec, handler: @escaping (Result<Value, ChannelEnd>) -> Bool) {
        self.handler = handler
        super.init()
        if let scheduler = context.scheduler {
            hop = SerialHop(scheduler: scheduler) { [weak self] in self?.call($0) }
        }
    }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    func stop() {
        stopped.store(true, ordering: .releasing)
        hop?.stop()
    }

    override func attached(to node: Channel<Value>) {
        connectedNode = node
    }

    override func receive(_ result: Result<Value, ChannelEnd>, activating: Bool) {
        if let hop, !activating {
            hop.submit(result)
        } else {
            call(result)
        }
    }

    private func call(_ result: Result<Value, ChannelEnd>) {
        guard !isStopped else { return }
        let goOn = handler(result)
        if case .failure = result {
            stopped.store(true, ordering: .releasing)
            retainedOutput = nil
        } else if !goOn {
            stopped.store(true, ordering: .releasing)
            hop?.stop()
            connectedNode?.detach(self)
            retainedOutput = nil
        }
    }
}
