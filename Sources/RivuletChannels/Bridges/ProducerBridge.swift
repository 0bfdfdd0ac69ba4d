extension Channel where Value: Sendable {
    /// A channel that starts `producer` on each activation and disposes of the start when it
    /// deactivates. Values the producer sends synchronously while starting are activation values
    /// (a capture pulls them). `completed` ends the channel with `.complete`, `failed(e)` with
    /// `.other(e)` (or `e` itself if it is a `ChannelEnd`), `interrupted` with `.cancelled`.
    ///
    /// - Parameter producer: The producer to start.
    public convenience init<E: Error>(_ producer: SignalProducer<Value, E>) {
        self.init(source: .of(ProducerSource(producer)))
    }

    /// A producer that, on each start, subscribes to this channel and forwards what it receives:
    /// values as values, `.complete` as `completed`, any other end as `failed` with that
    /// `ChannelEnd`. Disposing of a start cancels its output. A plain channel has one output, so
    /// a second concurrent start fails with `.other(ChannelBindError.duplicate)`; start a multi
    /// as often as you like.
    public var producer: SignalProducer<Value, ChannelEnd> {
        SignalProducer { [self] observer, lifetime in
            let output = subscribe { result in
                switch result {
                case let .success(value): observer.send(value: value)
                case .failure(.complete): observer.sendCompleted()
                case let .failure(end): observer.send(error: end)
                }
            }
            let token = UncheckedSendable(output)
            lifetime.observeEnded { token.value.cancel() }
        }
    }
}

extension ChannelMulti where Value: Sendable {
    /// A property of the multi's values, or `nil` if the multi has no activation value to start
    /// from (a `multicast`, or a `continuous` that has not seen a value). The property holds the
    /// latest value; when the multi ends, the property keeps its last value.
    public var property: Property<Value>? {
        let capture = capture()
        guard let initial = capture.values.last else { return nil }
        let values = capture.resume().producer.flatMapError { _ in SignalProducer<Value, Never>.empty }
        return Property(initial: initial, then: values)
    }
}

extension SignalProducer where Value: Sendable {
    /// A channel that starts this producer on each activation (see `Channel.init(_:)`).
    ///
    /// - Returns: The channel.
    public func channel() -> Channel<Value> {
        Channel(self)
    }
}

/// The source of a channel made from a producer.
final class ProducerSource<Value, E: Error>: ChannelSourceBehaviour {
    private let producer: SignalProducer<Value, E>
    // Owner-only: the current start, disposed of by the node's turn owner.
    private var start: (any Disposable)?

    init(_ producer: SignalProducer<Value, E>) {
        self.producer = producer
    }

    func activate(_ node: Channel<Value>, generation: UInt, run: ActivationRun) {
        let target = UncheckedSendable(node)
        start = producer.start { event in
            let result: Result<Value, ChannelEnd>
            switch event {
            case let .value(value): result = .success(value)
            case .completed: result = .failure(.complete)
            case let .failed(error): result = .failure(ChannelEnd(error))
            case .interrupted: result = .failure(.cancelled)
            }
            target.value.deliver(result, generation: generation)
        }
    }

    func deactivate(_ node: Channel<Value>) {
        let start = self.start
        self.start = nil
        start?.dispose()
    }
}
