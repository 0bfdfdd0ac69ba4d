import Dispatch
import Foundation
import Testing
@testable import Rivulet

/// An event and the virtual time (seconds since the test scheduler's start) it was delivered at.
struct Timed<Value: Equatable, Error: Swift.Error & Equatable>: Equatable, CustomStringConvertible {
    let time: TimeInterval
    let event: Signal<Value, Error>.Event

    init(_ time: TimeInterval, _ event: Signal<Value, Error>.Event) {
        self.time = time
        self.event = event
    }

    var description: String { "\(time): \(event)" }
}

/// Records each event with the clock's time at delivery.
final class TimedRecorder<Value: Equatable & Sendable, Error: Swift.Error & Equatable>: @unchecked Sendable {
    // @unchecked Sendable: `entries` is a `Locked`, the only mutable storage.
    private let entries = Locked<[Timed<Value, Error>]>([])
    private let clock: DateScheduler
    private let start: Date

    init(clock: DateScheduler) {
        self.clock = clock
        start = clock.currentDate
    }

    var events: [Timed<Value, Error>] { entries.withLock { $0 } }

    var observer: Signal<Value, Error>.Observer {
        Signal<Value, Error>.Observer { [self] event in
            let time = (clock.currentDate.timeIntervalSince(start) * 1_000_000).rounded() / 1_000_000
            entries.withLock { $0.append(Timed(time, event)) }
        }
    }
}

/// A producer whose starts the test drives by hand: it keeps the latest start's input and counts
/// started and ended starts.
final class ManualProducer<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: `current` is a `Locked`; the counters are thread-safe.
    private let current = Locked<Signal<Value, Error>.Observer?>(nil)
    let starts = Counter()
    let ends = Counter()

    var input: Signal<Value, Error>.Observer? { current.withLock { $0 } }

    var producer: SignalProducer<Value, Error> {
        SignalProducer { [self] observer, lifetime in
            current.withLock { $0 = observer }
            starts.increment()
            lifetime.observeEnded { [ends] in ends.increment() }
        }
    }

    func send(_ event: Signal<Value, Error>.Event) {
        input?.send(event)
    }
}

/// A fresh test scheduler starting at the reference date.
func makeTestScheduler() -> TestScheduler {
    TestScheduler(startDate: Date(timeIntervalSinceReferenceDate: 0))
}

/// A date scheduler that runs every action at once, on the calling thread (dates are ignored),
/// for checking time-based operators synchronously with `expectOperator` (P3).
final class ImmediateDateScheduler: DateScheduler {
    var currentDate: Date { Date(timeIntervalSinceReferenceDate: 0) }

    func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        action()
        return nil
    }

    func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> Disposable? {
        action()
        return nil
    }

    func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        preconditionFailure("ImmediateDateScheduler cannot repeat")
    }
}

/// Starts `producer`, waits (at most `seconds`) for its terminal event, and returns what it
/// recorded, with the threads it was delivered on; `nil` if it did not terminate in time.
func recordUntilTerminated<Value, Error>(
    _ producer: SignalProducer<Value, Error>,
    seconds: Double = 300
) -> EventRecorder<Value, Error>? {
    let recorder = EventRecorder<Value, Error>()
    let done = DispatchSemaphore(value: 0)
    producer.start { event in
        recorder.record(event)
        if event.isTerminating { done.signal() }
    }
    return waitFor(done, seconds: seconds) ? recorder : nil
}

/// A date scheduler that keeps every action until `runAll()` and cannot cancel any (it returns
/// `nil`): it plays a scheduler whose callback was already on its way when the stream ended, so
/// tests can check that such a late callback delivers nothing and runs no user code.
final class UncancellableScheduler: DateScheduler {
    private let actions = Locked<[@Sendable () -> Void]>([])

    var currentDate: Date { Date(timeIntervalSinceReferenceDate: 0) }

    /// How many actions wait for `runAll()`.
    var pendingCount: Int { actions.withLock { $0.count } }

    func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        actions.withLock { $0.append(action) }
        return nil
    }

    func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> Disposable? {
        schedule(action)
    }

    /// Keeps the action for one run: `runAll()` runs it once.
    func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        schedule(action)
    }

    /// Runs every action kept so far, once, in the order they were scheduled.
    func runAll() {
        let taken = actions.withLock { actions in
            defer { actions = [] }
            return actions
        }
        for action in taken { action() }
    }
}

/// Starts `apply(upstream)`, sends `script` from upstream, disposes of the start, then runs the
/// callbacks `scheduler` could not cancel: the start must have ended with `interrupted` alone
/// after whatever was delivered before the disposal (`before`), and the upstream must be stopped.
func expectLateCallbacksDeliverNothing(
    _ script: [Signal<Int, TestError>.Event],
    before: [Signal<Int, TestError>.Event] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ apply: (SignalProducer<Int, TestError>, UncancellableScheduler) -> SignalProducer<Int, TestError>
) {
    let scheduler = UncancellableScheduler()
    let upstream = ManualProducer<Int, TestError>()
    let recorder = EventRecorder<Int, TestError>()
    let disposable = apply(upstream.producer, scheduler).start(recorder.observer)
    for event in script { upstream.send(event) }
    #expect(scheduler.pendingCount > 0, "nothing was scheduled: the test proves nothing", sourceLocation: sourceLocation)
    disposable.dispose()
    scheduler.runAll()
    #expect(recorder.events == before + [.interrupted], sourceLocation: sourceLocation)
    #expect(upstream.ends.value == upstream.starts.value, sourceLocation: sourceLocation)
}
