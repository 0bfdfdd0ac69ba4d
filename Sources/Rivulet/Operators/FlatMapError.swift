extension SignalProducer {
    /// Starts this producer within `lifetime`, under a lifetime of its own that `makeSink`'s
    /// `release` ends early: the hand-over operators (`flatMapError`, `then`) release the first
    /// producer's resources when it has ended, before the replacement starts, as a terminated
    /// signal disposes of its resources (S5).
    func startReleasable(
        in lifetime: Lifetime,
        _ makeSink: (_ release: @escaping () -> Void) -> EventSink<Value, Error>
    ) {
        let (upstreamLifetime, token) = Lifetime.make()
        let handle = lifetime += AnyDisposable { token.dispose() }
        let sink = makeSink {
            handle?.dispose()
            token.dispose()
        }
        guard !upstreamLifetime.hasEnded else { return }
        startInstance(sink, upstreamLifetime)
    }
}

extension Signal.Event {
    /// The stage behind `flatMapError`: forwards values, completion and interruption; on a
    /// failure, releases the upstream and starts the producer `transform` returns in its place,
    /// within the same `lifetime`, sending into the same downstream.
    static func flatMapErrorSink<F>(
        _ transform: @escaping (Error) -> SignalProducer<Value, F>,
        downstream: @escaping EventSink<Value, F>,
        lifetime: Lifetime,
        releaseUpstream: @escaping () -> Void
    ) -> EventSink<Value, Error> {
        var hasEnded = false
        return { event in
            // E1: nothing the upstream might send after its terminal event goes anywhere.
            guard !hasEnded else { return }
            switch event {
            case let .value(value):
                downstream(.value(value))
            case let .failed(error):
                hasEnded = true
                releaseUpstream()
                let replacement = transform(error)
                if !lifetime.hasEnded { replacement.startInstance(downstream, lifetime) }
            case .completed:
                hasEnded = true
                downstream(.completed)
            case .interrupted:
                hasEnded = true
                downstream(.interrupted)
            }
        }
    }
}

extension Signal {
    /// A signal that forwards this signal's events, except that a failure is replaced by the
    /// events of the producer `transform` returns for it, started at that moment.
    public func flatMapError<F>(
        _ transform: @escaping (Error) -> SignalProducer<Value, F>
    ) -> Signal<Value, F> {
        Signal<Value, F> { output, lifetime in
            let sink = Event.flatMapErrorSink(transform, downstream: output.send, lifetime: lifetime) {}
            lifetime += self.observe(Observer(sink))
        }
    }

    /// A signal that forwards this signal's events, except that a failure is replaced by the
    /// events of the stream (producer, signal, property, …) `transform` returns for it.
    public func flatMapError<Inner: SignalProducerConvertible>(
        _ transform: @escaping (Error) -> Inner
    ) -> Signal<Value, Inner.Error> where Inner.Value == Value {
        flatMapError { transform($0).producer }
    }
}

extension SignalProducer {
    /// A producer that forwards this producer's events, except that a failure is replaced by the
    /// events of the producer `transform` returns for it, started at that moment.
    ///
    /// This producer's resources are released before the replacement starts.
    public func flatMapError<F>(
        _ transform: @escaping (Error) -> SignalProducer<Value, F>
    ) -> SignalProducer<Value, F> {
        SignalProducer<Value, F>.fused({ downstream, lifetime in
            self.startReleasable(in: lifetime) { release in
                Signal.Event.flatMapErrorSink(transform, downstream: downstream, lifetime: lifetime, releaseUpstream: release)
            }
        })
    }

    /// A producer that forwards this producer's events, except that a failure is replaced by the
    /// events of the stream (producer, signal, property, …) `transform` returns for it.
    public func flatMapError<Inner: SignalProducerConvertible>(
        _ transform: @escaping (Error) -> Inner
    ) -> SignalProducer<Value, Inner.Error> where Inner.Value == Value {
        flatMapError { transform($0).producer }
    }
}
