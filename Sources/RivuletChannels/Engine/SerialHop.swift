/// Runs `body` for each submitted item through a scheduler, one at a time and in order: the hop
/// of a stage or an output with an execution context. At most one drain is scheduled at a time;
/// it runs until the queue is empty.
@usableFromInline
final class SerialHop<Item>: @unchecked Sendable {
    // @unchecked Sendable: `pending` (with the body) is only touched under its lock (`Locked`);
    // the body is only called by the single scheduled drain (the `isScheduled` flag makes it
    // single), so never concurrently, and outside the lock. For any `Item`: a hop is made only
    // for an execution context, and every API that takes one requires `Sendable` values and a
    // `@Sendable` closure, so what the hop moves to the scheduler's thread may go there.
    private struct Pending {
        var items = FIFOQueue<Item>()
        var isScheduled = false
        var isStopped = false
        /// Let go of by `stop()`: the body may hold what holds the hop.
        var body: ((Item) -> Void)?
    }

    private let scheduler: any Scheduler
    private let pending: Locked<Pending>

    @usableFromInline
    init(scheduler: any Scheduler, body: @escaping (Item) -> Void) {
        self.scheduler = scheduler
        pending = Locked(Pending(body: body))
    }

    /// Queues `item` and schedules a drain if none is scheduled.
    @usableFromInline
    func submit(_ item: Item) {
        let schedule = pending.withLock { pending -> Bool in
            guard !pending.isStopped else { return false }
            pending.items.append(item)
            guard !pending.isScheduled else { return false }
            pending.isScheduled = true
            return true
        }
        if schedule {
            scheduler.schedule { [self] in drain() }
        }
    }

    /// Drops what is queued and ignores later items.
    @usableFromInline
    func stop() {
        let dropped = pending.withLock { pending -> (ContiguousArray<Item?>, ((Item) -> Void)?) in
            pending.isStopped = true
            defer { pending.body = nil }
            return (pending.items.removeAll(), pending.body)
        }
        withExtendedLifetime(dropped) {}
    }

    private func drain() {
        while let (item, body) = pending.withLock({ pending -> (Item, (Item) -> Void)? in
            if let body = pending.body, let item = pending.items.popFirst() { return (item, body) }
            pending.isScheduled = false
            return nil
        }) {
            body(item)
        }
    }
}
