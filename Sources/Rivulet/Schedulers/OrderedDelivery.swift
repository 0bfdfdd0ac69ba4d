/// A run of events due from one `observe(on:)` stage: the stage, how to make it deliver its next
/// events, and how many. A ticket carries no event, so the scheduler-wide queue holds only
/// references; consecutive events of one stage share one ticket.
@usableFromInline
package struct OrderedDeliveryTicket: @unchecked Sendable {
    // @unchecked Sendable: `client` is an `ObserveOnStage` (itself Sendable, see there), held as
    // `AnyObject` so that the queue is not generic; `deliver` is `@Sendable` and only downcasts it.
    @usableFromInline let client: AnyObject
    @usableFromInline let deliver: @Sendable (AnyObject, Int) -> Void
    /// How many of the stage's next events are due, one after the other.
    @usableFromInline var count: Int

    @inlinable
    package init(client: AnyObject, deliver: @escaping @Sendable (AnyObject, Int) -> Void, count: Int) {
        self.client = client
        self.deliver = deliver
        self.count = count
    }
}

/// A scheduler whose `observe(on:)` stages share one queue of tickets, so that events of different
/// streams observed on it are delivered in the order they were handed over, as ReactiveSwift's
/// one action per event does. Rivulet's own queued schedulers conform (`QueueScheduler`,
/// `TestScheduler`, `UIScheduler`); any other scheduler gets one drain per stage, which keeps the
/// order within each stream only.
@usableFromInline
package protocol OrderedDeliveryScheduler: Scheduler {
    /// The scheduler's queue of `observe(on:)` tickets.
    var orderedDelivery: OrderedDeliveryQueue { get }
}

/// The scheduler-wide FIFO of `observe(on:)` tickets.
///
/// A stage queues its event in its own queue and a ticket here under this queue's one lock (the
/// stage's own events are kept under it too, see `withLock`), so no lock is ever nested. The first
/// ticket of a burst asks the scheduler for one drain callback; one drain runs at a time per
/// scheduler.
/// It pops tickets in order and has each stage deliver its next events, outside every lock; after
/// `drainLimit` events it schedules the rest behind whatever else the scheduler has queued. A
/// stage's consecutive events share one ticket (a count), so a single busy stream costs the drain
/// one visit of this lock per run, not per event. The ticket buffer keeps its capacity, so
/// queueing allocates nothing once it has grown.
@usableFromInline
package final class OrderedDeliveryQueue: Sendable {
    @usableFromInline
    package struct State: Sendable {
        @usableFromInline var tickets = FIFOQueue<OrderedDeliveryTicket>()
        /// A drain is scheduled or running: new tickets join its queue.
        @usableFromInline var drainScheduled = false

        @inlinable
        init() {}

        /// Queues a ticket for `client`'s next event, joining the last ticket if it is
        /// `client`'s; returns whether the caller must schedule a drain (`scheduleDrain(on:)`,
        /// after the lock) because this is the first ticket of a burst.
        @inlinable
        package mutating func addTicket(
            for client: AnyObject,
            deliver: @escaping @Sendable (AnyObject, Int) -> Void
        ) -> Bool {
            let last = tickets.slots.count - 1
            if last >= tickets.head, tickets.slots[last]!.client === client {
                tickets.slots[last]!.count += 1
            } else {
                tickets.append(OrderedDeliveryTicket(client: client, deliver: deliver, count: 1))
            }
            guard !drainScheduled else { return false }
            drainScheduled = true
            return true
        }
    }

    /// How many events one drain callback delivers before yielding the scheduler.
    @usableFromInline static var drainLimit: Int { 256 }

    @usableFromInline let state = Locked(State())

    package init() {}

    /// Runs `body` under the queue's lock. A stage keeps its own queued events under this lock too
    /// (`ObserveOnStage.shared`), so that handing over an event and queueing its ticket take one
    /// lock, not two; `body` only reads and writes that state.
    @inlinable
    package func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock(body)
    }

    /// Schedules the drain that a burst's first ticket asks for.
    @inlinable
    package func scheduleDrain(on scheduler: Scheduler) {
        scheduler.schedule { [self] in drain(on: scheduler) }
    }

    /// Handles queued tickets in order, up to `drainLimit` events; then either ends the burst or
    /// schedules the next drain. A run of one stage's events is taken from the queue at once.
    @inlinable
    func drain(on scheduler: Scheduler) {
        var budget = Self.drainLimit
        while budget > 0 {
            let next = state.withLock { state -> OrderedDeliveryTicket? in
                let head = state.tickets.head
                guard head < state.tickets.slots.count else {
                    state.drainScheduled = false
                    return nil
                }
                guard state.tickets.slots[head]!.count > budget else { return state.tickets.popFirst() }
                // Only part of the run fits: the rest stays first in line.
                state.tickets.slots[head]!.count -= budget
                var part = state.tickets.slots[head]!
                part.count = budget
                return part
            }
            // The ticket, possibly the last reference to its stage, is released outside the lock.
            guard let ticket = next else { return }
            budget -= ticket.count
            ticket.deliver(ticket.client, ticket.count)
        }
        scheduleDrain(on: scheduler)
    }
}
