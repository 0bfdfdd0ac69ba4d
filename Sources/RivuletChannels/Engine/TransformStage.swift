import Synchronization

/// A processor between two channels: a consumer of the upstream channel that runs the
/// processor (on its context) and delivers what it returns into the downstream node, tagged
/// with the downstream activation it belongs to (A10).
final class TransformConsumer<Input, Output>: ChannelConsumer<Input> {
    private let downstream: Channel<Output>
    private let generation: UInt
    private let process: (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    /// Set once in `init`, before the consumer is shared.
    private var hop: SerialHop<Result<Input, ChannelEnd>>?
    private let stopped = Atomic<Bool>(false)

    init(
        downstream: Channel<Output>, generation: UInt, context: Exec,
        process: @escaping (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    ) {
        self.downstream = downstream
        self.generation = generation
        self.process = process
        super.init()
        if let scheduler = context.scheduler {
            hop = SerialHop(scheduler: scheduler) { [weak self] in self?.run($0) }
        }
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        hop?.stop()
    }

    override func receive(_ result: Result<Input, ChannelEnd>, activating: Bool) {
        if let hop, !activating {
            hop.submit(result)
        } else {
            run(result)
        }
    }

    private func run(_ result: Result<Input, ChannelEnd>) {
        guard !stopped.load(ordering: .relaxed) else { return }
        switch process(result) {
        case .none:
            break
        case let .single(output):
            downstream.deliver(output, generation: generation)
        case let .array(outputs):
            for output in outputs {
                downstream.deliver(output, generation: generation)
            }
        }
    }
}

/// The source of a channel made by a processor on another channel: activating it connects a
/// fresh `TransformConsumer` (with fresh state, A6) below the upstream channel.
final class TransformSource<Input, Output>: ChannelSource<Output> {
    private let upstream: Channel<Input>
    private let context: Exec
    private let makeProcessor: () -> (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    // Owner-only: changed by the downstream node's turn owner, in activate and deactivate.
    private var consumer: TransformConsumer<Input, Output>?
    private var attachedTo: Channel<Input>?

    init(
        upstream: Channel<Input>, context: Exec,
        makeProcessor: @escaping () -> (Result<Input, ChannelEnd>) -> ChannelNext<Output>
    ) {
        self.upstream = upstream
        self.context = context
        self.makeProcessor = makeProcessor
    }

    override func activate(_ node: Channel<Output>, generation: UInt, run: ActivationRun) {
        let consumer = TransformConsumer(
            downstream: node, generation: generation, context: context, process: makeProcessor())
        self.consumer = consumer
        switch upstream.connect(consumer, run: run) {
        case let .attached(upstreamNode):
            attachedTo = upstreamNode
        case .duplicate:
            consumer.receive(.failure(.other(ChannelBindError<Input>.duplicate(nil))), activating: true)
        case let .ended(end):
            consumer.receive(.failure(end), activating: true)
        }
    }

    override func deactivate(_ node: Channel<Output>) {
        guard let consumer else { return }
        self.consumer = nil
        consumer.stop()
        if let attachedTo {
            self.attachedTo = nil
            attachedTo.detach(consumer)
        }
    }

    override func reaches(_ node: AnyObject) -> Bool {
        upstream === node || upstream.storage.withLock { $0.source }.reaches(node)
    }
}

extension Channel {
    /// A channel made by `makeProcessor`'s processor on this channel's results.
    func processed<U>(
        context: Exec,
        _ makeProcessor: @escaping () -> (Result<Value, ChannelEnd>) -> ChannelNext<U>
    ) -> Channel<U> {
        Channel<U>(source: TransformSource(upstream: self, context: context, makeProcessor: makeProcessor))
    }
}
