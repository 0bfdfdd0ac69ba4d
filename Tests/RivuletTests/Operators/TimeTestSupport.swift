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
final class TimedRecorder<Value: Equatable, Error: Swift.Error & Equatable>: @unchecked Sendable {
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
    seconds: Double = 10
) -> EventRecorder<Value, Error>? {
    let recorder = EventRecorder<Value, Error>()
    let done = DispatchSemaphore(value: 0)
    producer.start { event in
        recorder.record(event)
        if event.isTerminating { done.signal() }
    }
    return waitFor(done, seconds: seconds) ? recorder : nil
}
