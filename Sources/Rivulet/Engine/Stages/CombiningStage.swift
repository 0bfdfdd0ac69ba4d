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

/// The order in which a combining stage ends its producer inputs, ReactiveSwift's for each
/// operator family (the order in which it adds their interrupters to the stream's lifetime).
@usableFromInline
enum CombiningEndOrder: Sendable {
    /// Last input first: the fixed-arity `combineLatest` and `zip` (`flattenStart` starts the
    /// inputs in order, nesting each start inside the next one's), `sample` (`liftLeft`) and
    /// `withLatest` (`liftRight`), whose inputs are attached in their start order.
    case reverse
    /// First input first, after the stage stops listening when the stream's lifetime ends: the
    /// sequence forms of `combineLatest` and `zip`, which observe the combination before starting
    /// each input in order.
    case attachmentAfterDetaching
}

/// The stage shared by every combining operator (combineLatest, zip, sample, withLatest, and
/// those built on them), for signals and producers alike (O1).
///
/// Each source sends its events to `sink(for:)`. A `Mailbox` hands them to the state
/// machine one at a time, whatever threads the sources send on (E5, E7), and queues inputs that
/// arrive while one is being handled (E6), so neither the machine nor the downstream needs a
/// lock and no lock is held while the downstream runs (O7). After the first terminal event
/// nothing more is sent (E1) and the stage, with the downstream, is released once its mailbox has
/// closed and its inputs have ended.
///
/// A producer input runs in a lifetime of its own, which ends as ReactiveSwift ends each input's
/// start:
/// - right after the input's own terminal event has been handled (a completed input of
///   `combineLatest` stops its work while the others go on);
/// - when the result ends, right after its terminal event has been delivered, in the order of
///   `endOrder`; an input whose event is being handled then (the one that ended the result) ends
///   last, once that event has been handled;
/// - when the stream's lifetime ends first, in the order of `endOrder`: each input is interrupted
///   and its interruption reaches the machine, so a result that ends on it stops the remaining
///   inputs at once, before the interrupted input's own lifetime ends.
@usableFromInline
final class CombiningStage<Machine: CombiningStateMachine, Output, Error: Swift.Error>: Disposable, @unchecked Sendable {
    // @unchecked Sendable: `machine`, `hasFinished`, `handledInput` and `endsHandledInput` are
    // touched only by the mailbox's turn owner (its handler, and code the handler calls);
    // `mailbox` and `registration` are written once, in `init`, before any input can send; the
    // ending flag is atomic; everything else is immutable and `Sendable` (the inputs' composites)
    // or called only from the turn (`downstream`, `combine`).
    @usableFromInline typealias Input = (index: Int, event: Signal<Machine.Element, Error>.Event)

    /// The memory of `isEndingStream`: the first stored property, never read or written directly
    /// after `init` (see AtomicWord.swift).
    @usableFromInline var endingStreamStorage = AtomicFlag.storage(false)
    /// Set when the stream's lifetime ends, before the inputs are ended.
    @inlinable var isEndingStream: AtomicFlag { AtomicFlag(firstStoredPropertyOf: self) }

    // Touched only by the mailbox's handler, which runs one input at a time: the mailbox excludes
    // overlapping access, so the runtime's exclusivity checks (a large share of a combineLatest
    // send's time, see Docs/Performance.md) are turned off for them.
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    /// Set by the first terminal event: nothing is sent afterwards (E1), not even combinations of
    /// inputs already queued.
    @exclusivity(unchecked) @usableFromInline var hasFinished = false
    /// The input whose event the handler is handling (-1: none).
    @exclusivity(unchecked) @usableFromInline var handledInput = -1
    /// The handled input was stopped meanwhile: it ends once its event has been handled.
    @exclusivity(unchecked) @usableFromInline var endsHandledInput = false
    /// A `let`, so that calling it retains nothing; it is let go with the stage, once the mailbox
    /// has closed after the first terminal event and the inputs have ended.
    @usableFromInline let downstream: EventSink<Output, Error>
    @usableFromInline let combine: (_ element: (Int) -> Machine.Element) -> Output
    /// The lifetime of each producer input, by index (`nil` for a signal, observed in the
    /// stream's lifetime).
    @usableFromInline let inputs: ContiguousArray<CompositeDisposable?>
    @usableFromInline let endOrder: CombiningEndOrder
    // Set once in `init` (so no exclusivity checks: nothing writes it afterwards). The mailbox's
    // handler holds this stage strongly; closing the mailbox (on the first terminal event, or when
    // the stream's lifetime ends) releases the handler.
    @exclusivity(unchecked) @usableFromInline var mailbox: Mailbox<Input>!
    /// This stage's place in the stream's lifetime, set once in `init` (unchecked, as `mailbox`):
    /// given up once the stage has ended its inputs itself, so that the lifetime does not keep it
    /// (and what its downstream and machine hold) until it ends.
    @exclusivity(unchecked) @usableFromInline var registration: Disposable?

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    /// A stage for `sources` that sends each combination, built by `combine` from the elements
    /// the machine announces, to `downstream`, and stops when `lifetime` ends.
    @inlinable
    init(
        sources: [CombiningSource<Machine.Element, Error>],
        endOrder: CombiningEndOrder,
        combine: @escaping (_ element: (Int) -> Machine.Element) -> Output,
        downstream: @escaping EventSink<Output, Error>,
        lifetime: Lifetime
    ) {
        machine = Machine(sourceCount: sources.count)
        self.downstream = downstream
        self.combine = combine
        self.endOrder = endOrder
        inputs = ContiguousArray(
            sources.lazy.map { $0.startsInstance ? CompositeDisposable(leadingWithInterruption: ()) : nil }
        )
        mailbox = Mailbox { input in self.handle(input) }
        if lifetime.hasEnded {
            // A start that was over before it began: no input starts, and nothing is sent.
            for resources in inputs { resources?.dispose() }
            mailbox.close()
            return
        }
        // Ends the inputs (and closes the mailbox) when the stream's lifetime ends; at once if it
        // has ended meanwhile, so that no input is started.
        registration = lifetime += self
    }

    /// Attaches `source` as the input at `index`: a producer is started in its own lifetime,
    /// unless the result ended while an earlier input started (ReactiveSwift does not start a
    /// producer whose interrupter was disposed of during `startWithSignal`); a signal is observed
    /// in `lifetime`, the stream's.
    @inlinable
    func attach(_ source: CombiningSource<Machine.Element, Error>, at index: Int, within lifetime: Lifetime) {
        if let resources = inputs[index] {
            guard !resources.isDisposed else { return }
            source.attach(inputSink(for: index), Lifetime(resources))
        } else if !lifetime.hasEnded {
            source.attach(sink(for: index), lifetime)
        }
    }

    /// The sink the signal at `index` sends its events to.
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

    /// The sink the producer input at `index` sends its events to: its terminal event ends its
    /// lifetime once the stage has handled it.
    @inlinable
    func inputSink(for index: Int) -> EventSink<Machine.Element, Error> {
        let mailbox = self.mailbox!
        let resources = inputs[index]!
        return { event in
            // Rebuilt case by case, not copied whole (see `Signal.Observer.sink`).
            switch event {
            case let .value(value):
                mailbox.send((index, .value(value)))
                return
            case let .failed(error): mailbox.send((index, .failed(error)))
            case .completed: mailbox.send((index, .completed))
            case .interrupted:
                // Sent when the input's start is disposed of, maybe on another thread while a
                // delivery holds the stage's turn: it never waits for that delivery, which may
                // itself be waiting for the disposal to finish.
                mailbox.send((index, .interrupted), policy: .queueForOwner)
            }
            // Handled by now, unless it was queued behind the event being handled; either way the
            // input's work is over. A plain disposal: the input needs no interruption.
            resources.dispose()
        }
    }

    // MARK: Ending inputs

    /// Ends the producer input at `index`: its start is interrupted (the interruption reaches the
    /// machine like any event) and its lifetime ends. If `deferringHandled` and the handler is
    /// handling this input's event, the input ends right after that event.
    @inlinable
    func end(_ index: Int, deferringHandled: Bool) {
        guard let resources = inputs[index] else { return }
        if deferringHandled, index == handledInput {
            endsHandledInput = true
            return
        }
        if resources.disposeAfterLeadingInterruption() {
            // Nothing in the input's chain could send the interruption (a signal's producer, a
            // sequence): send it on the input's behalf, as its start's interrupter would.
            mailbox.send((index, .interrupted), policy: .queueForOwner)
        }
    }

    /// Ends every producer input, in `endOrder`, or in attachment order if `inAttachmentOrder`.
    @inlinable
    func endInputs(deferringHandled: Bool, inAttachmentOrder: Bool = false) {
        if endOrder == .reverse, !inAttachmentOrder {
            for index in inputs.indices.reversed() { end(index, deferringHandled: deferringHandled) }
        } else {
            for index in inputs.indices { end(index, deferringHandled: deferringHandled) }
        }
    }

    // MARK: The stream's lifetime

    @inlinable
    var isDisposed: Bool { mailbox.isClosed }

    /// The stream's lifetime has ended: ends the inputs and stops handling their events (first
    /// for the sequence forms, which stop observing the combination before ending the inputs).
    @inlinable
    func dispose() {
        if endOrder == .attachmentAfterDetaching {
            // The result is interrupted first (ReactiveSwift's producer interrupts its output, then
            // stops observing the combination), and the inputs' interruptions go nowhere.
            mailbox.send((Self.resultInterruption, .interrupted), policy: .queueForOwner)
            mailbox.close()
        }
        isEndingStream.storeReleasing(true)
        endInputs(deferringHandled: mailbox.isTurnHeldByCurrentThread)
        mailbox.close()
    }

    // MARK: The handler

    /// The index of the input that interrupts the result itself, when the stream's lifetime ends.
    @inlinable
    static var resultInterruption: Int { -1 }

    @inlinable
    func handle(_ input: Input) {
        handledInput = input.index
        switch input.event {
        case let .value(value):
            perform(machine.receiveValue(value, from: input.index))
            handledInput = -1
            if endsHandledInput {
                endsHandledInput = false
                end(input.index, deferringHandled: false)
            }
            return
        case .completed:
            perform(machine.receiveCompletion(from: input.index))
        case let .failed(error):
            if machine.receiveTermination(from: input.index) == .forwardTermination { finish(.failed(error)) }
        case .interrupted:
            if input.index == Self.resultInterruption {
                finish(.interrupted)
            } else if machine.receiveTermination(from: input.index) == .forwardTermination {
                finish(.interrupted)
            }
        }
        handledInput = -1
        // An input that has terminated ends by itself once its sink returns.
        endsHandledInput = false
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

    /// Sends the terminal event, then ends the inputs: in `endOrder`, as the end of a ReactiveSwift
    /// start disposes of its interrupters; or, when an input's interruption ends the result while
    /// the stream's lifetime is ending, in attachment order, as a ReactiveSwift combination that
    /// terminates stops observing its inputs (each input start that nobody observes any more
    /// ends at once).
    @inlinable
    func finish(_ event: Signal<Output, Error>.Event) {
        guard !hasFinished else { return }
        hasFinished = true
        mailbox.close()
        downstream(event)
        endInputs(deferringHandled: true, inAttachmentOrder: isEndingStream.loadAcquiring())
        registration?.dispose()
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
    /// Whether `attach` starts a producer, which then runs in a lifetime of its own, rather than
    /// observing a signal.
    @usableFromInline let startsInstance: Bool

    @inlinable
    init(
        startsInstance: Bool,
        _ attach: @escaping (_ sink: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void
    ) {
        self.startsInstance = startsInstance
        self.attach = attach
    }

    /// The same input with its values transformed by `transform`.
    @inlinable
    func map<T>(_ transform: @escaping (Value) -> T) -> CombiningSource<T, Error> {
        let attach = self.attach
        return CombiningSource<T, Error>(startsInstance: startsInstance) { sink, lifetime in
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
        return CombiningSource<T, NewError>(startsInstance: startsInstance) { sink, lifetime in
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
        CombiningSource(startsInstance: false) { sink, lifetime in lifetime += self.observe(Signal.Observer(relaying: sink, ())) }
    }

    @inlinable
    static func combined(
        _ start: @escaping (_ downstream: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void
    ) -> Signal {
        Signal { output, lifetime in start(output.sink, lifetime) }
    }
}

extension SignalProducer: CombiningStream {
    /// Starts this producer; the stage gives it a lifetime of its own, so that an input that
    /// terminates before the others stops its work at once (P4), instead of when the whole result
    /// ends.
    @inlinable
    var combiningSource: CombiningSource<Value, Error> {
        CombiningSource(startsInstance: true, startInstance)
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
/// `downstream` and ends the producer inputs in `endOrder`. With no source, sends `emptyValue`
/// (if any) and completes (a signal's observers then see `interrupted`, S3).
@inlinable
func combining<Machine: CombiningStateMachine, Output, Error: Swift.Error>(
    _: Machine.Type,
    _ sources: [CombiningSource<Machine.Element, Error>],
    endOrder: CombiningEndOrder,
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
            sources: sources, endOrder: endOrder, combine: combine, downstream: downstream, lifetime: lifetime
        )
        // An input that terminates the result while it is attached ends the inputs; those after
        // it are then not attached.
        for index in sources.indices {
            stage.attach(sources[index], at: index, within: lifetime)
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
            combining(Machine.self, sources, endOrder: .attachmentAfterDetaching, emptyValue: emptyValue) {
                element in indices.map(element)
            }(downstream, lifetime)
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
        return combined(combining(Machine.self, sources, endOrder: .reverse, combine: combinedTuple))
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
