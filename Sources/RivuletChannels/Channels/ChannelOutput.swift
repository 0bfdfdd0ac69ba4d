/// The listening end of a channel, returned by `subscribe`. Keep it: it keeps the graph above it
/// active (A1), and releasing it, or calling `cancel()`, deactivates the part of the graph that
/// only it used (A6). A cancelled output receives nothing more, not even an end.
public final class ChannelOutput<Value>: Disposable {
    /// The link keeps the node it is attached to, and so the graph above it, alive; whether it
    /// stopped is the output's state.
    @usableFromInline let link: OutputLink<Value>

    @usableFromInline
    init(link: OutputLink<Value>) {
        self.link = link
    }

    deinit {
        // The last reference: nobody else can be cancelling, so a plain check will do.
        if !link.isStopped { link.cancel() }
    }

    /// Stops the output and deactivates what only it kept active.
    @inlinable
    public func cancel() {
        link.cancel()
    }

    /// Whether the output receives nothing more: it was cancelled, or its channel ended.
    public var isClosed: Bool {
        link.isStopped
    }

    /// Same as `isClosed`.
    public var isDisposed: Bool { isClosed }

    /// Same as `cancel()`.
    public func dispose() {
        cancel()
    }
}

// @unchecked Sendable: the output's only state is its link, which is thread-safe. Always, whatever
// `Value`: an output hands out no value (it only stops its link), and it is a `Disposable`.
extension ChannelOutput: @unchecked Sendable {}

/// An output's consumer, shared with its `ChannelOutput`: the handler, whether the output
/// stopped, the node it is attached to (to detach it), and, for `subscribeWhile`, the output it
/// keeps alive.
@usableFromInline
final class OutputLink<Value>: ChannelConsumer<Value>, @unchecked Sendable {
    // @unchecked Sendable: `stopped` (the consumer's) is atomic; `hop` and the handlers are set
    // in `init`, before the link is shared. The attachment (`node`, `retainedOutput`) is written
    // before any other thread can reach the link (`keepAlive` before connecting, `attached`
    // before any result: under the node's lock, or by the activating thread while it holds the
    // node's turn), and read and cleared once, by whichever of `cancel` and
    // `ended` stops the link first (`stopped.exchange`): a thread that ends the output got there
    // through the node's turn, and one that cancels it through the output `subscribe` returned,
    // both after those writes. For any `Value`: every public `subscribe` form requires `Sendable`
    // values and a `@Sendable` handler; the internal users (the producer bridge, `cacheLatest`) do
    // too.
    /// Unchecked exclusivity: set once in `init`, read-only afterwards.
    @exclusivity(unchecked) @usableFromInline var hop: SerialHop<Result<Value, ChannelEnd>>?
    /// Called with each result until it returns `false` (`subscribe`, `subscribeWhile`).
    @usableFromInline let resultHandler: ((Result<Value, ChannelEnd>) -> Bool)?
    /// Strong references, dropped when the output is cancelled or ends: weak ones would give the
    /// node a side table, and every retain of it on the delivery path would take the runtime's
    /// slow path. Unchecked exclusivity: the discipline above keeps every access apart, and a
    /// dynamic check would cost a runtime call per access.
    @exclusivity(unchecked) @usableFromInline var node: Channel<Value>?
    @exclusivity(unchecked) @usableFromInline var retainedOutput: AnyObject?

    /// An output's consumer that calls `handler` (on `context`) until the output is cancelled,
    /// the handler returns `false`, or an end arrives.
    @inlinable
    init(context: Exec, handler: @escaping (Result<Value, ChannelEnd>) -> Bool) {
        resultHandler = handler
        let attached = Self.recordsNode
        guard let scheduler = context.scheduler else {
            super.init(
                handle: { consumer, result, _ in
                    unsafeDowncast(consumer, to: OutputLink<Value>.self).deliver(result, to: handler)
                },
                attached: attached, guardsItself: true)
            return
        }
        super.init(
            handle: { consumer, result, activating in
                let link = unsafeDowncast(consumer, to: OutputLink<Value>.self)
                if activating { link.deliver(result, to: handler) } else { link.hop?.submit(result) }
            }, attached: attached, guardsItself: true)
        // The hop holds the link until `stop()` lets go of its body (on cancel or end).
        hop = SerialHop(scheduler: scheduler) { [self] in deliver($0, to: handler) }
    }

    /// An output's consumer for `subscribeValues`: only values reach `handler`, on `context`.
    @inlinable
    static func values(on context: Exec, handler: @escaping (Value) -> Void) -> OutputLink<Value> {
        guard context.scheduler == nil else {
            return OutputLink(context: context) { result in
                if case let .success(value) = result { handler(value) }
                return true
            }
        }
        return OutputLink(valueHandler: handler)
    }

    /// An output's consumer that calls `handler` with each value, on the delivering thread; the
    /// handler is the consumer's `directValues`.
    @inlinable
    init(valueHandler handler: @escaping (Value) -> Void) {
        resultHandler = nil
        super.init(
            handle: { consumer, result, _ in
                let link = unsafeDowncast(consumer, to: OutputLink<Value>.self)
                guard !link.isStopped else { return }
                switch result {
                case let .success(value): link.directValues?(value)
                case .failure: link.ended()
                }
            },
            attached: Self.recordsNode, guardsItself: true, directValues: handler)
    }

    /// The `attached` of every output's link: it remembers the node, to detach from it later.
    @inlinable
    static var recordsNode: (ChannelConsumer<Value>, Channel<Value>) -> Void {
        { unsafeDowncast($0, to: OutputLink<Value>.self).node = $1 }
    }

    @inlinable
    var isStopped: Bool { stopped.loadAcquiring() }

    @inlinable
    func keepAlive(_ output: AnyObject) {
        retainedOutput = output
    }

    @inlinable
    func deliver(_ result: Result<Value, ChannelEnd>, to handler: (Result<Value, ChannelEnd>) -> Bool) {
        guard !isStopped else { return }
        let goOn = handler(result)
        if case .failure = result {
            ended()
        } else if !goOn {
            cancel()
        }
    }

    /// The output was cancelled: stop, and detach from the node (A6).
    @inlinable @inline(never)
    func cancel() {
        guard !stopped.exchangeAcquiringAndReleasing(true) else { return }
        hop?.stop()
        let output = retainedOutput.take()
        if let node = self.node.take() {
            node.detach(self)
        }
        withExtendedLifetime(output) {}
    }

    /// The end arrived: stop, and let a self-retained output go.
    @inlinable @inline(never)
    func ended() {
        guard !stopped.exchangeAcquiringAndReleasing(true) else { return }
        hop?.stop()
        let released = (node.take(), retainedOutput.take())
        withExtendedLifetime(released) {}
    }
}
