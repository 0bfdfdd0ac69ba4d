@testable import Rivulet

/// An operator's output, observed (signal form) or started (producer form) with a handler that
/// receives its events as model events; returns the observation's or start's disposable.
struct FuzzStream<Out: Equatable & Sendable> {
    let attach: (@escaping @Sendable (ModelEvent<Out>) -> Void) -> Disposable?

    init<V, F: Swift.Error>(signal: Signal<V, F>, value: @escaping @Sendable (V) -> Out, error: @escaping @Sendable (F) -> Int) {
        attach = { handler in
            signal.observe(Signal<V, F>.Observer { handler(ModelEvent($0, value: value, error: error)) })
        }
    }

    init<V, F: Swift.Error>(
        producer: SignalProducer<V, F>, value: @escaping @Sendable (V) -> Out, error: @escaping @Sendable (F) -> Int
    ) {
        attach = { handler in
            producer.start(Signal<V, F>.Observer { handler(ModelEvent($0, value: value, error: error)) })
        }
    }
}

extension ModelEvent {
    init<V, F>(_ event: Signal<V, F>.Event, value: (V) -> Value, error: (F) -> Int) {
        switch event {
        case .value(let payload): self = .value(value(payload))
        case .failed(let failure): self = .failed(error(failure))
        case .completed: self = .completed
        case .interrupted: self = .interrupted
        }
    }
}

extension ModelEvent where Value == Int {
    var signalEvent: Signal<Int, TestError>.Event {
        switch self {
        case .value(let value): .value(value)
        case .failed(let code): .failed(TestError(code))
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}

/// The error code of a failure that cannot happen.
@Sendable func impossible(_ never: Never) -> Int {}

/// The error code of a `TestError`.
@Sendable func code(_ error: TestError) -> Int { error.code }

/// An operator under test: its reference model, and how to apply it to signals and (where it has
/// a producer form) to producers. Each form gets one source per port, and the test scheduler.
struct FuzzOperator<Out: Equatable & Sendable> {
    typealias Sources<S> = ([S], FuzzInputs) -> FuzzStream<Out>
    let name: String
    let model: FuzzModel<Out>
    /// Whether the operator delivers on the scheduler (then a disposed start's interruption comes
    /// at the next tick).
    let timed: Bool
    /// Where a disposed start's interruption enters: at the source, flowing down through the
    /// operator (most operators), or at the operator itself (flattenings, `merge`), which then
    /// sends it on at once.
    var disposalEntersAtSource = true
    /// Whether the upstream start outlives a disposed start (`replayLazily` shares it).
    var upstreamOutlivesDisposal = false
    /// The signal form; `nil` for producer-only operators.
    let signal: Sources<Signal<Int, TestError>>?
    let producer: Sources<SignalProducer<Int, TestError>>?

    /// An operator with any output types, projected to the model's.
    init<V, F: Swift.Error>(
        _ name: String,
        model: @escaping FuzzModel<Out>,
        value: @escaping @Sendable (V) -> Out,
        error: @escaping @Sendable (F) -> Int,
        timed: Bool = false,
        signal: (([Signal<Int, TestError>], FuzzInputs) -> Signal<V, F>)?,
        producer: (([SignalProducer<Int, TestError>], FuzzInputs) -> SignalProducer<V, F>)?
    ) {
        self.name = name
        self.model = model
        self.timed = timed
        self.signal = signal.map { make in { FuzzStream(signal: make($0, $1), value: value, error: error) } }
        self.producer = producer.map { make in { FuzzStream(producer: make($0, $1), value: value, error: error) } }
    }
}

extension FuzzOperator {
    /// An operator whose values are the model's and whose error is `TestError`.
    init(
        _ name: String,
        model: @escaping FuzzModel<Out>,
        timed: Bool = false,
        signal: (([Signal<Int, TestError>], FuzzInputs) -> Signal<Out, TestError>)?,
        producer: (([SignalProducer<Int, TestError>], FuzzInputs) -> SignalProducer<Out, TestError>)?
    ) {
        self.init(name, model: model, value: { $0 }, error: code, timed: timed, signal: signal, producer: producer)
    }

    /// A one-input operator without a clock, on `Int` and `TestError`.
    static func unary(
        _ name: String,
        model: @escaping FuzzModel<Out>,
        signal: @escaping (Signal<Int, TestError>) -> Signal<Out, TestError>,
        producer: @escaping (SignalProducer<Int, TestError>) -> SignalProducer<Out, TestError>
    ) -> FuzzOperator {
        FuzzOperator(
            name, model: model, signal: { sources, _ in signal(sources[0]) }, producer: { sources, _ in producer(sources[0]) })
    }

    /// A producer-only operator with one input and no clock, on `Int` and `TestError`.
    static func producerOnly(
        _ name: String,
        model: @escaping FuzzModel<Out>,
        _ producer: @escaping (SignalProducer<Int, TestError>) -> SignalProducer<Out, TestError>
    ) -> FuzzOperator {
        FuzzOperator(name, model: model, signal: nil, producer: { sources, _ in producer(sources[0]) })
    }

    /// The operator with the interruption of a disposed start entering at the operator.
    var interruptedAtOperator: FuzzOperator {
        var copy = self
        copy.disposalEntersAtSource = false
        return copy
    }

    /// The operator with an upstream start that outlives a disposed start.
    var sharingUpstream: FuzzOperator {
        var copy = self
        copy.upstreamOutlivesDisposal = true
        return copy
    }

    /// A type-erased case for the runner.
    var erased: FuzzCase {
        FuzzCase(name: name) { script in runFuzzScript(self, script) }
    }
}

/// An operator, type-erased: runs one script and returns what went wrong, if anything.
struct FuzzCase {
    let name: String
    let run: (FuzzScript) -> String?
}
