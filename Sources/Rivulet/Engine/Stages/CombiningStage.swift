/// What a combining state machine asks its stage to do after an input.
@usableFromInline
enum CombiningAction: Equatable, Sendable {
    /// Nothing to send.
    case none
    /// Send the combination the machine now holds (read it with `element(at:)`).
    case emit
    /// Send the combination the machine now holds, then complete.
    case emitThenComplete
    /// Complete.
    case complete
}

/// The pure state of an operator that combines the values of several sources (combineLatest,
/// zip): it decides, input by input, when a combination is ready and when the result completes.
///
/// Implementations are plain structs with no lock: their stage hands them one input at a time.
/// Failure and interruption are not the machine's business beyond `terminate()`: they are
/// forwarded at once by the stage (E2, E4).
@usableFromInline
protocol CombiningStateMachine<Element> {
    /// The type of the values the sources send (`Any` when the sources have different types).
    associatedtype Element

    /// A machine for `sourceCount` sources, none of which has sent anything yet.
    init(sourceCount: Int)

    /// Whether the machine has finished: it then ignores every further input (E1).
    var isTerminated: Bool { get }

    /// Records `value`, sent by the source at `index`.
    mutating func receiveValue(_ value: Element, from index: Int) -> CombiningAction

    /// Records that the source at `index` completed.
    mutating func receiveCompletion(from index: Int) -> CombiningAction

    /// Marks the machine finished because a source failed or was interrupted, and releases the
    /// values it holds. Returns `false` if it had already finished (the event must be dropped).
    mutating func terminate() -> Bool

    /// The element for the source at `index` in the combination an `emit` action announced.
    func element(at index: Int) -> Element

    /// Called after the announced combination was built, so that the machine can let go of it.
    mutating func didEmit()
}

/// The stage shared by every combining operator (combineLatest, zip, and those built on them),
/// for signals and producers alike (O1).
///
/// Each source sends its events to `sink(for:)`. A `SerialInbox` hands them to the state
/// machine one at a time, whatever threads the sources send on (E5, E7), and queues inputs that
/// arrive while one is being handled (E6), so neither the machine nor the downstream needs a
/// lock and no lock is held while the downstream runs (O7). Failure and interruption of any
/// source are forwarded at once (E2, E4); after the first terminal event nothing more is sent
/// (E1) and the stage, with the downstream, is released once its inbox has closed.
@usableFromInline
final class CombiningStage<Machine: CombiningStateMachine, Output, Error: Swift.Error> {
    @usableFromInline typealias Input = (index: Int, event: Signal<Machine.Element, Error>.Event)

    // Touched only by the inbox's handler, which runs one input at a time: the inbox excludes
    // overlapping access, so the runtime's exclusivity checks (a quarter of a combineLatest
    // send's time in a profile) are turned off for them.
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    /// Set by the first terminal event: nothing is sent afterwards (E1), not even combinations of
    /// inputs already queued.
    @exclusivity(unchecked) @usableFromInline var hasFinished = false
    /// A `let`, so that calling it retains nothing; it is let go with the stage, when the inbox
    /// closes after the first terminal event.
    @usableFromInline let downstream: EventSink<Output, Error>
    @usableFromInline let combine: (_ element: (Int) -> Machine.Element) -> Output
    // Set once in `init`. The inbox's handler holds this stage strongly; closing the inbox (on the
    // first terminal event, or when `lifetime` ends) releases the handler and so the stage.
    @usableFromInline var inbox: SerialInbox<Input>!

    /// A stage for `sourceCount` sources that sends each combination, built by `combine` from
    /// the element of each source, to `downstream`, and stops when `lifetime` ends.
    @inlinable
    init(
        sourceCount: Int,
        combine: @escaping (_ element: (Int) -> Machine.Element) -> Output,
        downstream: @escaping EventSink<Output, Error>,
        lifetime: Lifetime
    ) {
        machine = Machine(sourceCount: sourceCount)
        self.downstream = downstream
        self.combine = combine
        inbox = SerialInbox { input in self.handle(input) }
        let inbox = self.inbox!
        lifetime.observeEnded { inbox.close() }
    }

    /// The sink the source at `index` sends its events to.
    @inlinable
    func sink(for index: Int) -> EventSink<Machine.Element, Error> {
        let inbox = self.inbox!
        return { event in
            // Rebuilt case by case, not copied whole (see `Signal.Observer.sink`).
            switch event {
            case let .value(value): inbox.send((index, .value(value)))
            case let .failed(error): inbox.send((index, .failed(error)))
            case .completed: inbox.send((index, .completed))
            case .interrupted: inbox.send((index, .interrupted))
            }
        }
    }

    @inlinable
    func handle(_ input: Input) {
        let action: CombiningAction
        switch input.event {
        case let .value(value):
            action = machine.receiveValue(value, from: input.index)
        case .completed:
            action = machine.receiveCompletion(from: input.index)
        case let .failed(error):
            if machine.terminate() { finish(.failed(error)) }
            return
        case .interrupted:
            if machine.terminate() { finish(.interrupted) }
            return
        }
        switch action {
        case .none:
            break
        case .emit:
            emit()
        case .emitThenComplete:
            emit()
            finish(.completed)
        case .complete:
            finish(.completed)
        }
    }

    @inlinable
    func emit() {
        let output = combine { machine.element(at: $0) }
        machine.didEmit()
        guard !hasFinished else { return }
        downstream(.value(output))
    }

    @inlinable
    func finish(_ event: Signal<Output, Error>.Event) {
        guard !hasFinished else { return }
        hasFinished = true
        inbox.close()
        downstream(event)
    }
}

extension Signal.Event {
    /// The same event with its value, if any, as `Any`: lets sources of different types share
    /// one combining stage.
    @inlinable
    var erasingValue: Signal<Any, Error>.Event {
        switch self {
        case let .value(value): .value(value)
        case let .failed(error): .failed(error)
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}

/// Reads element `index` of a combination as a `T`, then moves `index` to the next source: builds
/// a tuple of differently typed elements with a pack expansion.
@inlinable
func combinedElement<T>(_ element: (Int) -> Any, _ index: inout Int, as _: T.Type) -> T {
    defer { index += 1 }
    return element(index) as! T
}

/// The tuple of a combination of differently typed sources, read with `element`, in source order.
@inlinable
func combinedTuple<A, B, each C>(_ element: (Int) -> Any) -> (A, B, repeat each C) {
    var index = 2
    return (element(0) as! A, element(1) as! B, repeat combinedElement(element, &index, as: (each C).self))
}

extension Signal {
    /// Attaches a combining source: given the sink for its index, starts observing it.
    @usableFromInline
    typealias CombiningSource<Element> = (_ sink: @escaping EventSink<Element, Error>) -> Disposable?

    /// A signal that combines `sources` with a `Machine` and sends the combinations `combine`
    /// builds. With no source it completes at once (observers then see `interrupted`, S3).
    @inlinable
    static func combining<Machine: CombiningStateMachine>(
        _: Machine.Type,
        _ sources: [CombiningSource<Machine.Element>],
        combine: @escaping (_ element: (Int) -> Machine.Element) -> Value
    ) -> Signal {
        Signal { output, lifetime in
            if sources.isEmpty {
                output.sendCompleted()
                return
            }
            let stage = CombiningStage<Machine, Value, Error>(
                sourceCount: sources.count, combine: combine, downstream: output.sink, lifetime: lifetime
            )
            // A source that has already terminated ends the result at once; stop attaching then.
            for (index, attach) in sources.enumerated() where !lifetime.hasEnded {
                lifetime += attach(stage.sink(for: index))
            }
        }
    }

    /// A signal of arrays that combines `signals` with a `Machine`: the one implementation behind
    /// the sequence forms of `combineLatest` and `zip`. With no signal, it has already completed.
    static func combiningArray<Machine: CombiningStateMachine<Value>, S: Sequence>(
        _: Machine.Type,
        _ signals: S
    ) -> Signal<[Value], Error> where S.Element == Signal<Value, Error> {
        let sources = signals.map { signal -> Signal<[Value], Error>.CombiningSource<Value> in
            { sink in signal.observe(Observer(sink)) }
        }
        let indices = sources.indices
        return Signal<[Value], Error>.combining(Machine.self, sources) { element in indices.map(element) }
    }

    /// A combining source that observes `signal` and hands its values on as `Any`.
    @inlinable
    static func erasedCombiningSource<T>(_ signal: Signal<T, Error>) -> CombiningSource<Any> {
        { sink in signal.observe(Signal<T, Error>.Observer { sink($0.erasingValue) }) }
    }
}

extension SignalProducer {
    /// Starts a combining source: given the sink for its index and the lifetime of the start.
    @usableFromInline
    typealias CombiningSource<Element> = (_ sink: @escaping EventSink<Element, Error>, _ lifetime: Lifetime) -> Void

    /// A producer whose starts start every one of `sources`, in order, into one `Machine`, and send
    /// the combinations `combine` builds (fused: no intermediate signal). With no source, a start
    /// sends `emptyValue` (if any) and completes.
    @inlinable
    static func combining<Machine: CombiningStateMachine>(
        _: Machine.Type,
        _ sources: [CombiningSource<Machine.Element>],
        emptyValue: Value? = nil,
        combine: @escaping (_ element: (Int) -> Machine.Element) -> Value
    ) -> SignalProducer {
        .fused({ downstream, lifetime in
            if sources.isEmpty {
                if let emptyValue { downstream(.value(emptyValue)) }
                downstream(.completed)
                return
            }
            let stage = CombiningStage<Machine, Value, Error>(
                sourceCount: sources.count, combine: combine, downstream: downstream, lifetime: lifetime
            )
            // A source that terminates the result while starting ends the start's lifetime; the
            // sources after it are then not started.
            for (index, start) in sources.enumerated() where !lifetime.hasEnded {
                startInOwnLifetime(start, sink: stage.sink(for: index), within: lifetime)
            }
        })
    }

    /// A producer of arrays that combines the producers of `producers` with a `Machine`: the one
    /// implementation behind the sequence forms of `combineLatest` and `zip`.
    ///
    /// The sequence is read on each start, so every start sees its current producers (P2). With
    /// no producer, a start sends `emptyValue` (if any) and completes.
    static func combiningArray<Machine: CombiningStateMachine<Value>, S: Sequence>(
        _: Machine.Type,
        _ producers: S,
        emptyValue: [Value]?
    ) -> SignalProducer<[Value], Error>
    where S.Element: SignalProducerConvertible, S.Element.Value == Value, S.Element.Error == Error {
        SignalProducer<[Value], Error>.fused({ downstream, lifetime in
            let sources = producers.map { $0.producer.startInstance }
            let indices = sources.indices
            SignalProducer<[Value], Error>
                .combining(Machine.self, sources, emptyValue: emptyValue) { element in indices.map(element) }
                .startInstance(downstream, lifetime)
        })
    }

    /// A combining source that starts `producer` and hands its values on as `Any`.
    @inlinable
    static func erasedCombiningSource<T>(_ producer: SignalProducer<T, Error>) -> CombiningSource<Any> {
        { sink, lifetime in producer.startInstance({ sink($0.erasingValue) }, lifetime) }
    }
}

extension Signal {
    /// A signal that combines two or more signals of different types with a `Machine` and sends
    /// the combinations as tuples: the one implementation behind every tuple-valued `combineLatest`
    /// and `zip` on signals, whatever the arity.
    @inlinable
    static func combiningPack<Machine: CombiningStateMachine<Any>, A, B, each C>(
        _: Machine.Type,
        _ a: Signal<A, Error>,
        _ b: Signal<B, Error>,
        _ rest: repeat Signal<each C, Error>
    ) -> Signal where Value == (A, B, repeat each C) {
        var sources = [Signal<A, Error>.erasedCombiningSource(a), Signal<B, Error>.erasedCombiningSource(b)]
        for signal in repeat each rest {
            sources.append(Signal<A, Error>.erasedCombiningSource(signal))
        }
        return combining(Machine.self, sources, combine: combinedTuple)
    }
}

extension SignalProducer {
    /// A producer that combines two or more producers of different types with a `Machine` and
    /// sends the combinations as tuples: the one implementation behind every tuple-valued
    /// `combineLatest` and `zip` on producers, whatever the arity. Starts the sources in order.
    @inlinable
    static func combiningPack<Machine: CombiningStateMachine<Any>, A, B, each C>(
        _: Machine.Type,
        _ a: SignalProducer<A, Error>,
        _ b: SignalProducer<B, Error>,
        _ rest: repeat SignalProducer<each C, Error>
    ) -> SignalProducer where Value == (A, B, repeat each C) {
        var sources = [
            SignalProducer<A, Error>.erasedCombiningSource(a),
            SignalProducer<B, Error>.erasedCombiningSource(b),
        ]
        for producer in repeat each rest {
            sources.append(SignalProducer<A, Error>.erasedCombiningSource(producer))
        }
        return combining(Machine.self, sources, combine: combinedTuple)
    }
}
