// MARK: Stage

/// The stage behind `observe(on:)`.
///
/// Upstream hands each event over through a small locked queue and asks the scheduler for one
/// callback per event; each callback delivers the oldest event not yet delivered, through an
/// inbox. So:
/// - upstream never waits for downstream work on the scheduler (it only takes the queue's lock
///   and calls `schedule`), and never deadlocks with it;
/// - events keep their order and are delivered one at a time even on a scheduler that runs
///   callbacks concurrently or out of order (the callbacks then only decide *when* and *on which
///   thread* the next event goes out; a serial scheduler, such as `QueueScheduler`, also runs
///   them on one thread at a time);
/// - values never cross a `@Sendable` boundary: the callbacks carry nothing.
///
/// When the stream ends (terminal event delivered, or disposal), the queue is emptied and the
/// inbox closed: callbacks still pending with the scheduler find nothing to do, and hold no value.
final class ObserveOnStage<Value, Error: Swift.Error>: Sendable {
    private struct State {
        var events = FIFOQueue<Signal<Value, Error>.Event>()
        var isClosed = false
    }

    /// The hand-over queue between upstream and the scheduler callbacks.
    private let state = Locked(State())
    /// Serializes deliveries; its handler owns the downstream sink.
    private let delivery: SerialInbox<Void>
    private let scheduler: Scheduler

    init(scheduler: Scheduler, downstream: @escaping EventSink<Value, Error>, lifetime: Lifetime) {
        self.scheduler = scheduler
        let state = self.state
        delivery = SerialInbox { _ in
            guard let event = state.withLock({ $0.events.popFirst() }) else { return }
            if event.isTerminating {
                Self.close(state)
            }
            downstream(event)
        }
        let delivery = self.delivery
        lifetime.observeEnded {
            Self.close(state)
            delivery.close()
        }
    }

    private static func close(_ state: Locked<State>) {
        let dropped = state.withLock { state in
            state.isClosed = true
            return state.events.removeAll()
        }
        // The dropped events are released here, after the lock.
        _ = dropped
    }

    /// Queues `event` and asks the scheduler to deliver it.
    func send(_ event: Signal<Value, Error>.Event) {
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.events.append(event)
            return true
        }
        guard accepted else { return }
        let delivery = self.delivery
        scheduler.schedule { delivery.send(()) }
    }
}

extension Signal.Event {
    /// The stage behind `observe(on:)`.
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
    /// - Parameter scheduler: Where the events are delivered.
    public func observe(on scheduler: Scheduler) -> Signal<Value, Error> {
        flatMapEvent(Event.observe(on: scheduler))
    }
}

extension SignalProducer {
    /// A producer whose events are delivered through `scheduler`, in order; see
    /// `Signal.observe(on:)`. The start itself is not moved: see `start(on:)` for that.
    ///
    /// - Parameter scheduler: Where the events are delivered.
    public func observe(on scheduler: Scheduler) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.observe(on: scheduler))
    }
}
