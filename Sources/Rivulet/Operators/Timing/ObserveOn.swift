// MARK: Stage

/// The stage behind `observe(on:)`.
///
/// Upstream hands each event over through a small locked queue. The first event of a burst asks
/// the scheduler for one *drain* callback, which delivers the queued events in order; events that
/// arrive while a drain is pending or running join its queue instead of asking the scheduler
/// again. So:
/// - upstream never waits for downstream work on the scheduler (it only takes the queue's lock
///   and, at the start of a burst, calls `schedule`), and never deadlocks with it;
/// - events keep their order and are delivered one at a time on any scheduler, even one that runs
///   callbacks concurrently: only one drain is scheduled at a time, and it schedules the next one
///   itself only after it has delivered its share;
/// - a long burst does not monopolise the scheduler: a drain delivers at most `drainLimit` events,
///   then schedules the rest behind whatever else the scheduler has queued;
/// - values never cross a `@Sendable` boundary: the callbacks carry nothing.
///
/// When the stream ends (terminal event delivered, or disposal), the queue is emptied and closed:
/// callbacks still pending with the scheduler find nothing to do, and hold no value. A producer
/// start disposed of before its terminal event was delivered is different (issue 16, as in
/// ReactiveSwift): the values still queued are dropped, and `interrupted` is delivered on the
/// scheduler.
@usableFromInline
final class ObserveOnStage<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: `state` is a `Locked`; `downstream` is only called by the one drain
    // running at a time (`State.drainScheduled`, under that lock, admits one drain), and
    // `scheduler` is Sendable.
    @usableFromInline
    struct State {
        @usableFromInline var events = FIFOQueue<Signal<Value, Error>.Event>()
        @usableFromInline var isClosed = false
        /// A drain is scheduled or running: new events join its queue.
        @usableFromInline var drainScheduled = false
        /// A disposed start's interruption is queued: nothing more is accepted.
        @usableFromInline var isEnding = false

        @inlinable
        init() {}
    }

    /// How many events one drain callback delivers before yielding the scheduler.
    @usableFromInline static var drainLimit: Int { 256 }

    @usableFromInline let state = Locked(State())
    @usableFromInline let downstream: EventSink<Value, Error>
    @usableFromInline let scheduler: Scheduler
    /// The lifetime of the producer start this stage belongs to (`nil` on a signal): told when an
    /// interruption is queued, so that the stages below wait for it.
    @usableFromInline var startLifetime: Lifetime?

    @inlinable
    init(scheduler: Scheduler, downstream: @escaping EventSink<Value, Error>, lifetime: Lifetime) {
        self.scheduler = scheduler
        self.downstream = downstream
        let state = self.state
        // In a producer start, the stage delivers the start's interruption on the scheduler.
        // `startLifetime` is written before the entry can reach another thread.
        startLifetime = lifetime
        let isStart = lifetime.setInterruptionEntry(asynchronous: true) { [self] in
            send(.interrupted)
            return true
        }
        if isStart {
            lifetime.observeEnded { [self] in interruptAtEnd() }
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

    /// Queues `event`; the first event of a burst schedules a drain.
    @inlinable
    func send(_ event: Signal<Value, Error>.Event) {
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
    static func observe(on scheduler: Scheduler) -> EventTransform<Value, Error, Value, Error> {
        { downstream, lifetime in
            let stage = ObserveOnStage(scheduler: scheduler, downstream: downstream, lifetime: lifetime)
            return stage.send
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
    /// With `ImmediateScheduler` delivery stays synchronous.
    ///
    /// - Parameters:
    ///   - scheduler: Where the events are delivered.
    @inlinable
    public func observe(on scheduler: Scheduler) -> Signal<Value, Error> {
        flatMapEvent(Event.observe(on: scheduler))
    }
}

extension SignalProducer {
    /// A producer whose events are delivered through `scheduler`, in order; see
    /// `Signal.observe(on:)`. The start itself is not moved: see `start(on:)` for that.
    ///
    /// - Parameters:
    ///   - scheduler: Where the events are delivered.
    @inlinable
    public func observe(on scheduler: Scheduler) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.observe(on: scheduler))
    }
}

// @unchecked Sendable: the queued events move from the sending thread to the scheduler's, under
// `ObserveOnStage.state`'s lock; that hand-off is what `observe(on:)` is for. Values and errors are
// not yet required to be `Sendable` (ReactiveSwift's signatures); Docs/Concurrency.md tracks it.
extension ObserveOnStage.State: @unchecked Sendable {}
