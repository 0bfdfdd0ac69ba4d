import Dispatch

/// A scheduler for the main thread: it runs actions on the main queue, in the order they were
/// scheduled.
///
/// When `schedule` is called on the main queue and no action of any `UIScheduler` is still waiting
/// or running, the action runs synchronously, before `schedule` returns, which saves a trip through
/// the queue (and a frame of latency in a UI). Otherwise the action is appended to the main queue,
/// so an action scheduled from inside another one runs after it, never nested within it.
///
/// On Linux the main queue only runs its work while the main thread services it (an async `main`,
/// `dispatchMain()`, or a run loop); on Apple platforms the app's run loop does this.
public final class UIScheduler: Scheduler {
    /// Tags the main queue so `schedule` can tell whether it runs on it. Evaluating it for the first
    /// time installs the tag.
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// The number of actions scheduled through any `UIScheduler` that have not finished yet: the
    /// ones waiting on the main queue and the one running synchronously.
    private static let pendingCount = AtomicCounter()

    /// The queue that keeps `observe(on:)` deliveries of different streams in order, shared by
    /// every `UIScheduler` since they all run on the main queue.
    private static let sharedOrderedDelivery = OrderedDeliveryQueue()

    /// The queue that keeps `observe(on:)` deliveries of different streams in order.
    @usableFromInline package var orderedDelivery: OrderedDeliveryQueue { Self.sharedOrderedDelivery }

    /// Creates a main-thread scheduler.
    public init() {
        _ = Self.mainQueueKey
    }

    /// Whether the caller is running on the main queue.
    static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    /// Runs `action` on the main queue: at once if called there with nothing else of the
    /// scheduler's pending, otherwise after the actions already scheduled.
    ///
    /// - Parameter action: The work to run on the main queue.
    /// - Returns: `nil` if the action ran synchronously; otherwise a disposable that prevents the
    ///   action from running if it is disposed of before the action starts.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        let position = Self.pendingCount.add(1, ordering: .sequentiallyConsistent).newValue
        if position == 1 && Self.isOnMainQueue {
            defer { Self.pendingCount.subtract(1, ordering: .sequentiallyConsistent) }
            action()
            return nil
        }

        let disposable = AnyDisposable()
        DispatchQueue.main.async {
            defer { Self.pendingCount.subtract(1, ordering: .sequentiallyConsistent) }
            if !disposable.isDisposed {
                action()
            }
        }
        return disposable
    }
}

extension UIScheduler: OrderedDeliveryScheduler {}
