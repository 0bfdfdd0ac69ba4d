/// What a gate state machine asks for after handling one input.
@usableFromInline
struct GateAction<Value, Error: Swift.Error> {
    /// The event to send downstream, if any.
    @usableFromInline var event: Signal<Value, Error>.Event?
    /// Whether the primary source must be stopped (before `event` is sent).
    @usableFromInline var stopsPrimary: Bool

    @inlinable
    init(event: Signal<Value, Error>.Event?, stopsPrimary: Bool = false) {
        self.event = event
        self.stopsPrimary = stopsPrimary
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
}

/// The plumbing shared by the multi-source gating operators: a mailbox in front of a state
/// machine, and the lifetimes its sources run in.
///
/// Sources send their events into `send`; the mailbox serializes them (E5), queues re-entrant ones
/// (E6) and runs the machine on the sending thread with no lock held (E7, O7). When the machine
/// sends a terminal event, or the stream's lifetime ends, `sources` ends: every source observed or
/// started in it stops, and the mailbox is closed, which releases the machine and its closures.
@usableFromInline
struct GateRunner<Input>: Sendable {
    @usableFromInline let mailbox: Mailbox<Input>
    /// Ends when the gate has terminated or the stream's lifetime has ended.
    @usableFromInline let sources: Lifetime
    /// Ends with `sources`, or earlier when the machine stops the primary source.
    @usableFromInline let primary: Lifetime

    /// Starts a gate running `machine` in front of `downstream`, for a stream living in `lifetime`.
    ///
    /// - Parameters:
    ///   - separatePrimary: Whether the primary source gets its own lifetime, which the
    ///     machine can end early (`stopsPrimary`); otherwise it runs in `sources`.
    @usableFromInline
    init<Machine: GateStateMachine>(
        _ machine: Machine,
        downstream: @escaping EventSink<Machine.Value, Machine.Error>,
        lifetime: Lifetime,
        separatePrimary: Bool = false
    ) where Machine.Input == Input {
        let sourceResources = CompositeDisposable()
        let primaryResources = separatePrimary ? CompositeDisposable() : sourceResources
        var machine = machine
        let mailbox = Mailbox<Input> { input in
            let output = machine.receive(input)
            if output.stopsPrimary { primaryResources.dispose() }
            guard let event = output.event else { return }
            downstream(event)
            if event.isTerminating { sourceResources.dispose() }
        }
        if separatePrimary { sourceResources += primaryResources }
        // Closing releases the machine; inputs already queued are still handed to it (and ignored).
        sourceResources += { mailbox.close() }
        lifetime += sourceResources
        self.mailbox = mailbox
        self.sources = Lifetime(sourceResources)
        self.primary = Lifetime(primaryResources)
    }

    /// Hands `input` to the machine, after every input sent before it.
    @inlinable
    func send(_ input: Input) {
        mailbox.send(input)
    }
}

/// Starts one source of a multi-source operator in a lifetime of its own, which ends when the
/// source terminates or when `lifetime` ends.
///
/// A source that terminates before the others (a completed input of `combineLatest`, a sampler
/// cut short by `take(first:)`) then stops its work at once (P4), as its own start would, instead
/// of keeping it until the whole operator ends.
@inlinable
func startInOwnLifetime<Value, Error: Swift.Error>(
    _ start: (_ sink: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void,
    sink: @escaping EventSink<Value, Error>,
    within lifetime: Lifetime
) {
    let resources = CompositeDisposable()
    let attachment = lifetime += resources
    start(
        { event in
            sink(event)
            if event.isTerminating {
                resources.dispose()
                attachment?.dispose()
            }
        }, Lifetime(resources))
}
