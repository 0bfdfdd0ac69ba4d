/// An input of a flattening: an event of the outer stream, or of inner stream `id`.
@usableFromInline
enum FlattenInput<Outer, Value, Error: Swift.Error> {
    case outer(Signal<Outer, Error>.Event)
    case inner(FlattenInnerID, Signal<Value, Error>.Event)
    /// The producer start was disposed of (this is its interruption entry): the flattened stream
    /// is interrupted at once, before any start it runs ends, as ReactiveSwift's flattened
    /// producer is.
    case startEnded
}

/// Runs one flattening: the outer stream and every inner stream send into one `Mailbox`, so
/// the state machine sees one input at a time whatever threads send (E5), and no lock is held
/// while user closures run or events go downstream (O7). Inner streams are started after the
/// mailbox's turn, by the thread that decided to start them (`FlattenStartTrampoline`).
///
/// On a producer, the outer producer and each inner producer run as starts of their own, each with
/// its own lifetime, as in ReactiveSwift (P4). A start's lifetime ends once the flattening has
/// fully handled that start's terminal event (forwarded it, or started the next inner stream),
/// or when the flattening replaces it or drops it from a race, or when the flattened stream ends
/// (`FlattenResources`).
@usableFromInline
final class FlattenRun<Outer, Value, Error: Swift.Error> {
    @usableFromInline typealias Input = FlattenInput<Outer, Value, Error>
    @usableFromInline typealias Inner = SignalProducer<Value, Error>
    @usableFromInline typealias Machine = FlattenStateMachine<Inner>

    // `machine` is touched only by the mailbox's handler, one input at a time: the mailbox
    // excludes overlapping access, so the runtime's exclusivity checks are turned off.
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    @usableFromInline let downstream: EventSink<Value, Error>
    @usableFromInline let makeInner: (Outer) -> Inner
    // Both set once, in `make`, before any input can arrive, and only read afterwards: no access
    // can overlap a write, so the runtime's exclusivity checks (two calls per access) are off.
    @exclusivity(unchecked) @usableFromInline var mailbox: Mailbox<Input>?
    @exclusivity(unchecked) @usableFromInline var resources: FlattenResources<Input>?
    @usableFromInline let startTrampoline: FlattenStartTrampoline

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    @inlinable
    init(
        _ strategy: FlattenStrategy,
        _ downstream: @escaping EventSink<Value, Error>,
        _ makeInner: @escaping (Outer) -> Inner
    ) {
        machine = FlattenStateMachine(strategy.kind)
        startTrampoline = FlattenStartTrampoline()
        self.downstream = downstream
        self.makeInner = makeInner
    }

    /// Sets up a flattening that sends into `downstream` within `lifetime`.
    ///
    /// The mailbox holds the run (and so the user's closure) until the flattened stream ends or
    /// `lifetime` ends; then it is closed and lets everything go. If `lifetime` is a producer
    /// start's, the flattening is where its disposal interrupts the chain: the flattened stream is
    /// interrupted first, then the outer and inner starts end, as when ReactiveSwift interrupts
    /// a flattened producer's signal.
    @inlinable
    static func make(
        _ strategy: FlattenStrategy,
        downstream: @escaping EventSink<Value, Error>,
        lifetime: Lifetime,
        makeInner: @escaping (Outer) -> Inner
    ) -> FlattenRun {
        make(strategy, downstreamSharingTurnOf: { _ in downstream }, lifetime: lifetime, makeInner: makeInner)
    }

    /// `make(_:downstream:lifetime:makeInner:)` for a downstream made from the mailbox: a signal
    /// that shares its turn (the handler is its only sender).
    @inlinable
    static func make(
        _ strategy: FlattenStrategy,
        downstreamSharingTurnOf makeDownstream: (Mailbox<Input>) -> EventSink<Value, Error>,
        lifetime: Lifetime,
        makeInner: @escaping (Outer) -> Inner
    ) -> FlattenRun {
        let mailbox = Mailbox<Input>()
        let run = FlattenRun(strategy, makeDownstream(mailbox), makeInner)
        mailbox.install { input in run.handle(input) }
        let outerEndsFirst = if case .concurrent = strategy.kind { true } else { false }
        let resources = FlattenResources(mailbox, outerEndsFirst: outerEndsFirst)
        run.mailbox = mailbox
        run.resources = resources
        _ = lifetime.setInterruptionEntry {
            // Handled by the thread delivering on the flattening if there is one, never waiting.
            mailbox.send(.startEnded, policy: .queueForOwner)
            return true
        }
        lifetime += resources
        return run
    }

    /// The sink of an outer stream that is a signal, observed within the flattened lifetime.
    @inlinable
    var outerSink: EventSink<Outer, Error> {
        let mailbox = self.mailbox!
        let startTrampoline = self.startTrampoline
        return { event in
            mailbox.send(.outer(event))
            startTrampoline.runAll()
        }
    }

    /// Starts `outer` as a start of its own, whose lifetime ends once its terminal event has been
    /// handled, or when the flattened stream ends.
    @inlinable
    func startOuter<OuterError>(
        _ outer: SignalProducer<Outer, OuterError>,
        promote: @escaping (OuterError) -> Error
    ) {
        let mailbox = self.mailbox!
        let resources = self.resources!
        let startTrampoline = self.startTrampoline
        let outerResources = CompositeDisposable(leadingWithInterruption: ())
        guard resources.attachOuter(outerResources) else { return }
        outer.startInstance(
            { event in
                let isTerminating = event.isTerminating
                // Ending the flattened stream now must not end this start before it has finished
                // delivering its own terminal event.
                if isTerminating { resources.detachOuter() }
                mailbox.send(.outer(event.mapError(promote)))
                startTrampoline.runAll()
                if isTerminating { outerResources.dispose() }
            }, Lifetime(outerResources))
    }

    @inlinable func handle(_ input: Input) {
        switch input {
        case .outer where !machine.acceptsOuter:
            // After the flattened stream's end, or after the outer stream's own terminal event (E1).
            return
        case let .outer(.value(outer)):
            let inner = makeInner(outer)
            perform(machine.outerValue(inner), outerValuesInner: inner)
        case .outer(.completed):
            perform(machine.outerCompleted())
        case let .outer(.failed(error)):
            if machine.terminate() { finish(.failed(error)) }
        case .outer(.interrupted), .startEnded:
            if machine.terminate() { finish(.interrupted) }
        case let .inner(id, .value(value)):
            if machine.forwardsValueAtOnce(from: id) {
                downstream(.value(value))
            } else {
                perform(machine.innerValue(id), value: value)
            }
        // An inner stream's own end: its start has already left `resources` and ends once this
        // input has been handled (see `start`).
        case let .inner(id, .failed(error)):
            if machine.innerFailed(id) { finish(.failed(error)) }
        case let .inner(id, .completed):
            perform(machine.innerCompleted(id))
        case let .inner(id, .interrupted):
            perform(machine.innerInterrupted(id))
        }
    }

    /// Carries out what the state machine decided, once it has returned (the machine holds no
    /// closure and calls none: every start, disposal and send happens here). An inner stream to
    /// start is the outer value's (`outerValuesInner`) or one that waited in the machine.
    @inlinable func perform(_ actions: FlattenActions, value: Value? = nil, outerValuesInner: Inner? = nil) {
        if actions.cancels { machine.takeCancelled().forEach { release($0) } }
        if actions.forwardValue, let value { downstream(.value(value)) }
        if let id = actions.start,
            let inner = actions.startsWaitingInner ? machine.takeStartingInner() : outerValuesInner
        {
            start(inner, id: id)
        }
        if actions.complete { finish(.completed) }
        if actions.interrupt { finish(.interrupted) }
    }

    /// Gives inner stream `id` its lifetime now, and has it started once this thread has left
    /// the mailbox (see `FlattenStartTrampoline`).
    @inlinable func start(_ inner: Inner, id: FlattenInnerID) {
        guard let mailbox, let resources else { return }
        // One object is the start's resources, the start the trampoline keeps and the context
        // of the inner producer's sink.
        let innerStart = FlattenInnerStart(
            inner, id: id, mailbox: mailbox, resources: resources, startTrampoline: startTrampoline,
            startsInner: { $0.startInner() })
        guard resources.attach(id, innerStart) else { return }
        startTrampoline.add(innerStart)
    }

    /// Ends inner stream `id`'s start, disposing of its work.
    @inlinable func release(_ id: FlattenInnerID) {
        resources?.detach(id)?.dispose()
    }

    @inlinable func finish(_ event: Signal<Value, Error>.Event) {
        downstream(event)
        // Then the starts still running end, and the mailbox closes, letting go of the run and the
        // user's closures. Usually the terminal event has already ended the lifetime holding
        // `resources`, which did the same.
        resources?.dispose()
    }
}

/// One inner stream of a flattening, from the decision to start it to the end of its start: one
/// object is the start's resources (the composite its lifetime ends), the start the trampoline
/// keeps, and the context of the sink the inner producer sends into (a closure that captures one
/// object and nothing else has it as its context). One allocation where there were two.
@usableFromInline
final class FlattenInnerStart<Outer, Value, Error: Swift.Error>: FlattenInnerResources, FlattenDeferredStart,
    @unchecked Sendable
{
    // @unchecked Sendable: restated from `CompositeDisposable`, which protects its own state; the
    // stored properties here are immutable, and the inner producer is started once, by the thread
    // that decided it (`FlattenStartTrampoline`).
    @usableFromInline typealias Input = FlattenInput<Outer, Value, Error>

    @usableFromInline let inner: SignalProducer<Value, Error>
    @usableFromInline let mailbox: Mailbox<Input>
    @usableFromInline let resources: FlattenResources<Input>
    @usableFromInline let startTrampoline: FlattenStartTrampoline
    /// `startInner`, as the specialised code that made this object compiled it: `run` is reached
    /// through the trampoline's existential, where only unspecialised generic code could run,
    /// looking up type metadata for every event of the inner stream. A closure that captures
    /// nothing allocates nothing.
    @usableFromInline let startsInner: (FlattenInnerStart) -> Void

    @inlinable
    init(
        _ inner: SignalProducer<Value, Error>, id: FlattenInnerID, mailbox: Mailbox<Input>,
        resources: FlattenResources<Input>, startTrampoline: FlattenStartTrampoline,
        startsInner: @escaping (FlattenInnerStart) -> Void
    ) {
        self.inner = inner
        self.mailbox = mailbox
        self.resources = resources
        self.startTrampoline = startTrampoline
        self.startsInner = startsInner
        super.init(id)
    }

    @usableFromInline
    func run() {
        startsInner(self)
    }

    /// Starts the inner producer, unless the flattened stream has ended or replaced this inner
    /// stream meanwhile. The lifetime is made only now (it holds this object, which cannot hold
    /// it back), and the producer keeps it for as long as it needs it.
    @inlinable
    func startInner() {
        guard !isDisposed else { return }
        inner.startInstance({ event in self.receive(event) }, Lifetime(self))
    }

    @inlinable
    func receive(_ event: Signal<Value, Error>.Event) {
        guard event.isTerminating else {
            mailbox.send(.inner(id, event))
            startTrampoline.runAll()
            return
        }
        // As in ReactiveSwift, the start ends after the flattening has handled its terminal
        // event, including forwarding it downstream or starting the next inner stream: if that
        // ends the flattened stream, this start is not among those it ends.
        resources.detach(self)
        mailbox.send(.inner(id, event))
        startTrampoline.runAll()
        dispose()
    }
}

/// The resources of one inner stream's start, with its ID (see `FlattenInnerStart`).
@usableFromInline
class FlattenInnerResources: CompositeDisposable, @unchecked Sendable {
    // @unchecked Sendable: restated from `CompositeDisposable`, which protects its own state;
    // `id` is immutable.
    @usableFromInline let id: FlattenInnerID

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    @inlinable
    init(_ id: FlattenInnerID) {
        self.id = id
        super.init(leadingWithInterruption: ())
    }
}

/// The starts a flattening runs (the outer producer's, each running inner producer's) and its
/// mailbox: disposing of it ends them all and closes the mailbox. It is a member of the flattened
/// stream's lifetime, and the flattening disposes of it after its own terminal event.
///
/// The starts end in ReactiveSwift's order: under `.concurrent` (`.merge`, `.concat`) the outer
/// start first, then the inner ones in the order they started; under `.latest`, `.race` and
/// `.throttle` the inner ones first, then the outer one. A start that is delivering its own
/// terminal event has left already and ends when it is done.
///
/// A start joins and leaves atomically, so that the flattened stream's end, on any thread, ends
/// every start still running at once (P4). One inner start is kept in a *slot*, an atomic word
/// holding it (retained) or 0, or `closedSlot` once the resources are disposed of: it joins with
/// one compare-and-swap and leaves with another, and the disposal takes it with an exchange, so
/// the common case of one inner stream at a time takes no lock. Further inner starts (while the
/// slot is taken) join a `FlattenInnerMap` under the lock, and the outer start is kept there too.
@usableFromInline
final class FlattenResources<Input>: Disposable, @unchecked Sendable {
    // @unchecked Sendable: the mutable state is in `state` (a `Locked`) and holds only
    // disposables, which are `Sendable`; `slotStorage` is never accessed after `init` but through
    // `slot`'s atomic operations; `slotID` is read and written only by the mailbox's turn owner;
    // `mailbox` and `outerEndsFirst` are immutable, and a `Mailbox` is `Sendable`.
    @usableFromInline
    struct State {
        @usableFromInline var outer: CompositeDisposable?
        @usableFromInline var inners = FlattenInnerMap<FlattenInnerResources>()
        @usableFromInline var isDisposed = false

        @inlinable
        init() {}
    }

    /// The memory of `slot`: the first stored property, never read or written directly after
    /// `init` (see AtomicWord.swift).
    @usableFromInline var slotStorage = AtomicWord.storage(0)
    /// The ID of the inner start last put in the slot. Only the flattening's turn owner (which
    /// attaches, and releases by ID) touches it; the slot then holds that start or no longer any.
    @exclusivity(unchecked) @usableFromInline var slotID: FlattenInnerID?
    @usableFromInline let state = Locked(State())
    @usableFromInline let mailbox: Mailbox<Input>
    @usableFromInline let outerEndsFirst: Bool

    /// `slot` once the resources are disposed of.
    @inlinable static var closedSlot: UInt { 1 }

    @inlinable
    var slot: AtomicWord { AtomicWord(firstStoredPropertyOf: self) }

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    @inlinable
    init(_ mailbox: Mailbox<Input>, outerEndsFirst: Bool) {
        self.mailbox = mailbox
        self.outerEndsFirst = outerEndsFirst
    }

    @usableFromInline
    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Adds the outer start; returns `false` (and ends it) if the flattening is over.
    @inlinable
    func attachOuter(_ outer: CompositeDisposable) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.isDisposed else { return false }
            state.outer = outer
            return true
        }
        if !accepted { outer.dispose() }
        return accepted
    }

    /// Takes the outer start out: it ends on its own.
    @inlinable
    func detachOuter() {
        // Released after the lock; the outer stream's sink still holds it.
        let outer = state.withLock { state -> CompositeDisposable? in
            defer { state.outer = nil }
            return state.outer
        }
        _ = outer
    }

    /// Adds inner start `id`; returns `false` (and ends it) if the flattening is over. Only the
    /// flattening's turn owner calls it.
    @inlinable
    func attach(_ id: FlattenInnerID, _ inner: FlattenInnerResources) -> Bool {
        let retained = Unmanaged.passRetained(inner)
        let (exchanged, original) = slot.compareExchangeAcquiringAndReleasing(
            expected: 0, desired: UInt(bitPattern: retained.toOpaque()))
        if exchanged {
            slotID = id
            return true
        }
        retained.release()
        let accepted =
            original != Self.closedSlot
            && state.withLock { state -> Bool in
                guard !state.isDisposed else { return false }
                state.inners.append(id, inner)
                return true
            }
        if !accepted { inner.dispose() }
        return accepted
    }

    /// Takes inner start `inner` out, as it delivers its own terminal event: it ends on its own.
    @inlinable
    func detach(_ inner: FlattenInnerResources) {
        let bits = UInt(bitPattern: Unmanaged.passUnretained(inner).toOpaque())
        if slot.compareExchangeAcquiringAndReleasing(expected: bits, desired: 0).exchanged {
            // The slot's reference; the caller holds another.
            Unmanaged<FlattenInnerResources>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
            return
        }
        let removed = state.withLock { $0.inners.remove(inner.id) }
        _ = removed
    }

    /// Takes inner start `id` out and returns it, or `nil` if it has already left. Only the
    /// flattening's turn owner calls it.
    @inlinable
    func detach(_ id: FlattenInnerID) -> FlattenInnerResources? {
        if slotID == id {
            slotID = nil
            // The slot holds this start, unless it has left on its own or the resources are
            // disposed of: no other start can have joined since (only the turn owner attaches).
            let bits = slot.loadAcquiring()
            if bits != 0, bits != Self.closedSlot,
                slot.compareExchangeAcquiringAndReleasing(expected: bits, desired: 0).exchanged
            {
                return Unmanaged<FlattenInnerResources>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
                    .takeRetainedValue()
            }
            return nil
        }
        return state.withLock { $0.inners.remove(id) }
    }

    @usableFromInline
    func dispose() {
        let taken = state.withLock {
            state -> (outer: CompositeDisposable?, inners: FlattenInnerMap<FlattenInnerResources>)? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer {
                state.outer = nil
                state.inners = FlattenInnerMap()
            }
            return (state.outer, state.inners)
        }
        if let taken {
            // After `isDisposed`: a start that found the slot taken and joins the map later sees it.
            let bits = slot.exchangeAcquiringAndReleasing(Self.closedSlot)
            let slotted =
                bits > Self.closedSlot
                ? Unmanaged<FlattenInnerResources>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue()
                : nil
            if outerEndsFirst { taken.outer?.dispose() }
            // In the order the inner starts began: the slot's among the map's, by ID.
            var slottedIsPending = slotted != nil
            taken.inners.forEachValue { inner in
                if slottedIsPending, let slotted, slotted.id < inner.id {
                    slottedIsPending = false
                    slotted.dispose()
                }
                inner.dispose()
            }
            if slottedIsPending { slotted?.dispose() }
            if !outerEndsFirst { taken.outer?.dispose() }
        }
        mailbox.close()
    }
}

/// What a flattening is made of: its strategy, how the outer stream's error becomes the flattened
/// one, and how an outer value becomes an inner producer. `Signal` and `SignalProducer` each run it
/// with `flatMapEvent(_:)`, so every `flatten` and `flatMap` overload is written once (O1).
@usableFromInline
struct FlattenStage<Outer, OuterError: Swift.Error, Value, Error: Swift.Error> {
    @usableFromInline let strategy: FlattenStrategy
    @usableFromInline let promote: (OuterError) -> Error
    @usableFromInline let makeInner: (Outer) -> SignalProducer<Value, Error>

    @inlinable
    init(
        _ strategy: FlattenStrategy,
        promote: @escaping (OuterError) -> Error,
        _ makeInner: @escaping (Outer) -> SignalProducer<Value, Error>
    ) {
        self.strategy = strategy
        self.promote = promote
        self.makeInner = makeInner
    }
}

extension FlattenStage where OuterError == Error {
    /// A flattening whose outer stream fails like the flattened one.
    @inlinable
    init(_ strategy: FlattenStrategy, _ makeInner: @escaping (Outer) -> SignalProducer<Value, Error>) {
        self.init(strategy, promote: { $0 }, makeInner)
    }
}

extension Signal {
    /// The flattening `stage` of this signal's values.
    ///
    /// The flattened signal shares the turn of the flattening's mailbox (see `SharedTurnMember`):
    /// only the mailbox's handler sends to it, so an inner value reaches its observers with the
    /// mailbox's turn alone, not a second one of the signal's own.
    @inlinable
    func flatMapEvent<U, F>(_ stage: FlattenStage<Value, Error, U, F>) -> Signal<U, F> {
        let resources = CompositeDisposable()
        let lifetime = Lifetime(resources)
        var flattened: SignalCore<U, F>?
        let sink = FlattenRun.make(
            stage.strategy,
            downstreamSharingTurnOf: { mailbox in
                let core = SignalCore<U, F>(sharingTurnOf: mailbox, resources: resources)
                flattened = core
                return { event in core.sendInSharedTurn(event) }
            }, lifetime: lifetime, makeInner: stage.makeInner
        ).outerSink
        let promote = stage.promote
        let signal = Signal<U, F>(core: flattened.unsafelyUnwrapped)
        lifetime += observe(Observer(relaying: { event in sink(event.mapError(promote)) }, ()))
        return signal
    }
}

extension SignalProducer {
    /// The flattening `stage` of this producer's values: each start of the result starts this
    /// producer as the outer stream, a start of its own.
    @inlinable
    func flatMapEvent<U, F>(_ stage: FlattenStage<Value, Error, U, F>) -> SignalProducer<U, F> {
        .fused({ downstream, lifetime in
            FlattenRun.make(stage.strategy, downstream: downstream, lifetime: lifetime, makeInner: stage.makeInner)
                .startOuter(self, promote: stage.promote)
        })
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
