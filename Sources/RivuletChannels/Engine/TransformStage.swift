/// One activation of a processor between two channels, and its consumer on the upstream
/// channel: the processor, the downstream node and the activation it delivers into (A10),
/// whether it was stopped, and its hop to an execution context. Being the consumer itself, it
/// connects a processor with one object and no closure context.
@usableFromInline
final class ProcessorLink<Input, Output>: ChannelConsumer<Input>, @unchecked Sendable {
    // @unchecked Sendable: `stopped` (the consumer's) is atomic; `hop` is set once, in `init`, before the link is
    // shared, and a `SerialHop` is itself thread-safe; `generation` changes only in `reuse`,
    // while nothing else refers to the link, before it is attached again (the node's lock
    // publishes it); the processor runs only from the upstream node's turn (or, on a multi's
    // steady branch, the multi node's turn; or the hop's serial context), one result at a time.
    // For any `Input` and `Output`: the public operators that make a link (`transform`, `map`,
    // `combine`…) require `Sendable` values and a `@Sendable` processor, and the internal ones
    // that do not are used only within them or on the delivering thread.
    /// Unchecked exclusivity (here and below): see the Sendable argument.
    @exclusivity(unchecked) @usableFromInline var hop: SerialHop<Result<Input, ChannelEnd>>?
    /// A constant: a `var` would be retained around every call.
    @usableFromInline let process: (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    /// The node the processor delivers into, called without a retain: `downstreamOwner` keeps
    /// it alive while the link may run (a link parked for reuse lets go of it, or the node and
    /// its source, which keeps the parked link, would keep each other alive).
    @usableFromInline let downstream: Unmanaged<Channel<Output>>
    @exclusivity(unchecked) @usableFromInline var downstreamOwner: Channel<Output>?
    @exclusivity(unchecked) @usableFromInline var generation: UInt

    /// A link that runs `process` on `context` (activation values synchronously, A2).
    @inlinable
    init(
        process: @escaping (Result<Input, ChannelEnd>) -> ChannelNext<Output>, downstream: Channel<Output>,
        generation: UInt, context: Exec
    ) {
        self.process = process
        self.downstream = .passUnretained(downstream)
        downstreamOwner = downstream
        self.generation = generation
        guard let scheduler = context.scheduler else {
            super.init(
                handle: { consumer, result, _ in
                    unsafeDowncast(consumer, to: ProcessorLink<Input, Output>.self).run(result)
                }, guardsItself: true)
            return
        }
        super.init(
            handle: { consumer, result, activating in
                let link = unsafeDowncast(consumer, to: ProcessorLink<Input, Output>.self)
                if activating { link.run(result) } else { link.hop?.submit(result) }
            }, guardsItself: true)
        // The hop holds the link until `stop()` lets go of its body.
        hop = SerialHop(scheduler: scheduler) { [self] in run($0) }
    }

    @usableFromInline
    func stop() {
        stopped.storeReleasing(true)
        hop?.stop()
    }

    /// Parks a stopped link that nothing else refers to, for reuse.
    @inlinable
    func park() {
        downstreamOwner = nil
    }

    /// Readies a parked link, which nothing else refers to, for another activation of `node`
    /// (its downstream node) with the same (stateless) processor.
    @inlinable
    func reuse(for node: Channel<Output>, generation: UInt) {
        assert(
            node === downstream.takeUnretainedValue(), "Rivulet: a processor link was reused for another node (internal error)")
        downstreamOwner = node
        self.generation = generation
        stopped.storeRelaxed(false)
    }

    /// Runs the processor on `result` and delivers what it returns downstream, tagged with the
    /// downstream activation it belongs to (A10).
    @inlinable
    func run(_ result: Result<Input, ChannelEnd>) {
        guard !stopped.loadRelaxed() else { return }
        switch process(result) {
        case .none:
            break
        case let .single(output):
            _ = downstream._withUnsafeGuaranteedRef { $0.deliver(output, generation: generation) }
        case let .array(outputs):
            deliverEach(outputs)
        }
    }

    /// Out of line: keeps the common one-result path of `run` small.
    @inlinable @inline(never)
    func deliverEach(_ outputs: [Result<Output, ChannelEnd>]) {
        for output in outputs {
            _ = downstream._withUnsafeGuaranteedRef { $0.deliver(output, generation: generation) }
        }
    }
}

/// The source of a channel made by a processor on another channel: activating it connects a
/// fresh consumer (with fresh processor state, A6) below the upstream channel.
@usableFromInline
final class TransformSource<Input, Output>: ChannelSourceBehaviour {
    @usableFromInline let upstream: Channel<Input>
    @usableFromInline let context: Exec
    /// Makes the processor for one activation (with fresh state); formed by the (specialised)
    /// operator that made this source.
    @usableFromInline let makeProcessor: (() -> (Result<Input, ChannelEnd>) -> ChannelNext<Output>)?
    /// The processor of every activation, when it keeps no state (then `makeProcessor` is nil).
    @usableFromInline let statelessProcessor: ((Result<Input, ChannelEnd>) -> ChannelNext<Output>)?
    // Owner-only: changed by the downstream node's turn owner, in activate and deactivate, so
    // it needs no dynamic exclusivity check.
    @exclusivity(unchecked) @usableFromInline var connectedLink: ProcessorLink<Input, Output>?
    /// The upstream node (or a multi's branch) that `connectedLink` is attached to.
    @exclusivity(unchecked) @usableFromInline var connectedNode: Channel<Input>?
    /// The last activation's link, kept for the next one when the processor is stateless and
    /// has no hop: reused if nothing else refers to it by then, which saves an allocation per
    /// activation. Owner-only too.
    @exclusivity(unchecked) @usableFromInline var spareLink: ProcessorLink<Input, Output>?

    @inlinable
    init(
        upstream: Channel<Input>, context: Exec,
        makeProcessor: @escaping () -> (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    ) {
        self.upstream = upstream
        self.context = context
        self.makeProcessor = makeProcessor
        statelessProcessor = nil
    }

    /// A source whose every activation runs `process`, which keeps no state.
    @inlinable
    init(
        upstream: Channel<Input>, context: Exec,
        stateless process: @escaping (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    ) {
        self.upstream = upstream
        self.context = context
        makeProcessor = nil
        statelessProcessor = process
    }

    @inlinable
    func activate(_ node: Channel<Output>, generation: UInt, run: ActivationRun) {
        let link: ProcessorLink<Input, Output>
        if var spare = spareLink.take(), isKnownUniquelyReferenced(&spare) {
            spare.reuse(for: node, generation: generation)
            link = spare
        } else {
            let process = statelessProcessor ?? makeProcessor!()
            link = ProcessorLink(process: process, downstream: node, generation: generation, context: context)
        }
        connectedLink = link
        switch upstream.connect(link, run: run) {
        case let .attached(upstreamNode):
            connectedNode = upstreamNode
        case .duplicate:
            link.receive(.failure(.other(ChannelBindError<Input>.duplicate(nil))), true)
        case let .ended(end):
            link.receive(.failure(end), true)
        }
    }

    @inlinable
    func deactivate(_ node: Channel<Output>) {
        guard var link = connectedLink.take() else { return }
        let upstreamNode = connectedNode.take()
        link.stop()
        upstreamNode?.detach(link)
        // Parked only if nothing else refers to the link any more (the upstream node let go of
        // it at once, no multi's snapshot holds it): then no thread can still be running it.
        if statelessProcessor != nil, link.hop == nil, isKnownUniquelyReferenced(&link) {
            link.park()
            spareLink = link
        }
    }

    @usableFromInline
    func reaches(_ node: AnyObject) -> Bool {
        upstream.draws(from: node)
    }
}

extension Channel {
    /// A channel made by `makeProcessor`'s processor on this channel's results; the processor
    /// is made afresh for each activation.
    @inlinable
    func processed<U>(
        context: Exec,
        _ makeProcessor: @escaping () -> (Result<Value, ChannelEnd>) -> ChannelNext<U>
    ) -> Channel<U> {
        Channel<U>(source: .of(TransformSource(upstream: self, context: context, makeProcessor: makeProcessor)))
    }

    /// A channel made by `process`, which keeps no state of its own: every activation uses it.
    @inlinable
    func processed<U>(
        context: Exec, stateless process: @escaping (Result<Value, ChannelEnd>) -> ChannelNext<U>
    ) -> Channel<U> {
        Channel<U>(
            source: .of(TransformSource(upstream: self, context: context, stateless: process)))
    }
}
