#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: Stage

extension Signal.Event {
    /// The stage behind `timeout(after:raising:on:)`: upstream events pass through at once, on
    /// their own thread; if upstream has not terminated `interval` seconds after the stage was set
    /// up, the stage fails with `error` on `scheduler`.
    ///
    /// `convert` maps upstream events to output events (the identity, or a promotion from `Never`).
    static func timeout<F>(
        after interval: TimeInterval,
        raising error: F,
        on scheduler: DateScheduler,
        convert: @escaping (Signal<Value, Error>.Event) -> Signal<Value, F>.Event
    ) -> TimeShiftingTransform<Value, Error, Value, F> {
        precondition(
            !interval.isNaN && interval >= 0, "Rivulet: timeout(after:raising:on:): interval is \(interval); it must be 0 or more"
        )
        return { downstream, lifetime, upstream in
            // A disposed start is interrupted at once, as ReactiveSwift's per-start signal operator
            // is, and then its upstream, which runs in a lifetime of its own (ReactiveSwift lifts
            // this operator onto a start of its upstream).
            let stage = TimedStage<Value, Error, Value, F>(
                downstream: downstream, lifetime: lifetime, upstream: upstream, interruptingOn: nil
            ) { stage, input in
                switch input {
                case let .upstream(event): stage.emit(convert(event))
                case .timer: stage.emit(.failed(error))
                case .hop: break
                }
            }
            stage.scheduleTimer(at: scheduler.currentDate.addingTimeInterval(interval), on: scheduler, generation: 0)
            return stage.upstreamSink
        }
    }
}

extension Signal.Event where Error == Never {
    /// The events of a stream that cannot fail, as events of one that can fail with `F`.
    static func promotingError<F>(_ event: Signal<Value, Never>.Event) -> Signal<Value, F>.Event {
        switch event {
        case let .value(value): .value(value)
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}

// MARK: Operators

extension Signal {
    /// A signal that forwards this signal's events, but fails with `error` on `scheduler` if this
    /// signal has not terminated `interval` seconds after the returned signal was created.
    ///
    /// - Parameters:
    ///   - interval: The time allowed, in seconds; not negative (precondition). With 0 the timeout
    ///     is due at once: only a signal that terminates before the scheduler runs it escapes it.
    ///   - error: The error to fail with.
    ///   - scheduler: Where and by whose clock the failure is sent.
    /// - Returns: A signal of this signal's events, forwarded as they come, that fails with `error`
    ///   if this signal has not terminated in time.
    /// - Precondition: `interval` is 0 or more (not NaN).
    public func timeout(
        after interval: TimeInterval,
        raising error: Error,
        on scheduler: DateScheduler
    ) -> Signal<Value, Error> where Value: Sendable {
        flatMapTimeShifted(Event.timeout(after: interval, raising: error, on: scheduler) { $0 })
    }
}

extension Signal where Error == Never {
    /// A signal that forwards this signal's events, but fails with `error` on `scheduler` if this
    /// signal has not terminated `interval` seconds after the returned signal was created.
    ///
    /// - Parameters:
    ///   - interval: The time allowed, in seconds; not negative (precondition).
    ///   - error: The error to fail with; the result's error type.
    ///   - scheduler: Where and by whose clock the failure is sent.
    /// - Returns: A signal of this signal's events, forwarded as they come, that fails with `error`
    ///   if this signal has not terminated in time.
    public func timeout<NewError>(
        after interval: TimeInterval,
        raising error: NewError,
        on scheduler: DateScheduler
    ) -> Signal<Value, NewError> where Value: Sendable {
        flatMapTimeShifted(Event.timeout(after: interval, raising: error, on: scheduler, convert: Event.promotingError))
    }
}

extension SignalProducer {
    /// A producer that forwards this producer's events, but fails with `error` on `scheduler` if
    /// a start has not terminated `interval` seconds after it began.
    ///
    /// - Parameters:
    ///   - interval: The time allowed, in seconds; not negative (precondition).
    ///   - error: The error to fail with.
    ///   - scheduler: Where and by whose clock the failure is sent.
    /// - Returns: A producer whose starts forward this producer's events as they come, and fail
    ///   with `error` if this producer's start has not terminated in time.
    /// - Precondition: `interval` is 0 or more (not NaN).
    public func timeout(
        after interval: TimeInterval,
        raising error: Error,
        on scheduler: DateScheduler
    ) -> SignalProducer<Value, Error> where Value: Sendable {
        flatMapTimeShifted(Signal.Event.timeout(after: interval, raising: error, on: scheduler) { $0 })
    }
}

extension SignalProducer where Error == Never {
    /// A producer that forwards this producer's events, but fails with `error` on `scheduler` if
    /// a start has not terminated `interval` seconds after it began.
    ///
    /// - Parameters:
    ///   - interval: The time allowed, in seconds; not negative (precondition).
    ///   - error: The error to fail with; the result's error type.
    ///   - scheduler: Where and by whose clock the failure is sent.
    /// - Returns: A producer whose starts forward this producer's events as they come, and fail
    ///   with `error` if this producer's start has not terminated in time.
    public func timeout<NewError>(
        after interval: TimeInterval,
        raising error: NewError,
        on scheduler: DateScheduler
    ) -> SignalProducer<Value, NewError> where Value: Sendable {
        flatMapTimeShifted(
            Signal.Event.timeout(after: interval, raising: error, on: scheduler, convert: Signal.Event.promotingError)
        )
    }
}
