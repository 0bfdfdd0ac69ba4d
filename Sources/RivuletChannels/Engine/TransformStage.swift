import Synchronization

/// One activation of a processor between two channels, and its consumer on the upstream
/// channel: the processor, the downstream node and the activation it delivers into (A10),
/// whether it was stopped, and its hop to an execution context. Being the consumer itself, it
/// connects a processor with one object and no closure context.
@usableFromInline
final class ProcessorLink<Input, Output>: ChannelConsumer<Input>, @unchecked Sendable {
    // @unchecked Sendable: `stopped` is atomic; `hop` is set once, in `init`, before the link is
    // shared, and a `SerialHop` is itself thread-safe; the processor runs only from the upstream
    // node's turn (or the hop's serial context), one result at a time.
    @usableFromInline let stopped = Atomic<Bool>(false)
    /// Unchecked exclusivity: set once in `init`, read-only afterwards.
    @exclusivity(unchecked) @usableFromInline var hop: SerialHop<Result<Input, ChannelEnd>>?
    @usableFromInline let process: (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    @usableFromInline let downstream: Channel<Output>
    @usableFromInline let generation: UInt

    /// A link that runs `process` on `context` (activation values synchronously, A2).
    @inlinable
    init(
        process: @escaping (Result<Input, ChannelEnd>) -> ChannelNext<Output>, downstream: Channel<Output>,
        generation: UInt, context: Exec
    ) {
        self.process = process
        self.downstream = downstream
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
        stopped.store(true, ordering: .releasing)
        hop?.stop()
    }

    /// Runs the processor on `result` and delivers what it returns downstream, tagged with the
    /// downstream activation it belongs to (A10).
    @inlinable
    func run(_ result: Result<Input, ChannelEnd>) {
        guard !stopped.load(ordering: .relaxed) else { return }
        switch process(result) {
        case .none:
            break
        case let .single(output):
            downstream.deliver(output, generation: generation)
        case let .array(outputs):
            deliverEach(outputs)
        }
    }

    /// Out of line: keeps the common one-result path of `run` small.
    @inlinable @inline(never)
    func deliverEach(_ outputs: [Result<Output, ChannelEnd>]) {
        for output in outputs {
            downstream.deliver(output, generation: generation)
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
    @usableFromInline let makeProcessor: () -> (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    // Owner-only: changed by the downstream node's turn owner, in activate and deactivate, so
    // it needs no dynamic exclusivity check.
    @exclusivity(unchecked) @usableFromInline
    var connection: (link: ProcessorLink<Input, Output>, node: Channel<Input>?)?

    @inlinable
    init(
        upstream: Channel<Input>, context: Exec,
        makeProcessor: @escaping () -> (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    ) {
        self.upstream = upstream
        self.context = context
        self.makeProcessor = makeProcessor
    }

    @inlinable
    func activate(_ node: Channel<Output>, generation: UInt, run: ActivationRun) {
        let link = ProcessorLink(process: makeProcessor(), downstream: node, generation: generation, context: context)
        connection = (link, nil)
        switch upstream.connect(link, run: run) {
        case let .attached(upstreamNode):
            connection?.node = upstreamNode
        case .duplicate:
            link.receive(.failure(.other(ChannelBindError<Input>.duplicate(nil))), true)
        case let .ended(end):
            link.receive(.failure(end), true)
        }
    }

    @inlinable
    func deactivate(_ node: Channel<Output>) {
        guard let connection else { return }
        self.connection = nil
        connection.link.stop()
        connection.node?.detach(connection.link)
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
        processed(context: context) { process }
    }
}
