/// Which operand of a gate a `GateAction` stops.
@usableFromInline
enum GateOperand: Int, Sendable {
    /// The stream being gated (`self` of `take(until:)`).
    case source = 0
    /// The trigger or the replacement.
    case other = 1
}

/// What a gate state machine asks for after handling one input.
@usableFromInline
struct GateAction<Value, Error: Swift.Error> {
    /// The event to send downstream, if any.
    @usableFromInline var event: Signal<Value, Error>.Event?
    /// The operand to stop (before `event` is sent), if any: its observation or start ends
    /// while the gate goes on.
    @usableFromInline var stops: GateOperand?
    /// Whether a terminal `event` ends the operands at once (the source, then the other). When
    /// not, they end with the stream's lifetime, which a terminal event ends in a producer's
    /// start: for an event that ReactiveSwift's operator would not have observed, so that the
    /// operands end as they do there.
    @usableFromInline var endsOperands: Bool

    @inlinable
    init(event: Signal<Value, Error>.Event?, stops: GateOperand? = nil, endsOperands: Bool = true) {
        self.event = event
        self.stops = stops
        self.endsOperands = endsOperands
    }

    /// Nothing to do.
    @inlinable
    static var none: GateAction { GateAction(event: nil) }

    /// Send `event` downstream.
    @inlinable
    static func send(_ event: Signal<Value, Error>.Event) -> GateAction { GateAction(event: event) }
}

/// The pure state machine behind a multi-source gating operator (`take(until:)`, `skip(until:)`,
/// `take(during:)`, `take(untilReplacement:)`).
///
/// It sees one input at a time (the gate serializes its sources) and answers with what to do. It
/// must answer `.none` to everything once it has asked for a terminal event (E1).
@usableFromInline
protocol GateStateMachine {
    associatedtype Input
    associatedtype Value
    associatedtype Error: Swift.Error

    mutating func receive(_ input: Input) -> GateAction<Value, Error>

    /// The input that says the operand at `operand` was interrupted: what a stopped producer
    /// operand sends when nothing in its own chain can send it (a signal's producer, a sequence).
    static func interruption(of operand: GateOperand) -> Input
}

/// The plumbing shared by the multi-source gating operators: a mailbox in front of a state
/// machine, and the operands it gates, each observed or started in a lifetime of its own.
///
/// Operands send their events into `receive`; the mailbox serializes them (E5), queues
/// re-entrant ones (E6) and runs the machine on the sending thread with no lock held (E7, O7).
///
/// Operands end as ReactiveSwift's lifted binary operators end them (`liftRight`: the source's
/// interrupter is added to the stream's lifetime first, the other operand's second):
/// - when the gate sends a terminal event, right after it has been delivered downstream, the
///   source, then the other operand;
/// - when the stream's lifetime ends first (its start is disposed of), the source is interrupted
///   first: the interruption reaches the machine like any event, and a gate that ends on it
///   stops the other operand at once, before the source's own lifetime ends;
/// - an operand that sends a terminal event ends right after the gate has handled it, and an
///   operand stopped while the gate is handling one of its events ends right after that event,
///   as a ReactiveSwift signal finishes delivering an event before it is interrupted.
@usableFromInline
final class GateRunner<Machine: GateStateMachine>: Disposable, @unchecked Sendable {
    // @unchecked Sendable: `machine`, `handledOperand` and `endsHandledOperand` are touched only by
    // the mailbox's turn owner (its handler, and code the handler calls); `mailbox` and
    // `registration` are written once, in `init`, before any operand can send; everything else is
    // immutable and `Sendable` (the composites) or called only from the turn (the downstream sink).
    @usableFromInline typealias Input = (operand: Int, isTerminating: Bool, input: Machine.Input)

    @exclusivity(unchecked) @usableFromInline var machine: Machine
    /// The operand whose input the handler is handling (-1: none, or an input that is no operand's).
    @exclusivity(unchecked) @usableFromInline var handledOperand = -1
    /// The handled operand was stopped meanwhile: it ends once its input has been handled.
    @exclusivity(unchecked) @usableFromInline var endsHandledOperand = false
    @usableFromInline let downstream: EventSink<Machine.Value, Machine.Error>
    /// The source's lifetime.
    @usableFromInline let source: CompositeDisposable
    /// The other operand's lifetime, if the gate has one.
    @usableFromInline let other: CompositeDisposable?
    /// Whether the operands are producer starts (interrupted when stopped) rather than signals
    /// (no longer observed when stopped).
    @usableFromInline let startsOperands: Bool
    // Set once in `init` (so no exclusivity checks: nothing writes it afterwards, and every input
    // reads it). The handler holds this gate strongly; closing the mailbox (on the terminal event,
    // or when the stream's lifetime ends) releases it.
    @exclusivity(unchecked) @usableFromInline var mailbox: Mailbox<Input>!
    /// This gate's place in the stream's lifetime, set once in `init` (unchecked, as `mailbox`):
    /// given up once the gate has ended its operands itself, so that the lifetime does not keep it
    /// (and what its downstream and machine hold) until it ends.
    @exclusivity(unchecked) @usableFromInline var registration: Disposable?

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    /// A gate running `machine` in front of `downstream`, for a stream living in `lifetime`.
    ///
    /// - Parameters:
    ///   - hasOther: Whether there is an operand besides the source (a trigger, a replacement).
    ///   - startsOperands: Whether the operands are producers started by the gate.
    @inlinable
    init(
        _ machine: Machine,
        downstream: @escaping EventSink<Machine.Value, Machine.Error>,
        lifetime: Lifetime,
        hasOther: Bool = true,
        startsOperands: Bool
    ) {
        self.machine = machine
        self.downstream = downstream
        self.startsOperands = startsOperands
        source = startsOperands ? CompositeDisposable(leadingWithInterruption: ()) : CompositeDisposable()
        other = hasOther ? (startsOperands ? CompositeDisposable(leadingWithInterruption: ()) : CompositeDisposable()) : nil
        mailbox = Mailbox { input in self.handle(input) }
        if lifetime.hasEnded {
            // A start that was over before it began: no operand starts, and nothing is sent.
            source.dispose()
            other?.dispose()
            mailbox.close()
            return
        }
        // Ends the operands (and closes the mailbox) when the stream's lifetime ends; at once if
        // it has ended meanwhile, so that no operand is started.
        registration = lifetime += self
    }

    // MARK: Operands

    /// The lifetime of `operand` (`nil` for an input that is no operand's).
    @inlinable
    func resources(of operand: Int) -> CompositeDisposable? {
        switch operand {
        case GateOperand.source.rawValue: source
        case GateOperand.other.rawValue: other
        default: nil
        }
    }

    /// Whether `operand` has ended (or the whole gate has).
    @inlinable
    func hasEnded(_ operand: GateOperand) -> Bool {
        resources(of: operand.rawValue)?.isDisposed ?? true
    }

    /// Starts `operand` (a producer's `startInstance`) in its lifetime, sending its events to
    /// `sink`, unless that lifetime has already ended: the gate ended while an operand started
    /// before it, so this one is never started (ReactiveSwift does not start a producer whose
    /// interrupter was disposed of during `startWithSignal`).
    @inlinable
    func start<Value, Error>(
        _ operand: GateOperand,
        _ start: (_ sink: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void,
        sink: @escaping EventSink<Value, Error>
    ) {
        guard let resources = resources(of: operand.rawValue), !resources.isDisposed else { return }
        start(sink, Lifetime(resources))
    }

    /// Starts `operand` in its lifetime even if that has ended: the start then ends at once.
    @inlinable
    func startEvenIfStopped<Value, Error>(
        _ operand: GateOperand,
        _ start: (_ sink: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void,
        sink: @escaping EventSink<Value, Error>
    ) {
        guard let resources = resources(of: operand.rawValue) else { return }
        start(sink, Lifetime(resources))
    }

    /// Observes `signal` as `operand`, until the operand or the gate ends.
    @inlinable
    func observe<Value, Error>(_ signal: Signal<Value, Error>, as operand: GateOperand, sink: @escaping EventSink<Value, Error>) {
        resources(of: operand.rawValue)?.add(signal.observe(Signal.Observer(relaying: sink, ())))
    }

    /// Hands `input`, sent by `operand` (-1 for an input that is no operand's) or by a signal
    /// operand, to the machine after every input sent before it.
    @inlinable
    func receive(_ input: Machine.Input, from operand: Int) {
        mailbox.send((operand, false, input))
    }

    /// Hands `input`, made of `event` that the producer operand `operand` sent, to the machine
    /// after every input sent before it. A terminal event ends the operand once it has been
    /// handled (unless it was queued behind the input being handled; either way the operand's
    /// work is over, and it needs no interruption).
    @inlinable
    func receive<Value, Error>(_ input: Machine.Input, fromStart operand: GateOperand, for event: Signal<Value, Error>.Event) {
        switch event {
        case .value:
            mailbox.send((operand.rawValue, false, input))
            return
        case .failed, .completed:
            mailbox.send((operand.rawValue, true, input))
        case .interrupted:
            // Sent when the operand's start is disposed of, maybe on another thread while a
            // delivery holds the gate's turn: it never waits for that delivery, which may itself be
            // waiting for the disposal to finish.
            mailbox.send((operand.rawValue, true, input), policy: .queueForOwner)
        }
        resources(of: operand.rawValue)?.dispose()
    }

    /// Ends `operand`: a producer start is interrupted (the interruption reaches the machine like
    /// any event) and its lifetime ends; a signal is no longer observed. If `deferringHandled` and
    /// the handler is handling this operand's input, the operand ends right after that input.
    @inlinable
    func end(_ operand: Int, deferringHandled: Bool) {
        guard let resources = resources(of: operand) else { return }
        if deferringHandled, operand == handledOperand {
            endsHandledOperand = true
            return
        }
        if resources.disposeAfterLeadingInterruption(), startsOperands {
            // Nothing in the operand's chain could send the interruption (a signal's producer, a
            // sequence): send it on the operand's behalf, as its start's interrupter would.
            mailbox.send((operand, true, Machine.interruption(of: GateOperand(rawValue: operand)!)), policy: .queueForOwner)
        }
    }

    /// Ends every operand in ReactiveSwift's order: the source, then the other.
    @inlinable
    func endOperands(deferringHandled: Bool) {
        end(GateOperand.source.rawValue, deferringHandled: deferringHandled)
        end(GateOperand.other.rawValue, deferringHandled: deferringHandled)
    }

    // MARK: The stream's lifetime

    @inlinable
    var isDisposed: Bool { mailbox.isClosed }

    /// The stream's lifetime has ended: ends the operands, then stops handling inputs.
    @inlinable
    func dispose() {
        endOperands(deferringHandled: mailbox.isTurnHeldByCurrentThread)
        // Closing releases the machine; inputs already queued are still handed to it (and ignored).
        mailbox.close()
    }

    // MARK: The handler

    @inlinable
    func handle(_ input: Input) {
        handledOperand = input.operand
        let action = machine.receive(input.input)
        if let stopped = action.stops { end(stopped.rawValue, deferringHandled: true) }
        if let event = action.event {
            downstream(event)
            if event.isTerminating, action.endsOperands {
                endOperands(deferringHandled: true)
                mailbox.close()
                registration?.dispose()
            }
        }
        handledOperand = -1
        if endsHandledOperand {
            endsHandledOperand = false
            // An operand that has terminated ends by itself once its sink returns.
            if !input.isTerminating { end(input.operand, deferringHandled: false) }
        }
    }
}

extension Mailbox {
    /// Whether the calling thread holds this mailbox's turn: it is running the handler, or code the
    /// handler called. One atomic load; only the turn's owner can find its own identity there.
    @inlinable
    var isTurnHeldByCurrentThread: Bool {
        isTurnHeld(by: .current)
    }
}

extension Mailbox {
    /// Whether the mailbox has been closed (it handles no new input).
    @inlinable
    var isClosed: Bool {
        storage.withLock { $0.closing != nil }
    }
}
