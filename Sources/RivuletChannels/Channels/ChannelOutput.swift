import Synchronization

/// The listening end of a channel, returned by `subscribe`. Keep it: it keeps the graph above it
/// active (A1), and releasing it, or calling `cancel()`, deactivates the part of the graph that
/// only it used (A6). A cancelled output receives nothing more, not even an end.
public final class ChannelOutput<Value>: Disposable {
    @usableFromInline let channel: Channel<Value>
    @usableFromInline let link: OutputLink<Value>
    @usableFromInline let cancelled = Atomic<Bool>(false)

    @usableFromInline
    init(channel: Channel<Value>, link: OutputLink<Value>) {
        self.channel = channel
        self.link = link
    }

    deinit {
        cancel()
    }

    /// Stops the output and deactivates what only it kept active.
    @inlinable
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        link.cancel()
    }

    /// Whether the output receives nothing more: it was cancelled, or its channel ended.
    public var isClosed: Bool {
        cancelled.load(ordering: .acquiring) || link.isStopped
    }

    /// Same as `isClosed`.
    public var isDisposed: Bool { isClosed }

    /// Same as `cancel()`.
    public func dispose() {
        cancel()
    }
}

// @unchecked Sendable: the output's own state is atomic, and its link is thread-safe.
extension ChannelOutput: @unchecked Sendable {}

/// What an output's consumer shares with its `ChannelOutput`: whether it stopped, the node it is
/// attached to (to detach it), and, for `subscribeWhile`, the output it keeps alive.
@usableFromInline
final class OutputLink<Value>: @unchecked Sendable {
    // @unchecked Sendable: `stopped` is atomic; `hop` is set once, before the link is shared.
    // The attachment (`consumer`, `node`, `retainedOutput`) is written before any other thread
    // can reach the link (`keepAlive` before connecting, `attached` by the activating thread
    // before any result), and read and cleared once, by whichever of `cancel` and `ended` stops
    // the link first (`stopped.exchange`): a thread that ends the output got there through the
    // node's turn, and one that cancels it through the output `subscribe` returned, both after
    // those writes.
    @usableFromInline let stopped = Atomic<Bool>(false)
    @usableFromInline var hop: SerialHop<Result<Value, ChannelEnd>>?
    /// Strong references, dropped when the output is cancelled or ends: weak ones would give the
    /// consumer and the node side tables, and every retain of them on the delivery path would
    /// take the runtime's slow path.
    /// Unchecked exclusivity: the discipline above keeps every access to these apart, and a
    /// dynamic check would cost a runtime call per access.
    @exclusivity(unchecked) @usableFromInline var consumer: ChannelConsumer<Value>?
    @exclusivity(unchecked) @usableFromInline var node: Channel<Value>?
    @exclusivity(unchecked) @usableFromInline var retainedOutput: AnyObject?

    @inlinable
    init() {}

    @inlinable
    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    @inlinable
    func attached(_ consumer: ChannelConsumer<Value>, to node: Channel<Value>) {
        self.consumer = consumer
        self.node = node
    }

    @inlinable
    func keepAlive(_ output: AnyObject) {
        retainedOutput = output
    }

    /// The output was cancelled: stop, and detach from the node (A6).
    @inlinable @inline(never)
    func cancel() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        hop?.stop()
        let (consumer, node, output) = (self.consumer, self.node, retainedOutput)
        self.consumer = nil
        self.node = nil
        retainedOutput = nil
        if let consumer { node?.detach(consumer) }
        withExtendedLifetime(output) {}
    }

    /// The end arrived: stop, and let a self-retained output go.
    @inlinable @inline(never)
    func ended() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let released = (consumer, node, retainedOutput)
        consumer = nil
        node = nil
        retainedOutput = nil
        withExtendedLifetime(released) {}
    }
}

extension ChannelConsumer {
    /// An output's consumer: calls `handler` (on `context`) until the output is cancelled, the
    /// handler returns `false`, or an end arrives.
    @inlinable
    static func output(
        context: Exec, link: OutputLink<Value>, handler: @escaping (Result<Value, ChannelEnd>) -> Bool
    ) -> ChannelConsumer<Value> {
        let attached: (ChannelConsumer<Value>, Channel<Value>) -> Void = { link.attached($0, to: $1) }
        guard let scheduler = context.scheduler else {
            return ChannelConsumer(attached: attached) { result, _ in
                deliver(result, to: handler, link: link)
            }
        }
        let hop = SerialHop<Result<Value, ChannelEnd>>(scheduler: scheduler) { deliver($0, to: handler, link: link) }
        link.hop = hop
        return ChannelConsumer(attached: attached) { result, activating in
            if activating { deliver(result, to: handler, link: link) } else { hop.submit(result) }
        }
    }

    /// An output's consumer for `subscribeValues`: only values reach `handler`.
    @inlinable
    static func valuesOutput(
        context: Exec, link: OutputLink<Value>, handler: @escaping (Value) -> Void
    ) -> ChannelConsumer<Value> {
        guard context.scheduler == nil else {
            return output(context: context, link: link) { result in
                if case let .success(value) = result { handler(value) }
                return true
            }
        }
        return ChannelConsumer(attached: { link.attached($0, to: $1) }) { result, _ in
            guard !link.isStopped else { return }
            switch result {
            case let .success(value): handler(value)
            case .failure: link.ended()
            }
        }
    }

    @inlinable
    static func deliver(
        _ result: Result<Value, ChannelEnd>, to handler: (Result<Value, ChannelEnd>) -> Bool, link: OutputLink<Value>
    ) {
        guard !link.isStopped else { return }
        let goOn = handler(result)
        if case .failure = result {
            link.ended()
        } else if !goOn {
            link.cancel()
        }
    }
}
