import Dispatch
import Foundation
import Rivulet
import RivuletContracts

// Deliberately broken operators, one per way of breaking a clause that the kit must catch.
// Each is written the way a plausible bug would be, not as a stub.

extension Signal {
    /// Forwards every event but a failure, which it drops.
    func swallowingFailure() -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                if case .failed = event { return }
                output.send(event)
            }
        }
    }

    /// Repeats the last value after completing, as a careless "flush" would.
    func repeatingLastValueAfterCompletion() -> Signal<Value, Error> {
        Signal { output, lifetime in
            var last: Value?
            lifetime += self.observe { event in
                output.send(event)
                if case let .value(value) = event { last = value }
                if event.isCompleted, let last { output.send(value: last) }
            }
        }
    }

    /// Reports a failure as completion.
    func completingOnFailure() -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                if case .failed = event { output.sendCompleted() } else { output.send(event) }
            }
        }
    }

    /// Reports an interruption as completion.
    func completingOnInterruption() -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                if case .interrupted = event { output.sendCompleted() } else { output.send(event) }
            }
        }
    }

    /// Delivers every event from a global dispatch queue: a thread hop without a scheduler.
    func hoppingThreads() -> Signal<Value, Error> where Value: Sendable {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                DispatchQueue.global().async { output.send(event) }
            }
        }
    }

    /// Runs its transform for each value on a helper thread as well as on the sender's, "to warm a
    /// cache": the user's closure then runs on two threads at once.
    func mapWarmingAhead<U>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U, Error> where Value: Sendable {
        Signal<U, Error> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    let warming = DispatchGroup()
                    DispatchQueue.global().async(group: warming) { _ = transform(value) }
                    output.send(value: transform(value))
                    warming.wait()
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// Calls its transform while holding its own lock, which its teardown takes too.
    func mapUnderItsLock<U>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U, Error> {
        Signal<U, Error> { output, lifetime in
            let lock = NSLock()
            lifetime.observeEnded { lock.withLock {} }
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    let mapped = lock.withLock { transform(value) }
                    output.send(value: mapped)
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// "Flushes" its last value through the transform when it is torn down: a disposal from
    /// inside the transform then runs the transform again, nested in itself.
    func mapFlushingOnTeardown<U>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U, Error> where Value: Sendable {
        Signal<U, Error> { output, lifetime in
            let last = LastValue<Value>()
            lifetime.observeEnded {
                if let value = last.value { _ = transform(value) }
            }
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    last.value = value
                    output.send(value: transform(value))
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// Waits, on the sender's thread, for a signal that never comes.
    func blockingOnFirstValue() -> Signal<Value, Error> {
        Signal { output, lifetime in
            let never = DispatchSemaphore(value: 0)
            lifetime += self.observe { event in
                if case .value = event { never.wait() }
                output.send(event)
            }
        }
    }

    /// Holds its own lock while it sends to the observer, and takes the same lock on teardown.
    func sendingUnderItsLock() -> Signal<Value, Error> {
        Signal { output, lifetime in
            let lock = NSLock()
            lifetime.observeEnded { lock.withLock {} }
            lifetime += self.observe { event in
                lock.withLock { output.send(event) }
            }
        }
    }

    /// Observes its input without tying the observation to its lifetime.
    func leakingItsUpstream() -> Signal<Value, Error> {
        Signal { output, _ in
            self.observe(output)
        }
    }
}

extension SignalProducer {
    /// Starts its source as soon as the operator is applied, to "warm it up".
    func startingEagerly() -> SignalProducer<Value, Error> {
        start()
        return self
    }

    /// Numbers values with a counter shared by every start.
    func numberedAcrossStarts() -> SignalProducer<String, Error> {
        let counter = SharedCounter()
        return map { value in "\(counter.next()): \(value)" }
    }

    /// Starts its source but drops the source's disposable: disposing of a start leaves the
    /// source running.
    func detachingItsSource() -> SignalProducer<Value, Error> where Value: Sendable {
        SignalProducer { observer, _ in
            self.start(observer)
        }
    }
}

/// A counter shared by every start of `numberedAcrossStarts`: locked, because the bug it shows is
/// state shared across starts (P2), not a data race.
final class SharedCounter: Sendable {
    private let count = Locked(0)

    func next() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
}

/// The last value `mapFlushingOnTeardown` saw.
final class LastValue<Value: Sendable>: Sendable {
    private let stored = Locked<Value?>(nil)

    var value: Value? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

extension Signal {
    /// Collects every value into one array, sent when the input ends, whichever way it ends: a
    /// failure or an interruption first flushes the held values, as a careless buffer would.
    func collectingAndFlushingOnAnyEnd() -> Signal<[Value], Error> {
        Signal<[Value], Error> { output, lifetime in
            let held = Locked<[Value]>([])
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    held.withLock { $0.append(value) }
                case .completed, .failed, .interrupted:
                    let values = held.withLock { held in
                        defer { held = [] }
                        return held
                    }
                    if !values.isEmpty { output.send(value: values) }
                    switch event {
                    case let .failed(error): output.send(error: error)
                    case .interrupted: output.sendInterrupted()
                    default: output.sendCompleted()
                    }
                }
            }
        }
    }
}

extension Signal where Value: Sendable {
    /// Delays values and completion by `interval` on `scheduler`, but drops the disposables of
    /// what it schedules: after an interruption, its deliveries are still on the scheduler.
    func delayingAndForgetting(_ interval: TimeInterval, on scheduler: TestScheduler) -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                let due = scheduler.currentDate.addingTimeInterval(interval)
                switch event {
                case let .value(value):
                    scheduler.schedule(after: due) { output.send(value: value) }
                case .completed:
                    scheduler.schedule(after: due) { output.sendCompleted() }
                case .failed, .interrupted:
                    output.send(event)
                }
            }
        }
    }
}

/// The last transform `mapRememberingTransform` was given, kept for "reuse".
private let rememberedTransform = Locked<(@Sendable (Int) -> Int)?>(nil)

extension Signal where Value == Int {
    /// Maps with `transform`, and remembers it in a shared cache, as a careless memoizer would:
    /// the closure, and all it captures, outlive the operator's output.
    func mapRememberingTransform(_ transform: @escaping @Sendable (Int) -> Int) -> Signal<Int, Error> {
        rememberedTransform.withLock { $0 = transform }
        return map(transform)
    }
}

extension SignalProducer {
    /// Forwards its source, but starts it outside the start's lifetime: once the start is
    /// disposed of (and so interrupted), the source's later values are still sent into it.
    func forwardingPastDisposal() -> SignalProducer<Value, Error> where Value: Sendable {
        SignalProducer { observer, _ in
            self.start(observer)
        }
    }
}

extension Signal {
    /// Forwards every event after waiting 0.1 s, as an operator that polls or retries with a
    /// sleep would: far below the kit's deadline, and still holding up every sender.
    func pausingBeforeEachEvent() -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                Thread.sleep(forTimeInterval: 0.1)
                output.send(event)
            }
        }
    }
}
