// Observation on an actor: the observer's closure runs isolated to a given actor, with the actor
// as an `isolated` parameter, so the compiler checks that it only touches that actor's state
// synchronously.
//
// How events reach the actor: each observation owns a mailbox (`ActorObservation`), a queue of
// events under one lock. The sender appends its event and returns (it never waits for the actor).
// The first event of a burst starts one task that drains the mailbox on the actor; events sent
// while that task is pending or running join its queue instead of starting another. So:
// - events are delivered in the order they were sent (E5's serial order), one at a time, each
//   once, whatever order the runtime schedules tasks in: only one drain task exists at a time;
// - a burst costs one task, not one per event, and the queue keeps its capacity, so events that
//   arrive while a drain is pending or running allocate nothing once the queue has grown (an
//   event that finds the mailbox idle starts a burst of its own, and so one task);
// - a long burst does not monopolise the actor: after `drainLimit` events the drain yields, and
//   the actor's other work may run before it continues (still the only drain: order is kept).
//
// Disposal marks the mailbox disposed under its lock before anything else: a drain checks that
// mark before each event, so no event starts after `dispose()` returns (one already running on
// the actor finishes). The terminal event is the last one queued (nothing is accepted after it),
// so it is delivered last; after it, the mailbox lets go of the closure and the upstream.
//
// Values cross from the sending thread to the actor, so `Value` is `Sendable`, and the closure,
// which the drain task calls, is `@Sendable`.

// MARK: Mailbox

/// The mailbox of one observation on an actor, and the disposable that ends it.
@usableFromInline
final class ActorObservation<A: Actor, Value: Sendable, Error: Swift.Error>: Disposable {
    @usableFromInline typealias Event = Signal<Value, Error>.Event
    @usableFromInline typealias Action = @Sendable (isolated A, Event) -> Void

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var events = FIFOQueue<Event>()
        /// A drain task is pending or running: new events join its queue.
        @usableFromInline var isDraining = false
        /// `false` once the terminal event is queued or the observation is disposed of.
        @usableFromInline var acceptsEvents = true
        @usableFromInline var isDisposed = false
        /// `nil` once the terminal event was delivered or the observation disposed of.
        @usableFromInline var action: Action?
        /// What stops the upstream: the signal's observation or the producer's start.
        @usableFromInline var upstream: Disposable?

        @inlinable
        init(action: @escaping Action) {
            self.action = action
        }
    }

    /// How many events one turn on the actor delivers before it lets other work on the actor run.
    @usableFromInline static var drainLimit: Int { 256 }

    @usableFromInline let state: Locked<State>
    @usableFromInline let actor: A

    @inlinable
    init(actor: A, action: @escaping Action) {
        self.actor = actor
        state = Locked(State(action: action))
    }

    @inlinable
    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Stops delivery: no event starts on the actor after this returns; then stops the upstream.
    @inlinable
    func dispose() {
        let (dropped, action, upstream) = state.withLock {
            state -> (ContiguousArray<Event?>, Action?, Disposable?) in
            guard !state.isDisposed else { return ([], nil, nil) }
            state.isDisposed = true
            state.acceptsEvents = false
            return (state.events.removeAll(), state.action.take(), state.upstream.take())
        }
        upstream?.dispose()
        // The queued events and the closure are released here, after the lock (O7).
        _ = dropped
        _ = action
    }

    /// Keeps the upstream's disposable, or disposes of it at once if the observation was disposed
    /// of meanwhile (a finished observation has no use for it).
    @inlinable
    func setUpstream(_ upstream: Disposable?) {
        guard let upstream else { return }
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            if state.action != nil { state.upstream = upstream }
            return false
        }
        if disposeNow { upstream.dispose() }
    }

    /// Queues `event` (from any thread); the first event of a burst starts the drain task.
    @inlinable
    func enqueue(_ event: Event) {
        let mustDrain = state.withLock { state -> Bool in
            guard state.acceptsEvents else { return false }
            state.events.append(event)
            if event.isTerminating { state.acceptsEvents = false }
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        if mustDrain {
            Task { await self.drain(on: self.actor) }
        }
    }

    /// Delivers the queued events in order on `actor`, until the queue is empty or the
    /// observation ends. The only drain running for this mailbox (`isDraining`).
    @inlinable
    func drain(on actor: isolated A) async {
        guard let action = state.withLock({ $0.action }) else {
            state.withLock { $0.isDraining = false }
            return
        }
        var budget = Self.drainLimit
        while true {
            let next = state.withLock { state -> Event? in
                guard !state.isDisposed, let event = state.events.popFirst() else {
                    state.isDraining = false
                    return nil
                }
                return event
            }
            guard let event = next else { return }
            action(actor, event)
            if event.isTerminating {
                finish()
                return
            }
            budget -= 1
            if budget == 0 {
                budget = Self.drainLimit
                await Task.yield()
            }
        }
    }

    /// The terminal event was delivered: let go of the closure and the upstream.
    @inlinable
    func finish() {
        let (action, upstream) = state.withLock { state -> (Action?, Disposable?) in
            state.isDraining = false
            return (state.action.take(), state.upstream.take())
        }
        // Released after the lock (O7); the upstream has terminated, so it is not disposed of.
        _ = action
        _ = upstream
    }
}

// MARK: Signal

extension Signal where Value: Sendable {
    /// Runs `action` on `actor` for every event from now on, with the actor as its `isolated`
    /// parameter, so it can use the actor's state synchronously.
    ///
    /// Events are delivered in the order the signal sent them, one at a time, each once; the
    /// terminal event comes last. Senders never wait for the actor. After the returned disposable
    /// is disposed of, no further event starts (one already running finishes). Unlike
    /// `observe(on:)` with a scheduler, which returns a signal, this attaches an observer.
    ///
    /// ```swift
    /// signal.observe(isolatedTo: model) { model, event in model.record(event) }
    /// ```
    ///
    /// - Parameters:
    ///   - actor: The actor the closure runs on.
    ///   - action: Called on `actor` for each event.
    /// - Returns: A disposable that ends the observation, or `nil` if the signal had already
    ///   terminated, in which case `action` still receives `interrupted` on the actor (S3).
    @inlinable
    @discardableResult
    public func observe<A: Actor>(
        isolatedTo actor: A,
        _ action: @escaping @Sendable (isolated A, Event) -> Void
    ) -> Disposable? {
        let observation = ActorObservation<A, Value, Error>(actor: actor, action: action)
        guard let upstream = observe({ event in observation.enqueue(event) }) else { return nil }
        observation.setUpstream(upstream)
        return observation
    }

    /// Runs `action` on `actor` for each value, with the actor as its `isolated` parameter; see
    /// `observe(isolatedTo:_:)` for the ordering guarantees.
    ///
    /// - Parameters:
    ///   - actor: The actor the closure runs on.
    ///   - action: Called on `actor` for each value.
    /// - Returns: A disposable that ends the observation, or `nil` if the signal had already
    ///   terminated.
    @inlinable
    @discardableResult
    public func observeValues<A: Actor>(
        isolatedTo actor: A,
        _ action: @escaping @Sendable (isolated A, Value) -> Void
    ) -> Disposable? {
        observe(isolatedTo: actor) { actor, event in
            if case .value(let value) = event { action(actor, value) }
        }
    }

    /// Runs the main-actor closure `action` on the main actor for every event from now on, in
    /// order: the same delivery as `observe { @MainActor event in … }` (Docs/Concurrency.md,
    /// "Main-actor patterns"), which is at once when the event is sent on the main actor with
    /// nothing queued for it.
    ///
    /// Use it to reach `@MainActor` state: a closure with an `isolated MainActor` parameter may
    /// not touch it.
    ///
    /// - Parameters:
    ///   - mainActor: `MainActor.shared`.
    ///   - action: Called on the main actor for each event.
    /// - Returns: A disposable that ends the observation, or `nil` if the signal had already
    ///   terminated.
    @inlinable
    @discardableResult
    public func observe(
        isolatedTo mainActor: MainActor,
        _ action: @escaping @MainActor @Sendable (Event) -> Void
    ) -> Disposable? {
        observe(on: UIScheduler()).observe(.onMainActor(action))
    }

    /// Runs the main-actor closure `action` on the main actor for each value; see
    /// `observe(isolatedTo:_:)` for the ordering guarantees.
    ///
    /// - Parameters:
    ///   - mainActor: `MainActor.shared`.
    ///   - action: Called on the main actor for each value.
    /// - Returns: A disposable that ends the observation, or `nil` if the signal had already
    ///   terminated.
    @inlinable
    @discardableResult
    public func observeValues(
        isolatedTo mainActor: MainActor,
        _ action: @escaping @MainActor @Sendable (Value) -> Void
    ) -> Disposable? {
        observe(isolatedTo: mainActor) { (event: Event) in
            if case .value(let value) = event { action(value) }
        }
    }
}

// MARK: SignalProducer

extension SignalProducer where Value: Sendable {
    /// Starts the producer and runs `action` on `actor` for each of its events, with the actor as
    /// its `isolated` parameter.
    ///
    /// Events are delivered in order, one at a time, each once; the terminal event comes last.
    /// Disposing of the result stops delivery (no event starts after it; one already running
    /// finishes) and interrupts the start; the interruption is not delivered. Unlike
    /// `start(on:)`, which moves the start to a scheduler, this starts the producer now.
    ///
    /// - Parameters:
    ///   - actor: The actor the closure runs on.
    ///   - action: Called on `actor` for each event.
    /// - Returns: A disposable that stops delivery and interrupts the start.
    @inlinable
    @discardableResult
    public func start<A: Actor>(
        isolatedTo actor: A,
        _ action: @escaping @Sendable (isolated A, Signal<Value, Error>.Event) -> Void
    ) -> Disposable {
        let observation = ActorObservation<A, Value, Error>(actor: actor, action: action)
        observation.setUpstream(start { event in observation.enqueue(event) })
        return observation
    }

    /// Starts the producer and runs `action` on `actor` for each value; see
    /// `start(isolatedTo:_:)`.
    ///
    /// - Parameters:
    ///   - actor: The actor the closure runs on.
    ///   - action: Called on `actor` for each value.
    /// - Returns: A disposable that stops delivery and interrupts the start.
    @inlinable
    @discardableResult
    public func startWithValues<A: Actor>(
        isolatedTo actor: A,
        _ action: @escaping @Sendable (isolated A, Value) -> Void
    ) -> Disposable {
        start(isolatedTo: actor) { actor, event in
            if case .value(let value) = event { action(actor, value) }
        }
    }

    /// Starts the producer and runs the main-actor closure `action` on the main actor for each of
    /// its events, in order: the same delivery as `start { @MainActor event in … }`.
    ///
    /// - Parameters:
    ///   - mainActor: `MainActor.shared`.
    ///   - action: Called on the main actor for each event.
    /// - Returns: A disposable that stops delivery and interrupts the start.
    @inlinable
    @discardableResult
    public func start(
        isolatedTo mainActor: MainActor,
        _ action: @escaping @MainActor @Sendable (Signal<Value, Error>.Event) -> Void
    ) -> Disposable {
        observe(on: UIScheduler()).start(.onMainActor(action))
    }

    /// Starts the producer and runs the main-actor closure `action` on the main actor for each
    /// value; see `start(isolatedTo:_:)`.
    ///
    /// - Parameters:
    ///   - mainActor: `MainActor.shared`.
    ///   - action: Called on the main actor for each value.
    /// - Returns: A disposable that stops delivery and interrupts the start.
    @inlinable
    @discardableResult
    public func startWithValues(
        isolatedTo mainActor: MainActor,
        _ action: @escaping @MainActor @Sendable (Value) -> Void
    ) -> Disposable {
        start(isolatedTo: mainActor) { (event: Signal<Value, Error>.Event) in
            if case .value(let value) = event { action(value) }
        }
    }
}

// MARK: Property

extension PropertyProtocol where Value: Sendable {
    /// Runs `action` on `actor` with the property's events: its current value first, then every
    /// change, then `completed` when the property ends. Starts `producer`; see
    /// `SignalProducer.start(isolatedTo:_:)`.
    ///
    /// - Parameters:
    ///   - actor: The actor the closure runs on.
    ///   - action: Called on `actor` for each event.
    /// - Returns: A disposable that stops delivery.
    @inlinable
    @discardableResult
    public func observe<A: Actor>(
        isolatedTo actor: A,
        _ action: @escaping @Sendable (isolated A, Signal<Value, Never>.Event) -> Void
    ) -> Disposable {
        producer.start(isolatedTo: actor, action)
    }

    /// Runs `action` on `actor` with the property's current value, then with every change, in
    /// order. Starts `producer`; see `SignalProducer.start(isolatedTo:_:)`.
    ///
    /// - Parameters:
    ///   - actor: The actor the closure runs on.
    ///   - action: Called on `actor` for each value.
    /// - Returns: A disposable that stops delivery.
    @inlinable
    @discardableResult
    public func observeValues<A: Actor>(
        isolatedTo actor: A,
        _ action: @escaping @Sendable (isolated A, Value) -> Void
    ) -> Disposable {
        producer.startWithValues(isolatedTo: actor, action)
    }

    /// Runs the main-actor closure `action` on the main actor with the property's events; see
    /// `observe(isolatedTo:_:)`.
    ///
    /// - Parameters:
    ///   - mainActor: `MainActor.shared`.
    ///   - action: Called on the main actor for each event.
    /// - Returns: A disposable that stops delivery.
    @inlinable
    @discardableResult
    public func observe(
        isolatedTo mainActor: MainActor,
        _ action: @escaping @MainActor @Sendable (Signal<Value, Never>.Event) -> Void
    ) -> Disposable {
        producer.start(isolatedTo: mainActor, action)
    }

    /// Runs the main-actor closure `action` on the main actor with the property's current value,
    /// then with every change; see `observeValues(isolatedTo:_:)`.
    ///
    /// - Parameters:
    ///   - mainActor: `MainActor.shared`.
    ///   - action: Called on the main actor for each value.
    /// - Returns: A disposable that stops delivery.
    @inlinable
    @discardableResult
    public func observeValues(
        isolatedTo mainActor: MainActor,
        _ action: @escaping @MainActor @Sendable (Value) -> Void
    ) -> Disposable {
        producer.startWithValues(isolatedTo: mainActor, action)
    }
}
