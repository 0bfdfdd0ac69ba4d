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

    /// Creates a scheduler with its own serial queue.
    ///
    /// - Parameters:
    ///   - qos: The quality of service of the queue.
    ///   - name: The queue's label, shown by debuggers and crash reports.
    ///   - targetQueue: A queue to target. The scheduler's queue stays serial even if the target
    ///     is concurrent.
    public init(
        qos: DispatchQoS = .default,
        name: String = "org.rivulet.QueueScheduler",
        targeting targetQueue: DispatchQueue? = nil
    ) {
        queue = DispatchQueue(label: name, qos: qos, target: targetQueue)
    }

    /// A scheduler on an existing serial queue.
    init(existingQueue: DispatchQueue) {
        queue = existingQueue
    }

    /// Runs `action` asynchronously on the queue, after the actions already queued.
    ///
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
    /// A run already under way when the disposable is disposed of finishes; no run starts after.
    ///
    /// - Parameters:
    ///   - date: When the first run is due.
    ///   - interval: The time between runs; positive and not `.never` (precondition).
    ///   - leeway: How late the system may fire each run to group wake-ups.
    ///   - action: The work to run each time.
    /// - Returns: A disposable that cancels the underlying dispatch timer.
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
        return DispatchTimerDisposable(timer)
    }
}

/// Owns a running dispatch timer and cancels it when disposed of.
final class DispatchTimerDisposable: Disposable {
    /// A dispatch source, which may be used from any thread.
    private struct Source: @unchecked Sendable {
        // @unchecked Sendable: Dispatch sources are thread-safe objects (their methods may be
        // called from any thread); `DispatchSourceTimer` is only not marked `Sendable`.
        let timer: any DispatchSourceTimer
    }

    /// The timer, until it is cancelled: taken out once, under the lock, by the one `dispose` that
    /// cancels it.
    private let source: Locked<Source?>

    init(_ timer: any DispatchSourceTimer) {
        source = Locked(Source(timer: timer))
    }

    var isDisposed: Bool { source.withLock { $0 == nil } }

    func dispose() {
        let running = source.withLock { source in
            defer { source = nil }
            return source
        }
        running?.timer.cancel()
    }
}
