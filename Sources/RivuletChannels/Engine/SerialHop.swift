import Synchronization

/// Runs `body` for each submitted item through a scheduler, one at a time and in order: the hop
/// of a stage or an output with an execution context. At most one drain is scheduled at a time;
/// it runs until the queue is empty.
@usableFromInline
final class SerialHop<Item>: @unchecked Sendable {
    // @unchecked Sendable: `pending` is only touched under its lock; `body` is only called by the
    // single scheduled drain (the `isScheduled` flag makes it single), so never concurrently.
    private struct Pending {
        var items = FIFOQueue<Item>()
        var isScheduled = false
        var isStopped = false
    }

    private let scheduler: any Scheduler
    private let pending = Locked(Pending())
    private let body: (Item) -> Void

    @usableFromInline
    init(scheduler: any Scheduler, body: @escaping (Item) -> Void) {
        self.scheduler = scheduler
        self.body = body
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
        let dropped = pending.withLock { pending -> ContiguousArray<Item?> in
            pending.isStopped = true
            return pending.items.removeAll()
        }
        withExtendedLifetime(dropped) {}
    }

    private func drain() {
        while let item = pending.withLock({ pending -> Item? in
            if let item = pending.items.popFirst() { return item }
            pending.isScheduled = false
            return nil
        }) {
            body(item)
        }
    }
}
