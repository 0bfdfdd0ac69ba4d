// sample(with:), sample(on:)

extension Signal {
    /// A signal that, each time `sampler` sends a value, sends the latest value of this signal
    /// paired with the sampler's value.
    ///
    /// Nothing is sent for a sampler value that arrives before this signal's first value; the
    /// latest value can be sent many times. The result completes once both have completed, fails
    /// when this signal fails, and is interrupted when either is interrupted.
    public func sample<T>(with sampler: Signal<T, Never>) -> Signal<(Value, T), Error> {
        Signal<(Value, T), Error> { output, lifetime in
            let gate = GateRunner(SampleMachine<Value, T, Error>(), downstream: output.sink, lifetime: lifetime)
            gate.sources += self.observe(Observer { gate.send(.source($0)) })
            gate.sources += sampler.observe(Signal<T, Never>.Observer { gate.send(.sampler($0)) })
        }
    }

    /// A signal that sends the latest value of this signal each time `sampler` sends a value.
    ///
    /// Completion and interruption follow `sample(with:)`.
    public func sample(on sampler: Signal<(), Never>) -> Signal<Value, Error> {
        sample(with: sampler).map { $0.0 }
    }
}

extension SignalProducer {
    /// A producer that, each time `sampler` sends a value, sends the latest value of this start
    /// paired with the sampler's value.
    ///
    /// Each start starts this producer first, then `sampler`. Completion, failure and interruption
    /// follow `Signal.sample(with:)`.
    public func sample<T>(with sampler: SignalProducer<T, Never>) -> SignalProducer<(Value, T), Error> {
        SignalProducer<(Value, T), Error>.fused({ downstream, lifetime in
            let gate = GateRunner(SampleMachine<Value, T, Error>(), downstream: downstream, lifetime: lifetime)
            // Either may complete first while the other goes on: each stops its work as it ends.
            startInOwnLifetime(self.startInstance, sink: { gate.send(.source($0)) }, within: gate.sources)
            if gate.sources.hasEnded { return }
            startInOwnLifetime(sampler.startInstance, sink: { gate.send(.sampler($0)) }, within: gate.sources)
        })
    }

    /// A producer that, each time `sampler` sends a value, sends the latest value of this start
    /// paired with the sampler's value.
    public func sample<Sampler: SignalProducerConvertible>(
        with sampler: Sampler
    ) -> SignalProducer<(Value, Sampler.Value), Error> where Sampler.Error == Never {
        sample(with: sampler.producer)
    }

    /// A producer that sends the latest value of this start each time `sampler` sends a value.
    ///
    /// Each start starts this producer first, then `sampler`.
    public func sample(on sampler: SignalProducer<(), Never>) -> SignalProducer<Value, Error> {
        sample(with: sampler).map { $0.0 }
    }

    /// A producer that sends the latest value of this start each time `sampler` sends a value.
    public func sample<Sampler: SignalProducerConvertible>(
        on sampler: Sampler
    ) -> SignalProducer<Value, Error> where Sampler.Value == (), Sampler.Error == Never {
        sample(on: sampler.producer)
    }
}

// MARK: - State machine

/// The inputs of `sample(with:)`.
@usableFromInline
enum SampleInput<Value, T, Error: Swift.Error> {
    case source(Signal<Value, Error>.Event)
    case sampler(Signal<T, Never>.Event)
}

/// `sample(with:)`: remembers the source's latest value and sends it at each sampler value.
@usableFromInline
struct SampleMachine<Value, T, Error: Swift.Error>: GateStateMachine {
    private var latest: Value?
    private var isSourceCompleted = false
    private var isSamplerCompleted = false
    private var hasTerminated = false

    @usableFromInline
    init() {}

    @usableFromInline
    mutating func receive(_ input: SampleInput<Value, T, Error>) -> GateOutput<(Value, T), Error> {
        if hasTerminated { return .none }
        switch input {
        case let .source(event):
            switch event {
            case let .value(value):
                latest = value
                return .none
            case let .failed(error):
                return terminate(.failed(error))
            case .completed:
                isSourceCompleted = true
                return isSamplerCompleted ? terminate(.completed) : .none
            case .interrupted:
                return terminate(.interrupted)
            }
        case let .sampler(event):
            switch event {
            case let .value(samplerValue):
                guard let latest else { return .none }
                return .send(.value((latest, samplerValue)))
            case .completed:
                isSamplerCompleted = true
                return isSourceCompleted ? terminate(.completed) : .none
            case .interrupted:
                return terminate(.interrupted)
            }
        }
    }

    private mutating func terminate(_ event: Signal<(Value, T), Error>.Event) -> GateOutput<(Value, T), Error> {
        hasTerminated = true
        latest = nil
        return .send(event)
    }
}
