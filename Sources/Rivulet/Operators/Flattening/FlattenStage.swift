/// An input of a flattening: an event of the outer stream, or of inner stream `id`.
@usableFromInline
enum FlattenInput<Outer, Value, Error: Swift.Error> {
    case outer(Signal<Outer, Error>.Event)
    case inner(FlattenInnerID, Signal<Value, Error>.Event)
    /// The producer start's lifetime ended before the flattened stream's end: it is interrupted
    /// at once, as ReactiveSwift's flattened producer is (issue 16).
    case startEnded
}

/// Runs one flattening: the outer stream and every inner stream send into one `Mailbox`, so
/// the state machine sees one input at a time whatever threads send (E5), and no lock is held
/// while user closures run or events go downstream (O7). Inner streams are started after the
/// mailbox's turn, by the thread that decided to start them (`FlattenStartTrampoline`).
///
/// Each inner stream runs with its own lifetime, ended when the inner stream ends, is replaced or
/// loses a race, or when the flattened stream ends (P4).
@usableFromInline
final class FlattenRun<Outer, Value, Error: Swift.Error> {
    @usableFromInline typealias Input = FlattenInput<Outer, Value, Error>
    @usableFromInline typealias Inner = SignalProducer<Value, Error>
    @usableFromInline typealias Machine = FlattenStateMachine<Inner>

    // `machine` and `running` are touched only by the mailbox's handler, one input at a time: the
    // mailbox excludes overlapping access, so the runtime's exclusivity checks are turned off.
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    /// The lifetimes of the running inner streams, and their handles in the flattened lifetime.
    @exclusivity(unchecked) @usableFromInline var running = FlattenInnerMap<
        (disposables: CompositeDisposable, handle: Disposable?)
    >()
    @usableFromInline let downstream: EventSink<Value, Error>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let makeInner: (Outer) -> Inner
    @usableFromInline var mailbox: Mailbox<Input>?
    @usableFromInline let startTrampoline: FlattenStartTrampoline

    @inlinable
    init(
        _ strategy: FlattenStrategy,
        _ downstream: @escaping EventSink<Value, Error>,
        _ lifetime: Lifetime,
        _ makeInner: @escaping (Outer) -> Inner
    ) {
        machine = FlattenStateMachine(strategy.kind)
        startTrampoline = FlattenStartTrampoline()
        self.downstream = downstream
        self.lifetime = lifetime
        self.makeInner = makeInner
    }

    /// Starts a flattening that sends into `downstream`, and returns the sink for the outer stream.
    ///
    /// The mailbox holds the run (and so the user's closure) until the flattened stream ends or
    /// `lifetime` ends; then it is closed and lets everything go.
    @inlinable
    static func start(
        _ strategy: FlattenStrategy,
        downstream: @escaping EventSink<Value, Error>,
        lifetime: Lifetime,
        makeInner: @escaping (Outer) -> Inner
    ) -> EventSink<Outer, Error> {
        let run = FlattenRun(strategy, downstream, lifetime, makeInner)
        let mailbox = Mailbox<Input> { input in run.handle(input) }
        run.mailbox = mailbox
        if lifetime.isProducerStart {
            // Even if a stage above holds the start's interruption to deliver it on a scheduler.
            lifetime.observeEnded {
                mailbox.send(.startEnded, policy: .queueForOwner)
                mailbox.close()
            }
        } else {
            lifetime.observeEnded { mailbox.close() }
        }
        let startTrampoline = run.startTrampoline
        return { event in
            mailbox.send(.outer(event))
            startTrampoline.runAll()
        }
    }

    @inlinable func handle(_ input: Input) {
        switch input {
        case .outer where !machine.acceptsOuter:
            // After the flattened stream's end, or after the outer stream's own terminal event (E1).
            return
        case let .outer(.value(outer)):
            perform(machine.outerValue(makeInner(outer)))
        case .outer(.completed):
            perform(machine.outerCompleted())
        case let .outer(.failed(error)):
            if machine.terminate() { finish(.failed(error)) }
        case .outer(.interrupted), .startEnded:
            if machine.terminate() { finish(.interrupted) }
        case let .inner(id, .value(value)):
            let actions = machine.innerValue(id)
            perform(actions, value: value)
        case let .inner(id, .failed(error)):
            release(id)
            if machine.innerFailed(id) { finish(.failed(error)) }
        case let .inner(id, .completed):
            release(id)
            perform(machine.innerCompleted(id))
        case let .inner(id, .interrupted):
            release(id)
            perform(machine.innerInterrupted(id))
        }
    }

    /// Carries out what the state machine decided, once it has returned (the machine holds no
    /// closure and calls none: every start, disposal and send happens here).
    @inlinable func perform(_ actions: Machine.Actions, value: Value? = nil) {
        actions.cancel.forEach { release($0) }
        if actions.forwardValue, let value { downstream(.value(value)) }
        if let (id, inner) = actions.start { start(inner, id: id) }
        if actions.complete { finish(.completed) }
        if actions.interrupt { finish(.interrupted) }
    }

    /// Gives inner stream `id` its lifetime now, and has it started once this thread has left
    /// the mailbox (see `FlattenStartTrampoline`).
    @inlinable func start(_ inner: Inner, id: FlattenInnerID) {
        guard let mailbox else { return }
        // A lifetime over a plain composite, itself a member of the flattened lifetime: three
        // allocations, where a `Lifetime.make()` token wrapped in an `AnyDisposable` took six.
        let innerDisposables = CompositeDisposable()
        let innerLifetime = Lifetime(innerDisposables)
        let handle = lifetime += innerDisposables
        running.append(id, (innerDisposables, handle))
        let startTrampoline = self.startTrampoline
        startTrampoline.add {
            // The flattened stream may have ended, or replaced this inner stream, meanwhile.
            guard !innerLifetime.hasEnded else { return }
            inner.startInstance(
                { event in
                    mailbox.send(.inner(id, event))
                    startTrampoline.runAll()
                }, innerLifetime)
        }
    }

    /// Ends inner stream `id`'s lifetime, disposing of its work, and forgets it.
    @inlinable func release(_ id: FlattenInnerID) {
        guard let entry = running.remove(id) else { return }
        entry.handle?.dispose()
        entry.disposables.dispose()
    }

    @inlinable func finish(_ event: Signal<Value, Error>.Event) {
        downstream(event)
        // Sending a terminal event ends `lifetime`, which disposes of every inner stream. Close
        // the mailbox in any case, so that the run and the user's closures are let go.
        mailbox?.close()
    }
}

/// The flattening stage behind every `flatten` and `flatMap` overload.
@inlinable
func flattenStage<Outer, OuterError, Value, Error>(
    _ strategy: FlattenStrategy,
    promotingOuter promote: @escaping (OuterError) -> Error,
    _ makeInner: @escaping (Outer) -> SignalProducer<Value, Error>
) -> EventTransform<Outer, OuterError, Value, Error> {
    { downstream, lifetime in
        let sink = FlattenRun.start(strategy, downstream: downstream, lifetime: lifetime, makeInner: makeInner)
        return { event in sink(event.mapError(promote)) }
    }
}

/// The flattening stage for an outer stream whose error type is the flattened one.
@inlinable
func flattenStage<Outer, Value, Error>(
    _ strategy: FlattenStrategy,
    _ makeInner: @escaping (Outer) -> SignalProducer<Value, Error>
) -> EventTransform<Outer, Error, Value, Error> {
    { downstream, lifetime in
        FlattenRun.start(strategy, downstream: downstream, lifetime: lifetime, makeInner: makeInner)
    }
}

/// Turns an impossible failure into any error type.
@inlinable
func flattenNever<E>(_ never: Never) -> E {}

extension SignalProducer where Error == Never {
    /// This producer, typed as able to fail with `F` (it never does).
    @inlinable
    func flattenPromoted<F>(_: F.Type = F.self) -> SignalProducer<Value, F> {
        .fused({ downstream, lifetime in
            self.startInstance({ event in downstream(event.mapError(flattenNever)) }, lifetime)
        })
    }
}
