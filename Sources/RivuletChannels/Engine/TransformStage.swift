import Synchronization

/// The state of one activation of a processor between two channels: whether it was stopped,
/// and its hop to an execution context.
@usableFromInline
final class TransformLink<Input>: @unchecked Sendable {
    // @unchecked Sendable: `stopped` is atomic; `hop` is set once in `init`, before the link is
    // shared, and a `SerialHop` is itself thread-safe.
    @usableFromInline let stopped = Atomic<Bool>(false)
    @usableFromInline var hop: SerialHop<Result<Input, ChannelEnd>>?

    @inlinable
    init() {}

    @inlinable
    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    @usableFromInline
    func stop() {
        stopped.store(true, ordering: .releasing)
        hop?.stop()
    }
}

extension ChannelConsumer {
    /// A processor's consumer on the upstream channel: it runs `process` (on `context`) and
    /// delivers what it returns into `downstream`, tagged with the downstream activation
    /// `generation` it belongs to (A10).
    @inlinable
    static func processor<Output>(
        into downstream: Channel<Output>, generation: UInt, context: Exec, link: TransformLink<Value>,
        process: @escaping (Result<Value, ChannelEnd>) -> ChannelNext<Output>
    ) -> ChannelConsumer<Value> {
        guard let scheduler = context.scheduler else {
            return ChannelConsumer { result, _ in
                runProcessor(process, on: result, into: downstream, generation: generation, link: link)
            }
        }
        let hop = SerialHop<Result<Value, ChannelEnd>>(scheduler: scheduler) {
            runProcessor(process, on: $0, into: downstream, generation: generation, link: link)
        }
        link.hop = hop
        return ChannelConsumer { result, activating in
            if activating {
                runProcessor(process, on: result, into: downstream, generation: generation, link: link)
            } else {
                hop.submit(result)
            }
        }
    }

    @inlinable
    static func runProcessor<Output>(
        _ process: (Result<Value, ChannelEnd>) -> ChannelNext<Output>, on result: Result<Value, ChannelEnd>,
        into downstream: Channel<Output>, generation: UInt, link: TransformLink<Value>
    ) {
        guard !link.isStopped else { return }
        switch process(result) {
        case .none:
            break
        case let .single(output):
            downstream.deliver(output, generation: generation)
        case let .array(outputs):
            deliverEach(outputs, into: downstream, generation: generation)
        }
    }

    /// Out of line: keeps the common one-result path of `runProcessor` small.
    @inlinable @inline(never)
    static func deliverEach<Output>(
        _ outputs: [Result<Output, ChannelEnd>], into downstream: Channel<Output>, generation: UInt
    ) {
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
    /// Makes the consumer for one activation of `node` as `generation`; formed by the
    /// (specialised) operator that made this source.
    @usableFromInline let makeConsumer: (Channel<Output>, UInt, TransformLink<Input>) -> ChannelConsumer<Input>
    // Owner-only: changed by the downstream node's turn owner, in activate and deactivate.
    @usableFromInline var connection: (consumer: ChannelConsumer<Input>, link: TransformLink<Input>, node: Channel<Input>?)?

    @inlinable
    init(
        upstream: Channel<Input>,
        makeConsumer: @escaping (Channel<Output>, UInt, TransformLink<Input>) -> ChannelConsumer<Input>
    ) {
        self.upstream = upstream
        self.makeConsumer = makeConsumer
    }

    @inlinable
    func activate(_ node: Channel<Output>, generation: UInt, run: ActivationRun) {
        let link = TransformLink<Input>()
        let consumer = makeConsumer(node, generation, link)
        connection = (consumer, link, nil)
        switch upstream.connect(consumer, run: run) {
        case let .attached(upstreamNode):
            connection?.node = upstreamNode
        case .duplicate:
            consumer.receive(.failure(.other(ChannelBindError<Input>.duplicate(nil))), true)
        case let .ended(end):
            consumer.receive(.failure(end), true)
        }
    }

    @inlinable
    func deactivate(_ node: Channel<Output>) {
        guard let connection else { return }
        self.connection = nil
        connection.link.stop()
        connection.node?.detach(connection.consumer)
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
        Channel<U>(
            source: .of(
                TransformSource(upstream: self) { node, generation, link in
                    ChannelConsumer.processor(
                        into: node, generation: generation, context: context, link: link, process: makeProcessor())
                }))
    }
}
