import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A scheduler backed by a serial dispatch queue, with the wall clock as its clock.
///
/// Actions run one at a time on `queue`, never concurrently with each other, and actions scheduled
/// with `schedule(_:)` run in the order they were scheduled.
public final class QueueScheduler: DateScheduler {
    /// A scheduler on the main queue. Unlike `UIScheduler`, it always goes through the queue, even
    /// when called on the main thread.
    public static let main = QueueScheduler(existingQueue: .main)

    /// The serial queue the actions run on.
    public let queue: DispatchQueue

    /// The current wall-clock date.
    public var currentDate: Date { Date() }

    /// The repeating timers running on this scheduler, kept alive until they are disposed of (or
    /// the scheduler goes away), whether or not their disposables are kept.
    private let timers = RepeatingTimers()

    /// The queue that keeps `observe(on:)` deliveries of different streams in order.
    @usableFromInline package let orderedDelivery = OrderedDeliveryQueue()

    /// Creates a scheduler with its own serial queue.
    ///
    /// - Parameters:
    ///   - qos: The quality of service of the queue. With the default, `.unspecified`, the queue
    ///     takes the quality of service of the work submitted to it.
    ///   - name: The queue's label, shown by debuggers and crash reports.
    ///   - targetQueue: A queue to target. The scheduler's queue stays serial even if the target
    ///     is concurrent.
    public init(
        qos: DispatchQoS = .unspecified,
        name: String = "org.rivulet.QueueScheduler",
        targeting targetQueue: DispatchQueue? = nil
    ) {
        queue = DispatchQueue(label: name, qos: qos, target: targetQueue)
    }

    /// Creates a scheduler with its own serial queue that targets `queue`.
    ///
    /// Kept for code written against ReactiveSwift, which makes it unavailable on Apple platforms
    /// (as here); use `init(qos:name:targeting:)`.
    ///
    /// - Parameters:
    ///   - queue: The queue to target; the scheduler's own queue stays serial.
    ///   - name: The label of the scheduler's queue.
    @available(macOS, deprecated: 10.10, obsoleted: 10.11, message: "Use init(qos:name:targeting:) instead")
    @available(iOS, deprecated: 8.0, obsoleted: 9.0, message: "Use init(qos:name:targeting:) instead.")
    public convenience init(queue: DispatchQueue, name: String = "org.rivulet.QueueScheduler") {
        self.init(existingQueue: DispatchQueue(label: name, target: queue))
    }

    /// A scheduler on an existing serial queue.
    init(existingQueue: DispatchQueue) {
        queue = existingQueue
    }

    /// Runs `action` asynchronously on the queue, after the actions already queued.
    ///
    /// - Parameter action: The work to run on the queue.
    /// - Returns: A disposable that prevents the action from running if disposed of before it starts.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        let disposable = AnyDisposable()
        queue.async {
            if !disposable.isDisposed {
                action()
            }
        }
        return disposable
    }

    /// Runs `action` on the queue once the wall clock reaches `date`, never earlier.
    ///
    /// - Parameters:
    ///   - date: When the work is due; a date in the past means as soon as possible.
    ///   - action: The work to run on the queue.
    /// - Returns: A disposable that prevents the action from running if disposed of before it starts.
    @discardableResult
    public func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> Disposable? {
        let disposable = AnyDisposable()
        runWhenDue(date, unless: disposable, action)
        return disposable
    }

    /// Waits for `date` on the queue, then runs `action` unless `disposable` was disposed of.
    ///
    /// The dispatch wall clock and `Date()` may disagree by a rounding step, so the deadline is
    /// checked against `currentDate` and the wait renewed if the timer fired a hair too soon.
    private func runWhenDue(_ date: Date, unless disposable: Disposable, _ action: @escaping @Sendable () -> Void) {
        queue.asyncAfter(wallDeadline: DispatchWallTime(date: date)) { [self] in
            guard !disposable.isDisposed else { return }
            if currentDate < date {
                runWhenDue(date, unless: disposable, action)
            } else {
                action()
            }
        }
    }

    /// Runs `action` on the queue first at `date`, then every `interval`, until the returned
    /// disposable is disposed of.
    ///
    /// The scheduler keeps the timer running even if the disposable is released without being
    /// disposed of, as ReactiveSwift does; it stops when the disposable is disposed of, or when
    /// both the scheduler and the disposable are gone. A run already under way when the disposable
    /// is disposed of finishes; no run starts after.
    ///
    /// - Parameters:
    ///   - date: When the first run is due.
    ///   - interval: The time between runs; positive and not `.never` (precondition).
    ///   - leeway: How late the system may fire each run to group wake-ups.
    ///   - action: The work to run each time.
    /// - Returns: A disposable that cancels the underlying dispatch timer.
    /// - Precondition: `interval` is greater than 0 and not `.never`.
    @discardableResult
    public func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        _ = interval.checkedRepeatInterval(for: "QueueScheduler.schedule(after:interval:leeway:action:)")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(wallDeadline: DispatchWallTime(date: date), repeating: interval, leeway: leeway)
        timer.setEventHandler(handler: action)
        timer.resume()
        return timers.add(timer)
    }
}

/// The running repeating timers of one `QueueScheduler`. A dispatch timer stops when its last
/// reference goes, so the scheduler holds each one here until it is disposed of.
private final class RepeatingTimers: Sendable {
    private let running = Locked<[ObjectIdentifier: DispatchTimerDisposable.Source]>([:])

    /// Keeps `timer` until the returned disposable is disposed of.
    func add(_ timer: any DispatchSourceTimer) -> Disposable {
        let disposable = DispatchTimerDisposable(timer, registry: self)
        running.withLock { $0[ObjectIdentifier(disposable)] = DispatchTimerDisposable.Source(timer: timer) }
        return disposable
    }

    /// Forgets the timer of `disposable`. It is returned so that it is released after the lock.
    func remove(_ disposable: DispatchTimerDisposable) -> (any DispatchSourceTimer)? {
        running.withLock { $0.removeValue(forKey: ObjectIdentifier(disposable)) }?.timer
    }
}

/// Owns a running dispatch timer, with the scheduler's registry, and cancels it when disposed of.
private final class DispatchTimerDisposable: Disposable {
    /// A dispatch source, which may be used from any thread.
    fileprivate struct Source: @unchecked Sendable {
        // @unchecked Sendable: Dispatch sources are thread-safe objects (their methods may be
        // called from any thread); `DispatchSourceTimer` is only not marked `Sendable`.
        let timer: any DispatchSourceTimer
    }

    private struct State {
        /// The timer, until it is cancelled: taken out once, by the one `dispose` that cancels it.
        var source: Source?
        /// The registry that also holds the timer; gone with the scheduler.
        weak var registry: RepeatingTimers?
    }

    private let state: Locked<State>

    init(_ timer: any DispatchSourceTimer, registry: RepeatingTimers) {
        state = Locked(State(source: Source(timer: timer), registry: registry))
    }

    var isDisposed: Bool { state.withLock { $0.source == nil } }

    func dispose() {
        let (running, registry) = state.withLock { state in
            defer { state.source = nil }
            return (state.source, state.registry)
        }
        guard let running else { return }
        // The registry's reference is released here too, outside both locks.
        let registered = registry?.remove(self)
        running.timer.cancel()
        _ = registered
    }
}

extension QueueScheduler: OrderedDeliveryScheduler {}
