/// A scheduler whose actions run on an actor's serial executor, one at a time, in the order they
/// were scheduled.
///
/// Use it where an operator takes a scheduler and the events should reach an actor, for example
/// `signal.observe(on: ActorScheduler(model))`. The actions themselves are plain `@Sendable`
/// closures, so the compiler does not know they run on the actor: to touch the actor's state with
/// the compiler's checks, observe with `observe(isolatedTo:_:)` instead, or call
/// `actor.assumeIsolated` inside the action.
///
/// Scheduling never waits: the action joins the scheduler's queue, and the first action of a
/// burst starts one task that runs the queue on the actor; actions scheduled meanwhile, including
/// from inside an action, join that queue. After 256 actions the task lets the actor run its other
/// work, then goes on. Disposing of an action's disposable before it starts keeps it from running.
public final class ActorScheduler: Scheduler {
    /// The actor whose executor runs the actions.
    public let actor: any Actor

    /// The queue that keeps `observe(on:)` deliveries of different streams in order.
    @usableFromInline package let orderedDelivery = OrderedDeliveryQueue()

    /// The queued actions and whether a drain task is pending or running.
    private let queue = Locked(ActorSchedulerQueue())

    /// How many actions one turn on the actor runs before it lets other work on the actor run.
    private static let drainLimit = 256

    /// Creates a scheduler that runs its actions on `actor`.
    ///
    /// - Parameters:
    ///   - actor: The actor whose serial executor runs the actions; `MainActor.shared` for the
    ///     main actor.
    public init(_ actor: any Actor) {
        self.actor = actor
    }

    /// Queues `action` to run on the actor after the actions already scheduled.
    ///
    /// - Parameters:
    ///   - action: The work to run.
    /// - Returns: A disposable that keeps the action from running if disposed of before it starts.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        let entry = ActorScheduledAction(action, queue: queue)
        let mustDrain = queue.withLock { queue -> Bool in
            queue.entries.append(entry)
            guard !queue.isDraining else { return false }
            queue.isDraining = true
            return true
        }
        if mustDrain {
            Task { await self.drain(on: self.actor) }
        }
        return entry
    }

    /// Runs the queued actions in order on `actor` until the queue is empty. The only drain
    /// running for this scheduler (`isDraining`).
    private func drain(on actor: isolated any Actor) async {
        var budget = Self.drainLimit
        while true {
            // `.some(nil)`: the entry was cancelled; `nil`: the queue is empty.
            let next = queue.withLock { queue -> (@Sendable () -> Void)?? in
                guard let entry = queue.entries.popFirst() else {
                    queue.isDraining = false
                    return nil
                }
                return .some(entry.action.take())
            }
            guard let action = next else { return }
            action?()
            budget -= 1
            if budget == 0 {
                budget = Self.drainLimit
                await Task.yield()
            }
        }
    }
}

extension ActorScheduler: OrderedDeliveryScheduler {}

/// The state of an `ActorScheduler`'s queue.
struct ActorSchedulerQueue: Sendable {
    var entries = FIFOQueue<ActorScheduledAction>()
    /// A drain task is pending or running: new actions join its queue.
    var isDraining = false
}

/// One scheduled action of an `ActorScheduler`, and the disposable that cancels it.
final class ActorScheduledAction: Disposable, @unchecked Sendable {
    // @unchecked Sendable: `action` and `disposed` are only read and written inside the lock of
    // the scheduler's queue (`queue`), which the entry keeps for that purpose.
    /// `nil` once the action was taken to run, or cancelled.
    var action: (@Sendable () -> Void)?
    private var disposed = false
    private let queue: Locked<ActorSchedulerQueue>

    init(_ action: @escaping @Sendable () -> Void, queue: Locked<ActorSchedulerQueue>) {
        self.action = action
        self.queue = queue
    }

    var isDisposed: Bool { queue.withLock { _ in disposed } }

    func dispose() {
        let action = queue.withLock { _ -> (@Sendable () -> Void)? in
            disposed = true
            return self.action.take()
        }
        // Released after the lock (O7).
        _ = action
    }
}
