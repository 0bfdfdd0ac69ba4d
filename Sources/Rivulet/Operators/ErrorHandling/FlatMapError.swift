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

/// What a hand-over stage (`flatMapError`, `then`) does with one upstream event.
enum HandOver<U, F: Swift.Error> {
    /// Send this event downstream.
    case forward(Signal<U, F>.Event)
    /// Drop the event.
    case drop
    /// The upstream has ended: release it, then start the producer this returns into the same
    /// downstream, within the same lifetime.
    case replace(() -> SignalProducer<U, F>)
}

extension Signal.Event {
    /// A hand-over stage: `step` decides what each upstream event becomes; the stage guarantees
    /// that nothing the upstream sends after its terminal event goes anywhere (E1), and that the
    /// upstream is released before its replacement starts.
    static func handOverSink<U, F>(
        downstream: @escaping EventSink<U, F>,
        lifetime: Lifetime,
        releaseUpstream: @escaping () -> Void,
        _ step: @escaping (Self) -> HandOver<U, F>
    ) -> EventSink<Value, Error> {
        var hasEnded = false
        return { event in
            guard !hasEnded else { return }
            if event.isTerminating { hasEnded = true }
            switch step(event) {
            case let .forward(event):
                downstream(event)
            case .drop:
                break
            case let .replace(makeReplacement):
                releaseUpstream()
                let replacement = makeReplacement()
                if !lifetime.hasEnded { replacement.startInstance(downstream, lifetime) }
            }
        }
    }

    /// The stage behind `flatMapError`: forwards values, completion and interruption; on a
    /// failure, releases the upstream and starts the producer `transform` returns in its place.
    static func flatMapErrorSink<F>(
        _ transform: @escaping (Error) -> SignalProducer<Value, F>,
        downstream: @escaping EventSink<Value, F>,
        lifetime: Lifetime,
        releaseUpstream: @escaping () -> Void
    ) -> EventSink<Value, Error> {
        handOverSink(downstream: downstream, lifetime: lifetime, releaseUpstream: releaseUpstream) { event in
            switch event {
            case let .value(value): .forward(.value(value))
            case let .failed(error): .replace { transform(error) }
            case .completed: .forward(.completed)
            case .interrupted: .forward(.interrupted)
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
            let sink = Event.flatMapErrorSink(transform, downstream: output.sink, lifetime: lifetime) {}
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
