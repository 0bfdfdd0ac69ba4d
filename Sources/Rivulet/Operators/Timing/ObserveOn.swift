// MARK: Stage

/// The stage behind `observe(on:)`.
///
/// Upstream hands each event over through a small locked queue, then asks for its delivery in one
/// of two ways:
/// - On Rivulet's own queued schedulers (`QueueScheduler`, `TestScheduler`, `UIScheduler`, the
///   `OrderedDeliveryScheduler`s), it appends a *ticket* (a reference to this stage, with a count
///   of its consecutive events) to the scheduler's `OrderedDeliveryQueue`, whose one drain at a
///   time has each ticket's stage deliver its next events. The stage's events are then kept under
///   that queue's lock (`shared`), so the event and its ticket are queued together. Events of different streams observed on the same scheduler are so delivered in
///   the order they were handed over, as ReactiveSwift's one action per event does.
/// - On any other scheduler, the first event of a burst asks the scheduler for one *drain*
///   callback of this stage, which delivers the queued events in order; events that arrive while a
///   drain is pending or running join its queue instead of asking the scheduler again. The order
///   within the stream is kept; the order across streams is the scheduler's order of the bursts.
///
/// Either way:
/// - upstream never waits for downstream work on the scheduler (it only takes one lock, the
///   stage's or the shared queue's, and, at the start of a burst, calls `schedule`), and never
///   deadlocks with it;
/// - events keep their order and are delivered one at a time on any scheduler, even one that runs
///   callbacks concurrently: only one drain is scheduled at a time, and it schedules the next one
///   itself only after it has delivered its share;
/// - a long burst does not monopolise the scheduler: a drain delivers at most `drainLimit` events,
///   then schedules the rest behind whatever else the scheduler has queued;
/// - values never cross a `@Sendable` boundary: the callbacks and tickets carry none.
///
/// On a producer, the upstream runs in a lifetime of its own (`UpstreamLifetime`), which ends as
/// soon as the upstream has terminated, while its terminal event still waits for the scheduler,
/// as in ReactiveSwift.
///
/// When the stream ends (terminal event delivered, or disposal), the queue is emptied and closed:
/// callbacks and tickets still pending find nothing to do, and hold no value. A producer start
/// disposed of before its terminal event was delivered is different (issue 16, as in
/// ReactiveSwift): the values still queued are dropped, and `interrupted` is delivered on the
/// scheduler (after the events of other streams already queued there: the dropped values' tickets
/// are skipped, and the interruption has its own).
@usableFromInline
final class ObserveOnStage<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: `state` is a `Locked`; `downstream` is only called by the one drain
    // running at a time (`State.drainScheduled`, under that lock, admits one drain per stage; with
    // an `OrderedDeliveryQueue`, its own `drainScheduled` admits one drain per scheduler, and
    // `shared` is only touched inside that queue's `withLock`), and `scheduler` and
    // `orderedDelivery` are Sendable.
    @usableFromInline
    struct State {
        @usableFromInline var events = FIFOQueue<Signal<Value, Error>.Event>()
        @usableFromInline var isClosed = false
        /// A drain is scheduled or running: new events join its queue.
        @usableFromInline var drainScheduled = false
        /// A disposed start's interruption is queued: nothing more is accepted.
        @usableFromInline var isEnding = false
        /// Tickets in the scheduler's `OrderedDeliveryQueue` whose events were dropped when a
        /// disposed start's interruption was queued: they deliver nothing.
        @usableFromInline var staleTickets = 0

        @inlinable
        init() {}
    }

    /// How many events one drain callback delivers before yielding the scheduler.
    @usableFromInline static var drainLimit: Int { 256 }

    @usableFromInline let state = Locked(State())
    @usableFromInline let downstream: EventSink<Value, Error>
    @usableFromInline let scheduler: Scheduler
    /// The scheduler's shared queue of tickets, if it has one (Rivulet's own queued schedulers);
    /// otherwise the stage schedules its own drains.
    @usableFromInline let orderedDelivery: OrderedDeliveryQueue?
    /// With an `orderedDelivery` queue, the stage's events and flags: guarded by that queue's lock
    /// (the only access is inside its `withLock`), instead of `state`'s, so that handing over an
    /// event takes one lock.
    @exclusivity(unchecked) @usableFromInline var shared = State()
    /// How a ticket makes this stage deliver its next events; made once, in `init` (it captures no
    /// stage), so that queueing a ticket allocates nothing even where the stage is not specialised.
    @usableFromInline let deliverTicket: @Sendable (AnyObject, Int) -> Void
    /// The lifetime of the producer start this stage belongs to (`nil` on a signal): told when an
    /// interruption is queued, so that the stages below wait for it.
    @usableFromInline var startLifetime: Lifetime?
    /// On a producer, the lifetime the upstream runs in (see `UpstreamLifetime`): it ends when the
    /// upstream has terminated, or first when the stream's lifetime ends.
    @usableFromInline let upstream: UpstreamLifetime?

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    @inlinable
    init(
        scheduler: Scheduler,
        downstream: @escaping EventSink<Value, Error>,
        lifetime: Lifetime,
        upstream: UpstreamLifetime?
    ) {
        self.scheduler = scheduler
        self.downstream = downstream
        orderedDelivery = (scheduler as? any OrderedDeliveryScheduler)?.orderedDelivery
        deliverTicket = { client, count in
            unsafeDowncast(client, to: ObserveOnStage<Value, Error>.self).deliverNext(count)
        }
        self.upstream = upstream
        let state = self.state
        // In a producer start, the stage delivers the start's interruption on the scheduler.
        // `startLifetime` is written before the entry can reach another thread.
        startLifetime = lifetime
        let isStart: Bool
        if let upstream {
            // Disposing of the start ends the upstream first, which interrupts it: that
            // interruption comes in through `receive`.
            isStart = upstream.join(lifetime)
        } else {
            isStart = lifetime.setInterruptionEntry(asynchronous: true) { [self] in
                send(.interrupted)
                return true
            }
        }
        if isStart {
            lifetime.observeEnded { [self] in interruptAtEnd() }
        } else if orderedDelivery != nil {
            startLifetime = nil
            lifetime.observeEnded { [weak self] in self?.closeShared() }
        } else {
            startLifetime = nil
            lifetime.observeEnded { Self.close(state) }
        }
    }

    /// A producer start's lifetime has ended: unless its terminal event has been delivered, drop
    /// the values still queued and deliver `interrupted` on the scheduler (ReactiveSwift's
    /// asynchronous operators do the same).
    @usableFromInline
    func interruptAtEnd() {
        if let orderedDelivery {
            let (dropped, mustSchedule) = orderedDelivery.withLock {
                queue -> (ContiguousArray<Signal<Value, Error>.Event?>, Bool) in
                guard !shared.isClosed, !shared.isEnding else { return ([], false) }
                shared.isEnding = true
                // Every dropped event's ticket is in the queue: it delivers nothing.
                shared.staleTickets += shared.events.count
                let dropped = shared.events.removeAll()
                shared.events.append(.interrupted)
                return (dropped, queue.addTicket(for: self, deliver: deliverTicket))
            }
            // The dropped events are released here, after the lock.
            _ = dropped
            if mustSchedule { orderedDelivery.scheduleDrain(on: scheduler) }
            return
        }
        let (dropped, mustSchedule) = state.withLock { state -> (ContiguousArray<Signal<Value, Error>.Event?>, Bool) in
            guard !state.isClosed, !state.isEnding else { return ([], false) }
            state.isEnding = true
            let dropped = state.events.removeAll()
            state.events.append(.interrupted)
            guard !state.drainScheduled else { return (dropped, false) }
            state.drainScheduled = true
            return (dropped, true)
        }
        // The dropped events are released here, after the lock.
        _ = dropped
        if mustSchedule { scheduleDrain() }
    }

    /// With an `orderedDelivery` queue: the stream has ended; its leftover tickets find it closed.
    @inlinable
    func closeShared() {
        guard let orderedDelivery else { return }
        let dropped = orderedDelivery.withLock { _ in
            shared.isClosed = true
            shared.isEnding = false
            return shared.events.removeAll()
        }
        // The dropped events are released here, after the lock.
        _ = dropped
    }

    @inlinable
    static func close(_ state: Locked<State>) {
        let dropped = state.withLock { state in
            state.isClosed = true
            state.isEnding = false
            return state.events.removeAll()
        }
        // The dropped events are released here, after the lock.
        _ = dropped
    }

    /// An event from upstream: queued for the scheduler; after a terminal event the upstream's
    /// lifetime ends (on a producer).
    @inlinable
    func receive(_ event: Signal<Value, Error>.Event) {
        send(event)
        if event.isTerminating { upstream?.upstreamDidTerminate() }
    }

    /// Queues `event`: with a shared queue, queues its ticket there too; otherwise the first event
    /// of a burst schedules a drain.
    @inlinable
    func send(_ event: Signal<Value, Error>.Event) {
        if let orderedDelivery {
            let mustSchedule = orderedDelivery.withLock { queue -> Bool in
                guard !shared.isClosed, !shared.isEnding else { return false }
                shared.events.append(event)
                return queue.addTicket(for: self, deliver: deliverTicket)
            }
            if case .interrupted = event { startLifetime?.holdInterruption() }
            if mustSchedule { orderedDelivery.scheduleDrain(on: scheduler) }
            return
        }
        let mustSchedule = state.withLock { state -> Bool in
            guard !state.isClosed, !state.isEnding else { return false }
            state.events.append(event)
            guard !state.drainScheduled else { return false }
            state.drainScheduled = true
            return true
        }
        if case .interrupted = event { startLifetime?.holdInterruption() }
        if mustSchedule { scheduleDrain() }
    }

    /// Delivers the next `count` queued events for a ticket of the scheduler's
    /// `OrderedDeliveryQueue` (called by its one drain, outside every lock); a closed stage ignores
    /// its leftover tickets, and a stale ticket delivers nothing.
    @inlinable
    func deliverNext(_ count: Int) {
        guard let orderedDelivery else {
            preconditionFailure(
                "Rivulet: an observe(on:) ticket reached a stage without a shared queue; tickets come only from OrderedDeliveryQueue (internal error)"
            )
        }
        for _ in 0..<count {
            let next = orderedDelivery.withLock { _ -> Signal<Value, Error>.Event? in
                guard !shared.isClosed else { return nil }
                guard shared.staleTickets == 0 else {
                    shared.staleTickets -= 1
                    return nil
                }
                return shared.events.popFirst()
            }
            guard let event = next else { continue }
            if event.isTerminating {
                closeShared()
            }
            downstream(event)
        }
    }

    @inlinable
    func scheduleDrain() {
        scheduler.schedule { [self] in drain() }
    }

    /// Delivers queued events in order, up to `drainLimit`; then either ends the burst or
    /// schedules the next drain.
    @inlinable
    func drain() {
        for _ in 0..<Self.drainLimit {
            let next = state.withLock { state -> Signal<Value, Error>.Event? in
                guard !state.isClosed, let event = state.events.popFirst() else {
                    state.drainScheduled = false
                    return nil
                }
                return event
            }
            guard let event = next else { return }
            if event.isTerminating {
                Self.close(state)
            }
            downstream(event)
        }
        scheduleDrain()
    }
}

extension Signal.Event {
    /// The stage behind `observe(on:)`.
    @inlinable
    static func observe(on scheduler: Scheduler) -> TimeShiftingTransform<Value, Error, Value, Error> {
        { downstream, lifetime, upstream in
            let stage = ObserveOnStage(scheduler: scheduler, downstream: downstream, lifetime: lifetime, upstream: upstream)
            // On a signal there is no upstream lifetime to end: events go straight to `send`.
            guard upstream != nil else { return stage.send }
            return stage.receive
        }
    }
}

// MARK: Operators

extension Signal {
    /// A signal that delivers every event of this one through `scheduler`, in order.
    ///
    /// Senders never wait for the scheduler: each event is handed over and delivered by a
    /// callback on `scheduler`. Order and one-at-a-time delivery hold on any scheduler; on a
    /// serial one (`QueueScheduler`, `UIScheduler`) every event is also delivered on its thread.
    /// On `QueueScheduler`, `TestScheduler` and `UIScheduler`, events of different streams
    /// observed on the same scheduler are delivered in the order they were handed over, as in
    /// ReactiveSwift; on other schedulers, only the order within each stream is kept. With
    /// `ImmediateScheduler` delivery stays synchronous.
    ///
    /// - Parameter scheduler: Where the events are delivered.
    /// - Returns: A signal of this signal's events, delivered by `scheduler` in the order they were
    ///   sent.
    @inlinable
    public func observe(on scheduler: Scheduler) -> Signal<Value, Error> where Value: Sendable {
        flatMapTimeShifted(Event.observe(on: scheduler))
    }
}

extension SignalProducer {
    /// A producer whose events are delivered through `scheduler`, in order; see
    /// `Signal.observe(on:)`. The start itself is not moved: see `start(on:)` for that.
    ///
    /// - Parameter scheduler: Where the events are delivered.
    /// - Returns: A producer whose starts send this producer's events, delivered by `scheduler` in
    ///   the order they were sent.
    @inlinable
    public func observe(on scheduler: Scheduler) -> SignalProducer<Value, Error> where Value: Sendable {
        flatMapTimeShifted(Signal.Event.observe(on: scheduler))
    }
}

// @unchecked Sendable: the queued events move from the sending thread to the scheduler's, under
// `ObserveOnStage.state`'s lock; that hand-off is what `observe(on:)` is for. Values and errors are
// not yet required to be `Sendable` (ReactiveSwift's signatures); Docs/Concurrency.md tracks it.
extension ObserveOnStage.State: @unchecked Sendable {}
