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
    /// End with the failure or interruption that the machine was handed.
    case forwardTermination
}

/// The pure state of an operator that combines the values of several sources (combineLatest,
/// zip, sample, withLatest): it decides, input by input, when a combination is ready and when
/// the result ends.
///
/// Implementations are plain structs named `<Operator>StateMachine`, with no lock: their stage
/// hands them one input at a time and carries out the `Action` (a `CombiningAction`, named in
/// each machine) that each transition returns once the transition is over, outside the machine
/// (O7).
@usableFromInline
protocol CombiningStateMachine<Element> {
    /// The type of the values the sources send (`Any` when the sources have different types).
    associatedtype Element

    /// A machine for `sourceCount` sources, none of which has sent anything yet.
    init(sourceCount: Int)

    /// Records `value`, sent by the source at `index`.
    mutating func receiveValue(_ value: Element, from index: Int) -> CombiningAction

    /// Records that the source at `index` completed.
    mutating func receiveCompletion(from index: Int) -> CombiningAction

    /// Records that the source at `index` failed or was interrupted: `forwardTermination` ends the
    /// result with that event at once (E2, E4) and the machine then releases what it holds;
    /// `none` ignores it (a source whose end does not end the result, or a machine that has
    /// already finished, E1).
    mutating func receiveTermination(from index: Int) -> CombiningAction

    /// The element at `position` in the combination an `emit` action announced.
    func element(at position: Int) -> Element

    /// Called after the announced combination was built, so that the machine can let go of it.
    mutating func didEmit()
}

/// The stage shared by every combining operator (combineLatest, zip, sample, withLatest, and
/// those built on them), for signals and producers alike (O1).
///
/// Each source sends its events to `sink(for:)`. A `Mailbox` hands them to the state
/// machine one at a time, whatever threads the sources send on (E5, E7), and queues inputs that
/// arrive while one is being handled (E6), so neither the machine nor the downstream needs a
/// lock and no lock is held while the downstream runs (O7). After the first terminal event
/// nothing more is sent (E1) and the stage, with the downstream, is released once its mailbox has
/// closed.
@usableFromInline
final class CombiningStage<Machine: CombiningStateMachine, Output, Error: Swift.Error> {
    @usableFromInline typealias Input = (index: Int, event: Signal<Machine.Element, Error>.Event)

    // Touched only by the mailbox's handler, which runs one input at a time: the mailbox excludes
    // overlapping access, so the runtime's exclusivity checks (a large share of a combineLatest
    // send's time, see Docs/Performance.md) are turned off for them.
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    /// Set by the first terminal event: nothing is sent afterwards (E1), not even combinations of
    /// inputs already queued.
    @exclusivity(unchecked) @usableFromInline var hasFinished = false
    /// A `let`, so that calling it retains nothing; it is let go with the stage, when the mailbox
    /// closes after the first terminal event.
    @usableFromInline let downstream: EventSink<Output, Error>
    @usableFromInline let combine: (_ element: (Int) -> Machine.Element) -> Output
    // Set once in `init`. The mailbox's handler holds this stage strongly; closing the mailbox (on the
    // first terminal event, or when `lifetime` ends) releases the handler and so the stage.
    @usableFromInline var mailbox: Mailbox<Input>!

    /// A stage for `sourceCount` sources that sends each combination, built by `combine` from
    /// the elements the machine announces, to `downstream`, and stops when `lifetime` ends.
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
        mailbox = Mailbox { input in self.handle(input) }
        let mailbox = self.mailbox!
        lifetime.observeEnded { mailbox.close() }
    }

    /// The sink the source at `index` sends its events to.
    @inlinable
    func sink(for index: Int) -> EventSink<Machine.Element, Error> {
        let mailbox = self.mailbox!
        return { event in
            // Rebuilt case by case, not copied whole (see `Signal.Observer.sink`).
            switch event {
            case let .value(value): mailbox.send((index, .value(value)))
            case let .failed(error): mailbox.send((index, .failed(error)))
            case .completed: mailbox.send((index, .completed))
            case .interrupted: mailbox.send((index, .interrupted))
            }
        }
    }

    @inlinable
    func handle(_ input: Input) {
        switch input.event {
        case let .value(value):
            perform(machine.receiveValue(value, from: input.index))
        case .completed:
            perform(machine.receiveCompletion(from: input.index))
        case let .failed(error):
            if machine.receiveTermination(from: input.index) == .forwardTermination { finish(.failed(error)) }
        case .interrupted:
            if machine.receiveTermination(from: input.index) == .forwardTermination { finish(.interrupted) }
        }
    }

    /// Carries out what the machine asked for after a value or a completion.
    @inlinable
    func perform(_ action: CombiningAction) {
        switch action {
        case .none, .forwardTermination:
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
        mailbox.close()
        downstream(event)
    }
}

// MARK: - Sources: signals and producers alike

/// One input of a combining stage, whether a signal or a producer: attaches the input so that
/// it sends its events to a sink until it terminates or a lifetime ends.
@usableFromInline
struct CombiningSource<Value, Error: Swift.Error> {
    /// Observes a signal, or starts a producer, sending its events to `sink`; the input stops
    /// (is no longer observed, or its work is disposed of) when `lifetime` ends.
    @usableFromInline let attach: (_ sink: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void

    @inlinable
    init(_ attach: @escaping (_ sink: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void) {
        self.attach = attach
    }

    /// The same input with its values transformed by `transform`.
    @inlinable
    func map<T>(_ transform: @escaping (Value) -> T) -> CombiningSource<T, Error> {
        let attach = self.attach
        return CombiningSource<T, Error> { sink, lifetime in
            attach(Signal<Value, Error>.Event.forwardingValues(transform, to: sink), lifetime)
        }
    }

    /// The same input with its values as `Any`: lets inputs of different types share one stage.
    @inlinable
    var erased: CombiningSource<Any, Error> {
        map { $0 as Any }
    }
}

extension CombiningSource where Error == Never {
    /// The same input, which cannot fail, with its values transformed by `transform`, as an
    /// input of a stage whose other inputs may fail with `NewError`.
    @inlinable
    func map<T, NewError>(
        _ transform: @escaping (Value) -> T,
        promotingErrorTo _: NewError.Type
    ) -> CombiningSource<T, NewError> {
        let attach = self.attach
        return CombiningSource<T, NewError> { sink, lifetime in
            attach(
                { event in
                    switch event {
                    case let .value(value): sink(.value(transform(value)))
                    case .completed: sink(.completed)
                    case .interrupted: sink(.interrupted)
                    }
                }, lifetime)
        }
    }
}

/// A stream that can be an input of a combining stage, and be made from one: `Signal` and
/// `SignalProducer`, so that every combining operator is wired once for both (O1).
@usableFromInline
protocol CombiningStream<Value, Error> {
    associatedtype Value
    associatedtype Error: Swift.Error

    /// This stream as an input of a combining stage.
    var combiningSource: CombiningSource<Value, Error> { get }

    /// A stream whose instance runs `start`: a signal runs it once, at creation (S1); a producer
    /// on each start, fused with the operators after it (P1, P2).
    static func combined(
        _ start: @escaping (_ downstream: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void
    ) -> Self
}

extension Signal: CombiningStream {
    /// Observes this signal until it terminates or the lifetime ends.
    @inlinable
    var combiningSource: CombiningSource<Value, Error> {
        CombiningSource { sink, lifetime in lifetime += self.observe(sink) }
    }

    @inlinable
    static func combined(
        _ start: @escaping (_ downstream: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void
    ) -> Signal {
        Signal { output, lifetime in start(output.sink, lifetime) }
    }
}

extension SignalProducer: CombiningStream {
    /// Starts this producer in a lifetime of its own: an input that terminates before the others
    /// stops its work at once (P4), instead of when the whole result ends.
    @inlinable
    var combiningSource: CombiningSource<Value, Error> {
        let start = startInstance
        return CombiningSource { sink, lifetime in startInOwnLifetime(start, sink: sink, within: lifetime) }
    }

    @inlinable
    static func combined(
        _ start: @escaping (_ downstream: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void
    ) -> SignalProducer {
        .fused(start)
    }
}

// MARK: - The one combining entry

/// Runs one instance of a combining operator: attaches every one of `sources`, in order, to one
/// `CombiningStage` running a `Machine`, which sends the combinations `combine` builds to
/// `downstream`. With no source, sends `emptyValue` (if any) and completes (a signal's observers
/// then see `interrupted`, S3).
@inlinable
func combining<Machine: CombiningStateMachine, Output, Error: Swift.Error>(
    _: Machine.Type,
    _ sources: [CombiningSource<Machine.Element, Error>],
    emptyValue: Output? = nil,
    combine: @escaping (_ element: (Int) -> Machine.Element) -> Output
) -> (_ downstream: @escaping EventSink<Output, Error>, _ lifetime: Lifetime) -> Void {
    { downstream, lifetime in
        if sources.isEmpty {
            if let emptyValue { downstream(.value(emptyValue)) }
            downstream(.completed)
            return
        }
        let stage = CombiningStage<Machine, Output, Error>(
            sourceCount: sources.count, combine: combine, downstream: downstream, lifetime: lifetime
        )
        // An input that terminates the result while it is attached ends the lifetime; the inputs
        // after it are then not attached.
        for (index, source) in sources.enumerated() where !lifetime.hasEnded {
            source.attach(stage.sink(for: index), lifetime)
        }
    }
}

extension CombiningStream {
    /// A stream of arrays that combines `inputs` with a `Machine`: the one implementation behind
    /// the sequence forms of `combineLatest` and `zip`.
    ///
    /// The sequence is read by each instance, so every start of a producer sees its current
    /// inputs (P2). With no input, an instance sends `emptyValue` (if any) and completes.
    @usableFromInline
    static func combiningArray<Machine: CombiningStateMachine<Element>, Element, Inputs: Sequence>(
        _: Machine.Type,
        _ inputs: Inputs,
        emptyValue: [Element]? = nil
    ) -> Self where Value == [Element], Inputs.Element: CombiningStream<Element, Error> {
        combined { downstream, lifetime in
            let sources = inputs.map(\.combiningSource)
            let indices = sources.indices
            combining(Machine.self, sources, emptyValue: emptyValue) { element in indices.map(element) }(
                downstream, lifetime
            )
        }
    }

    /// A stream that combines two or more inputs of different types with a `Machine` and sends
    /// the combinations as tuples: the one implementation behind every tuple-valued
    /// `combineLatest` and `zip` above two inputs, whatever the arity, for signals and producers.
    @inlinable
    static func combiningTuple<Machine: CombiningStateMachine<Any>, A, B, each C>(
        _: Machine.Type,
        _ a: CombiningSource<A, Error>,
        _ b: CombiningSource<B, Error>,
        _ rest: repeat CombiningSource<each C, Error>
    ) -> Self where Value == (A, B, repeat each C) {
        var sources = [a.erased, b.erased]
        for source in repeat each rest {
            sources.append(source.erased)
        }
        return combined(combining(Machine.self, sources, combine: combinedTuple))
    }
}

extension Signal {
    /// A signal that combines two or more signals of different types with a `Machine` and sends
    /// the combinations as tuples (see `combiningTuple`).
    @inlinable
    static func combiningPack<Machine: CombiningStateMachine<Any>, A, B, each C>(
        _: Machine.Type,
        _ a: Signal<A, Error>,
        _ b: Signal<B, Error>,
        _ rest: repeat Signal<each C, Error>
    ) -> Signal where Value == (A, B, repeat each C) {
        combiningTuple(Machine.self, a.combiningSource, b.combiningSource, repeat (each rest).combiningSource)
    }
}

extension SignalProducer {
    /// A producer that combines two or more producers of different types with a `Machine` and
    /// sends the combinations as tuples (see `combiningTuple`). Starts the inputs in order.
    @inlinable
    static func combiningPack<Machine: CombiningStateMachine<Any>, A, B, each C>(
        _: Machine.Type,
        _ a: SignalProducer<A, Error>,
        _ b: SignalProducer<B, Error>,
        _ rest: repeat SignalProducer<each C, Error>
    ) -> SignalProducer where Value == (A, B, repeat each C) {
        combiningTuple(Machine.self, a.combiningSource, b.combiningSource, repeat (each rest).combiningSource)
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
