// withLatest(from:)

extension Signal {
    /// A signal that pairs each value of this signal with the latest value of `samplee`.
    ///
    /// Values that arrive before `samplee`'s first value are dropped. The result ends when this
    /// signal ends; `samplee`'s terminal events are ignored (its last value stays in use).
    public func withLatest<U>(from samplee: Signal<U, Never>) -> Signal<(Value, U), Error> {
        Signal<(Value, U), Error> { output, lifetime in
            let gate = GateRunner(WithLatestMachine<Value, U, Error>(), downstream: output.sink, lifetime: lifetime)
            gate.sources += samplee.observe(Signal<U, Never>.Observer { gate.send(.samplee($0)) })
            gate.sources += self.observe(Observer { gate.send(.source($0)) })
        }
    }

    /// A signal that pairs each value of this signal with the latest value of `samplee`, which is
    /// started when the signal is created and stopped when it ends.
    public func withLatest<U>(from samplee: SignalProducer<U, Never>) -> Signal<(Value, U), Error> {
        Signal<(Value, U), Error> { output, lifetime in
            let gate = GateRunner(WithLatestMachine<Value, U, Error>(), downstream: output.sink, lifetime: lifetime)
            // The samplee may end long before this signal: it stops its work when it does.
            startInOwnLifetime(samplee.startInstance, sink: { gate.send(.samplee($0)) }, within: gate.sources)
            gate.sources += self.observe(Observer { gate.send(.source($0)) })
        }
    }

    /// A signal that pairs each value of this signal with the latest value of `samplee`.
    public func withLatest<Samplee: SignalProducerConvertible>(
        from samplee: Samplee
    ) -> Signal<(Value, Samplee.Value), Error> where Samplee.Error == Never {
        withLatest(from: samplee.producer)
    }
}

extension SignalProducer {
    /// A producer that pairs each value of a start with the latest value of `samplee`.
    ///
    /// Each start starts `samplee` first, then this producer. Values that arrive before
    /// `samplee`'s first value are dropped; the result ends when this producer's start ends, and
    /// `samplee`'s terminal events are ignored.
    public func withLatest<U>(from samplee: SignalProducer<U, Never>) -> SignalProducer<(Value, U), Error> {
        SignalProducer<(Value, U), Error>.fused({ downstream, lifetime in
            let gate = GateRunner(WithLatestMachine<Value, U, Error>(), downstream: downstream, lifetime: lifetime)
            // The samplee may end long before this producer: it stops its work when it does.
            startInOwnLifetime(samplee.startInstance, sink: { gate.send(.samplee($0)) }, within: gate.sources)
            self.startInstance({ gate.send(.source($0)) }, gate.sources)
        })
    }

    /// A producer that pairs each value of a start with the latest value of `samplee`.
    public func withLatest<Samplee: SignalProducerConvertible>(
        from samplee: Samplee
    ) -> SignalProducer<(Value, Samplee.Value), Error> where Samplee.Error == Never {
        withLatest(from: samplee.producer)
    }
}

// MARK: - State machine

/// The inputs of `withLatest(from:)`.
@usableFromInline
enum WithLatestInput<Value, U, Error: Swift.Error> {
    case source(Signal<Value, Error>.Event)
    case samplee(Signal<U, Never>.Event)
}

/// `withLatest(from:)`: remembers the samplee's latest value and pairs each source value with it.
@usableFromInline
struct WithLatestMachine<Value, U, Error: Swift.Error>: GateStateMachine {
    private var latest: U?
    private var hasTerminated = false

    @usableFromInline
    init() {}

    @usableFromInline
    mutating func receive(_ input: WithLatestInput<Value, U, Error>) -> GateOutput<(Value, U), Error> {
        if hasTerminated { return .none }
        switch input {
        case let .source(event):
            switch event {
            case let .value(value):
                guard let latest else { return .none }
                return .send(.value((value, latest)))
            case let .failed(error):
                hasTerminated = true
                return .send(.failed(error))
            case .completed:
                hasTerminated = true
                return .send(.completed)
            case .interrupted:
                hasTerminated = true
                return .send(.interrupted)
            }
        case let .samplee(event):
            switch event {
            case let .value(value):
                latest = value
            case .completed, .interrupted:
                break
            }
            return .none
        }
    }
}
