import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SignalProducer where Value == Date, Error == Never {
    /// A producer that sends the scheduler's current date every `interval`, starting `interval`
    /// after each start, and never completes (dispose of the start to stop it).
    ///
    /// The leeway is 10% of `interval`.
    ///
    /// - Parameters:
    ///   - interval: The time between dates: positive, not `.never` (precondition).
    ///   - scheduler: The clock, and where the dates are sent.
    /// - Returns: A producer of the scheduler's dates, one per `interval`.
    /// - Precondition: `interval` is greater than 0 and not `.never`; `leeway` is 0 or more.
    public static func timer(interval: DispatchTimeInterval, on scheduler: DateScheduler) -> SignalProducer<Date, Never> {
        timer(interval: interval, on: scheduler, leeway: interval * 0.1)
    }

    /// A producer that sends the scheduler's current date every `interval`, starting `interval`
    /// after each start, and never completes (dispose of the start to stop it).
    ///
    /// - Parameters:
    ///   - interval: The time between dates: positive, not `.never` (precondition).
    ///   - scheduler: The clock, and where the dates are sent.
    ///   - leeway: How late each date may be sent, which lets the system group wake-ups; not
    ///     negative (precondition).
    /// - Returns: A producer of the scheduler's dates, one per `interval`.
    /// - Precondition: `interval` is greater than 0 and not `.never`; `leeway` is 0 or more.
    public static func timer(
        interval: DispatchTimeInterval,
        on scheduler: DateScheduler,
        leeway: DispatchTimeInterval
    ) -> SignalProducer<Date, Never> {
        interval.checkTickInterval(for: "timer(interval:on:leeway:)")
        precondition(
            (leeway.nanosecondCount ?? .max) >= 0,
            "Rivulet: timer(interval:on:leeway:): leeway is \(leeway); it must be 0 or more")
        // A start handler: its core serializes the ticks, and disposal interrupts the chain at this
        // source (`materialize()` below sees it), as in ReactiveSwift.
        return SignalProducer { observer, lifetime in
            lifetime += scheduler.schedule(
                after: scheduler.currentDate + interval,
                interval: interval,
                leeway: leeway
            ) { observer.send(value: scheduler.currentDate) }
        }
    }
}

extension SignalProducer where Error == Never {
    /// A producer that sends the elements of `values` one per `interval`, the first `interval`
    /// after each start, and completes one `interval` after the last element (at once for an
    /// empty sequence's first tick).
    ///
    /// The sequence is iterated afresh on each start, on the scheduler.
    ///
    /// - Parameters:
    ///   - values: The elements to send; may be infinite (`0...`).
    ///   - interval: The time between elements: positive, not `.never` (precondition).
    ///   - scheduler: The clock, and where the elements are sent.
    /// - Returns: A producer of the elements of `values`, one per `interval`.
    /// - Precondition: `interval` is greater than 0 and not `.never`.
    public static func interval<S: Sequence>(
        _ values: S,
        interval: DispatchTimeInterval,
        on scheduler: DateScheduler
    ) -> SignalProducer<S.Element, Error> where S.Element == Value, S: Sendable, Value: Sendable {
        interval.checkTickInterval(for: "interval(_:interval:on:)")
        // A start handler, so that disposal interrupts the chain at this source; the mailbox keeps
        // the iterator to one tick at a time, whatever the scheduler.
        return SignalProducer { observer, lifetime in
            let timer = SerialDisposable()
            lifetime += timer
            var iterator: S.Iterator? = values.makeIterator()
            let mailbox = Mailbox<Void> { _ in
                guard iterator != nil else { return }
                if let value = iterator?.next() {
                    observer.send(value: value)
                } else {
                    iterator = nil
                    timer.dispose()
                    observer.sendCompleted()
                }
            }
            lifetime.observeEnded { mailbox.close() }
            timer.inner = scheduler.schedule(
                after: scheduler.currentDate + interval,
                interval: interval,
                leeway: interval * 0.1
            ) { mailbox.send(()) }
        }
    }

    /// A producer that counts 0, 1, 2, … one per `interval`, the first `interval` after each
    /// start, and never completes.
    ///
    /// - Parameters:
    ///   - interval: The time between numbers: positive, not `.never` (precondition).
    ///   - scheduler: The clock, and where the numbers are sent.
    /// - Returns: A producer of 0, 1, 2, …, one per `interval`.
    /// - Precondition: `interval` is greater than 0 and not `.never`.
    public static func interval(
        _ interval: DispatchTimeInterval,
        on scheduler: DateScheduler
    ) -> SignalProducer<Int, Never> where Value == Int {
        interval.checkTickInterval(for: "interval(_:on:)")
        return .interval(0..., interval: interval, on: scheduler)
    }
}

extension DispatchTimeInterval {
    /// Stops with a precondition failure naming `operatorName` unless this interval can pace a
    /// repeating tick: positive and not `.never`.
    ///
    /// Checked when the producer or signal is built, so the failure points at the call that asked
    /// for it rather than at a scheduler deep inside a start. ReactiveSwift accepts 0 and then
    /// ticks endlessly at one instant; Rivulet rejects it (and `.never`, which would never tick).
    func checkTickInterval(for operatorName: String) {
        guard let nanoseconds = nanosecondCount else {
            preconditionFailure("Rivulet: \(operatorName): interval is .never; it must be greater than 0 and not .never")
        }
        precondition(nanoseconds > 0, "Rivulet: \(operatorName): interval is \(self); it must be greater than 0 and not .never")
    }
}
