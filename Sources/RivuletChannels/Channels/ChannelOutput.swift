/// The listening end of a channel, returned by `subscribe`. Keep it: it keeps the graph above it
/// active (A1), and releasing it, or calling `cancel()`, deactivates the part of the graph that
/// only it used (A6). A cancelled output receives nothing more, not even an end; once no delivery
/// to it can still be running, its handler, and whatever the handler captured (even the output
/// itself), is released.
public final class ChannelOutput<Value>: Disposable {
    /// The output's side of its link: whether it stopped, and what to detach. The link keeps the
    /// node it is attached to, and so the graph above it, alive until the output stops.
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

// How a stopped output lets go of its handler (issue 19).
//
// Behind an output are two objects. The `OutputLink` is what the `ChannelOutput` holds: the flag
// that decides who stops the output, the node to detach from, a `subscribeWhile` output kept
// alive, and the consumer, until the output stops. The `OutputConsumer` is what the node (or a
// multi's fan-out, or the hop) calls: it holds the handler in `let`s, so that the delivery path
// calls it without a retain, as before, and a stopped flag of its own, which the link sets when
// the output stops and every delivery checks.
//
// Every path that can call a consumer holds a strong reference to it for as long as it may call
// it: the node's state (its +1, dropped after the lock once the turn owner, or a detach while
// nobody holds the turn, has taken the consumer out, so no delivery through the node's turn is
// running), a multi's fan-out (the branch's entry, and the snapshot each delivery loop works on,
// which keeps the consumer of a direct branch alive until the loop is over, even after the branch
// was removed), and the hop (its body, and the drain's copy of it while it runs). Stopping the
// output (cancel, the end, the handler's `false`, the output's release) drops the link's
// reference to the consumer. So once no path can call the consumer any more, its last reference
// goes, and with it the handler: the cycle handler → output → link → consumer → handler is
// broken, with nothing added to the delivery path (no flag, count or retain per value). Each of
// those references is released after its lock (O7), and the link's in `cancel` or `ended`, which
// run under none, so the handler, and whatever it captured, never goes under an internal lock.
//
// The alternative, releasing the handler from a single object at an explicit quiescent point
// (the node's turn owner telling the consumer it is detached; the handler in an `Unmanaged` box
// called through `_withUnsafeGuaranteedRef`), costs the same allocation (the box) and needs every
// delivery path to report when it is done, the multi's direct path included, whose snapshot
// outlives the branch's removal; the references already say so.
//
// The price is one object more per output than a consumer that is its own link (a
// `subscribeValues` output without a context: output, link, consumer); `subscribe`'s consumer no
// longer needs a closure context for its handler, so it allocates no more than before. Measured
// with `compare` (issue 19): the same instructions per value as before (C1–C3), and about 450
// more per subscribe + cancel cycle (C4: 1152 → 1606, one allocation more, 110 → 150–170 ns).

/// The output's side of an output's consumer: whether the output stopped, the node it is attached
/// to (to detach it), the consumer (until the output stops) and, for `subscribeWhile`, the output
/// it keeps alive.
@usableFromInline
final class OutputLink<Value>: @unchecked Sendable {
    // @unchecked Sendable: no lock of its own; `stopped` is atomic, and the node's lock orders the
    // rest. The consumer is set by the consumer's `init`,
    // before the link is shared. The attachment (`node`, `retainedOutput`) is written before any
    // other thread can reach the link (`keepAlive` before connecting, `attached` before any
    // result: under the node's lock, or by the activating thread while it holds the node's turn).
    // All three are read and cleared once, by whichever of `cancel` and `ended` stops the link
    // first (`stopped.exchange`): a thread that ends the output got there through the node's turn
    // (or the hop's drain that the turn scheduled), and one that cancels it through the output
    // `subscribe` returned, both after those writes. For any `Value`: every public `subscribe`
    // form requires `Sendable` values and a `@Sendable` handler; the internal users (the producer
    // bridge, `cacheLatest`) do too.

    /// The memory of `stopped`: the first stored property, never read or written directly after
    /// `init` (see Rivulet's AtomicWord.swift).
    @usableFromInline final var stoppedStorage = AtomicFlag.storage(false)
    /// Strong references, dropped when the output stops: weak ones would give the node a side
    /// table, and every retain of it on the delivery path would take the runtime's slow path.
    /// Unchecked exclusivity: the discipline above keeps every access apart, and a dynamic check
    /// would cost a runtime call per access.
    @exclusivity(unchecked) @usableFromInline var consumer: OutputConsumer<Value>?
    @exclusivity(unchecked) @usableFromInline var node: Channel<Value>?
    @exclusivity(unchecked) @usableFromInline var retainedOutput: AnyObject?

    @inlinable
    init() {}

    /// Whether the output stopped; set once, by the first of `cancel` and `ended`.
    @inlinable
    var stopped: AtomicFlag { AtomicFlag(firstStoredPropertyOf: self) }

    @inlinable
    var isStopped: Bool { stopped.loadAcquiring() }

    @inlinable
    func keepAlive(_ output: AnyObject) {
        retainedOutput = output
    }

    /// The output was cancelled (or its handler returned `false`): stop, and detach from the node
    /// (A6).
    @inlinable @inline(never)
    func cancel() {
        guard !stopped.exchangeAcquiringAndReleasing(true), let consumer = self.consumer.take() else { return }
        consumer.stop()
        let output = retainedOutput.take()
        if let node = self.node.take() {
            node.detach(consumer)
        }
        // Here, after any lock: the consumer, if nothing else can call it any more, and with it
        // the handler; a self-retained output.
        withExtendedLifetime((consumer, output)) {}
    }

    /// The end arrived (on the thread that delivers to the consumer, which keeps it alive): stop,
    /// and let go of the node and a self-retained output.
    @inlinable @inline(never)
    func ended() {
        guard !stopped.exchangeAcquiringAndReleasing(true), let consumer = self.consumer.take() else { return }
        consumer.stop()
        let released = (node.take(), retainedOutput.take(), consumer)
        withExtendedLifetime(released) {}
    }
}

/// An output's consumer: the handler, called from the node's turn (or a multi's direct path, or
/// the hop's drain) until the output stops. Released by the last of those paths once the output
/// stopped, and the handler with it (see above).
@usableFromInline
final class OutputConsumer<Value>: ChannelConsumer<Value>, @unchecked Sendable {
    // @unchecked Sendable: no lock of its own is needed. `stopped` (the consumer's) is atomic, set
    // once by the link that stops the output; `link`, the handler and `hop` are set in `init`,
    // before the consumer is shared, and never written again. Calls of the handler are serialised
    // by whoever calls the consumer: the node's turn (claimed through the node's lock), a multi
    // branch's turn, or the hop's serial drain. For any `Value`: as `OutputLink`.
    /// The output's side, told when the handler returned `false` or the end arrived.
    @usableFromInline let link: OutputLink<Value>
    /// Unchecked exclusivity: set once in `init`, read-only afterwards.
    @exclusivity(unchecked) @usableFromInline var hop: SerialHop<Result<Value, ChannelEnd>>?
    /// Called with each result until it returns `false` (`subscribe`, `subscribeWhile`); a
    /// `let`, so that the delivery path calls it without a retain. Unused by a consumer that
    /// takes direct values (its handler is `directValues`).
    @usableFromInline let resultHandler: (Result<Value, ChannelEnd>) -> Bool

    /// An output's consumer that calls `handler` (on `context`) until the output is cancelled,
    /// the handler returns `false`, or an end arrives.
    @inlinable
    init(context: Exec, handler: @escaping (Result<Value, ChannelEnd>) -> Bool) {
        link = OutputLink()
        resultHandler = handler
        guard let scheduler = context.scheduler else {
            super.init(
                handle: { consumer, result, _ in
                    unsafeDowncast(consumer, to: OutputConsumer<Value>.self).deliver(result)
                },
                attached: Self.recordsNode, guardsItself: true)
            link.consumer = self
            return
        }
        super.init(
            handle: { consumer, result, activating in
                let consumer = unsafeDowncast(consumer, to: OutputConsumer<Value>.self)
                if activating { consumer.deliver(result) } else { consumer.hop?.submit(result) }
            }, attached: Self.recordsNode, guardsItself: true)
        // The hop holds the consumer until `stop()` lets go of its body (when the output stops).
        hop = SerialHop(scheduler: scheduler) { [self] in deliver($0) }
        link.consumer = self
    }

    /// An output's consumer for `subscribeValues`: only values reach `handler`, on `context`.
    @inlinable
    static func values(on context: Exec, handler: @escaping (Value) -> Void) -> OutputConsumer<Value> {
        guard context.scheduler == nil else {
            return OutputConsumer(context: context) { result in
                if case let .success(value) = result { handler(value) }
                return true
            }
        }
        return OutputConsumer(valueHandler: handler)
    }

    /// An output's consumer that calls `handler` with each value, on the delivering thread; the
    /// handler is the consumer's `directValues`.
    @inlinable
    init(valueHandler handler: @escaping (Value) -> Void) {
        link = OutputLink()
        // A closure that captures nothing: no allocation.
        resultHandler = { _ in true }
        super.init(
            handle: { consumer, result, _ in
                let consumer = unsafeDowncast(consumer, to: OutputConsumer<Value>.self)
                guard !consumer.isStopped else { return }
                switch result {
                case let .success(value): consumer.directValues?(value)
                case .failure: consumer.ended()
                }
            },
            attached: Self.recordsNode, guardsItself: true, directValues: handler)
        link.consumer = self
    }

    /// The `attached` of every output's consumer: its link remembers the node, to detach from it
    /// later.
    @inlinable
    static var recordsNode: (ChannelConsumer<Value>, Channel<Value>) -> Void {
        { unsafeDowncast($0, to: OutputConsumer<Value>.self).link.node = $1 }
    }

    @inlinable
    var isStopped: Bool { stopped.loadAcquiring() }

    /// Drops whatever still reaches the consumer (the link stopped the output).
    @inlinable
    func stop() {
        stopped.storeReleasing(true)
        hop?.stop()
    }

    @inlinable
    func deliver(_ result: Result<Value, ChannelEnd>) {
        guard !isStopped else { return }
        let goOn = resultHandler(result)
        if case .failure = result {
            ended()
        } else if !goOn {
            cancelOutput()
        }
    }

    // `ended` and `cancelOutput` are out of line, and methods of the consumer (the delivery
    // closures' argument), so that the closures stay as small as those of a consumer that is its
    // own link: reaching `link` inline led the optimiser to split each closure into a thunk that
    // reloads the result with a wider load than its caller's store, a store-forwarding stall that
    // doubled the time of a send (C1).

    /// The end arrived: the link stops the output.
    @inlinable @inline(never)
    func ended() {
        link.ended()
    }

    /// The handler returned `false`: the link cancels the output.
    @inlinable @inline(never)
    func cancelOutput() {
        link.cancel()
    }
}
