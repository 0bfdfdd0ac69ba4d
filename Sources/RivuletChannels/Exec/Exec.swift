import Dispatch

/// Where a channel runs a processor or a handler: on the thread that delivers (`direct`, the
/// default everywhere) or through one of the core's schedulers.
///
/// Whatever the context, a stage's closure is never called concurrently with itself and sees
/// results in order (A9). Activation values (A2) are the exception to the hop: they are processed
/// synchronously, on the activating thread, inside `subscribe`, whatever the context.
public struct Exec: Sendable {
    /// The scheduler that runs the closure, or `nil` to run it on the delivering thread.
    public let scheduler: (any Scheduler)?

    /// An execution context that runs closures through `scheduler`, in order.
    ///
    /// - Parameter scheduler: Where the closures run.
    public init(_ scheduler: any Scheduler) {
        self.scheduler = scheduler
    }

    private init(direct: Void) {
        scheduler = nil
    }

    /// Runs closures on the thread that delivers the value, before the send returns (E7).
    public static let direct = Exec(direct: ())

    /// Runs closures on the main thread: at once when already there and nothing is waiting,
    /// otherwise asynchronously (the core's `UIScheduler`).
    public static var main: Exec { Exec(UIScheduler()) }

    /// Runs closures asynchronously on the main queue, always.
    public static var mainAsync: Exec { Exec(QueueScheduler.main) }

    /// Runs closures asynchronously, one at a time, on a queue that targets the global
    /// concurrent queue.
    public static var global: Exec { Exec(QueueScheduler(name: "org.rivulet.Exec.global", targeting: .global())) }

    /// Runs closures on `queue` as `type` says.
    ///
    /// - Parameters:
    ///   - queue: The queue the closures run on.
    ///   - type: How the queue is used; `.serialAsync`: asynchronously, in order.
    /// - Returns: The execution context.
    public static func queue(_ queue: DispatchQueue, _ type: ExecutionType) -> Exec {
        switch type {
        case .serialAsync:
            return Exec(QueueScheduler(name: "org.rivulet.Exec.queue", targeting: queue))
        }
    }

    /// Whether closures run on the delivering thread.
    public var isDirect: Bool { scheduler == nil }

    /// How `Exec.queue(_:_:)` uses its queue.
    public enum ExecutionType: Sendable {
        /// Asynchronously, in order, on the queue (a serial queue, or a serial queue targeting it).
        case serialAsync
    }
}
