extension SignalProducer {
    /// Starts this producer as the first operand of a hand-over stage (`flatMapError`, `then`)
    /// within `lifetime`: a start of its own, as in ReactiveSwift, whose lifetime ends once `sink`
    /// has fully handled its terminal event (forwarded it, or started the replacement), or when
    /// `lifetime` ends.
    func startHandingOver(in lifetime: Lifetime, to sink: @escaping EventSink<Value, Error>) {
        let resources = CompositeDisposable(leadingWithInterruption: ())
        let handle = lifetime += resources
        guard !resources.isDisposed else { return }
        startInstance(
            { event in
                guard event.isTerminating else { return sink(event) }
                // Ending `lifetime` while this start delivers its terminal event (the event ends
                // the stream) must not end this start first.
                handle?.dispose()
                sink(event)
                resources.dispose()
            }, Lifetime(resources))
    }
}

/// What a hand-over stage (`flatMapError`, `then`) does with one upstream event.
enum HandOver<U, F: Swift.Error> {
    /// Send this event downstream.
    case forward(Signal<U, F>.Event)
    /// Drop the event.
    case drop
    /// The upstream has ended: start the producer this returns into the same downstream, within
    /// the same lifetime.
    case replace(() -> SignalProducer<U, F>)
}

extension Signal.Event {
    /// A hand-over stage: `step` decides what each upstream event becomes; the stage guarantees
    /// that nothing the upstream sends after its terminal event goes anywhere (E1).
    static func handOverSink<U, F>(
        downstream: @escaping EventSink<U, F>,
        lifetime: Lifetime,
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
                let replacement = makeReplacement()
                if !lifetime.hasEnded { replacement.startInstance(downstream, lifetime) }
            }
        }
    }

    /// The stage behind `flatMapError`: forwards values, completion and interruption; on a
    /// failure, starts the producer `transform` returns in its place.
    static func flatMapErrorSink<F>(
        _ transform: @escaping (Error) -> SignalProducer<Value, F>,
        downstream: @escaping EventSink<Value, F>,
        lifetime: Lifetime
    ) -> EventSink<Value, Error> {
        handOverSink(downstream: downstream, lifetime: lifetime) { event in
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
    ///
    /// - Parameter transform: Makes the replacement producer for this signal's error; called at
    ///   most once, when this signal fails, on the thread that delivers the failure.
    /// - Returns: A signal of this signal's values, then of the replacement's events if this signal
    ///   fails; otherwise it completes or is interrupted as this signal is.
    public func flatMapError<F>(
        _ transform: @escaping @Sendable (Error) -> SignalProducer<Value, F>
    ) -> Signal<Value, F> {
        Signal<Value, F> { output, lifetime in
            let sink = Event.flatMapErrorSink(transform, downstream: output.sink, lifetime: lifetime)
            lifetime += self.observe(Observer(relaying: sink, ()))
        }
    }

    /// A signal that forwards this signal's events, except that a failure is replaced by the
    /// events of the stream (producer, signal, property, …) `transform` returns for it.
    ///
    /// - Parameter transform: Makes the replacement stream for this signal's error; called at most
    ///   once, when this signal fails, on the thread that delivers the failure.
    /// - Returns: A signal of this signal's values, then of the replacement's events if this signal
    ///   fails; otherwise it completes or is interrupted as this signal is.
    public func flatMapError<Inner: SignalProducerConvertible>(
        _ transform: @escaping @Sendable (Error) -> Inner
    ) -> Signal<Value, Inner.Error> where Inner.Value == Value, Inner: SendableMetatype {
        flatMapError { transform($0).producer }
    }
}

extension SignalProducer {
    /// A producer that forwards this producer's events, except that a failure is replaced by the
    /// events of the producer `transform` returns for it, started at that moment.
    ///
    /// This producer's start ends once the replacement has started, as in ReactiveSwift.
    ///
    /// - Parameter transform: Makes the replacement producer for this producer's error; called at
    ///   most once, when this producer fails, on the thread that delivers the failure.
    /// - Returns: A producer of this producer's values, then of the replacement's events if this
    ///   producer fails; otherwise it completes or is interrupted as this producer is.
    public func flatMapError<F>(
        _ transform: @escaping @Sendable (Error) -> SignalProducer<Value, F>
    ) -> SignalProducer<Value, F> {
        SignalProducer<Value, F>.fused({ downstream, lifetime in
            self.startHandingOver(
                in: lifetime, to: Signal.Event.flatMapErrorSink(transform, downstream: downstream, lifetime: lifetime))
        })
    }

    /// A producer that forwards this producer's events, except that a failure is replaced by the
    /// events of the stream (producer, signal, property, …) `transform` returns for it.
    ///
    /// - Parameter transform: Makes the replacement stream for this producer's error; called at
    ///   most once, when this producer fails, on the thread that delivers the failure.
    /// - Returns: A producer of this producer's values, then of the replacement's events if this
    ///   producer fails; otherwise it completes or is interrupted as this producer is.
    public func flatMapError<Inner: SignalProducerConvertible>(
        _ transform: @escaping @Sendable (Error) -> Inner
    ) -> SignalProducer<Value, Inner.Error> where Inner.Value == Value, Inner: SendableMetatype {
        flatMapError { transform($0).producer }
    }
}
