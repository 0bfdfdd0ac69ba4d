#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: State machine

/// The state of `throttle(_:on:)`: the latest value, and when the last one went out.
struct ThrottleStateMachine<Value, Error: Swift.Error>: TimedStateMachine {
    typealias Output = Value
    typealias OutputError = Error
    typealias Action = TimedAction<Output, OutputError>

    let interval: TimeInterval
    private var pending: Value?
    /// When the last value was sent.
    private var previousDate: Date?
    /// The date and generation of the current timer.
    private var scheduled: (date: Date, generation: UInt64)?
    private var generation: UInt64 = 0
    private(set) var terminal: Signal<Value, Error>.Event?

    init(interval: TimeInterval) {
        self.interval = interval
    }

    mutating func receive(_ event: Signal<Value, Error>.Event, now: () -> Date) -> Action {
        switch event {
        case let .value(value):
            pending = value
            let now = now()
            // Due `interval` after the last send, or now if that has passed (or if the clock
            // went back before the last send).
            var date = now
            if let previousDate, previousDate <= now {
                date = max(previousDate.addingTimeInterval(interval), now)
            }
            generation &+= 1
            scheduled = (date, generation)
            return .scheduleTimer(date, generation: generation)
        case .completed, .failed, .interrupted:
            terminal = event
            return .hop
        }
    }

    /// A timer fired; only the latest one counts.
    mutating func timerFired(generation fired: UInt64) -> Action {
        guard let scheduled, scheduled.generation == fired, let value = pending else { return .none }
        pending = nil
        previousDate = scheduled.date
        return .emit(.value(value))
    }
}

/// The state of `throttle(while:on:)`: whether values are held back, and the latest one held.
struct ThrottleWhileStateMachine<Value, Error: Swift.Error> {
    /// An input of the gate.
    enum Input {
        case upstream(Signal<Value, Error>.Event)
        case shouldThrottle(Bool)
    }

    private var isThrottled = false
    private var held: Value?
    private var isTerminated = false

    /// A new value of the condition; returns the held value to send if the gate opened.
    mutating func shouldThrottleChanged(to shouldThrottle: Bool) -> Value? {
        guard !isTerminated, shouldThrottle != isThrottled else { return nil }
        isThrottled = shouldThrottle
        guard !shouldThrottle else { return nil }
        defer { held = nil }
        return held
    }

    /// An upstream event; returns the event to send now, if any.
    mutating func receive(_ event: Signal<Value, Error>.Event) -> Signal<Value, Error>.Event? {
        guard !isTerminated else { return nil }
        switch event {
        case let .value(value):
            if isThrottled {
                held = value
                return nil
            }
            return event
        case .completed, .failed, .interrupted:
            // A held value is dropped: the stream ends at once.
            isTerminated = true
            held = nil
            return event
        }
    }
}

// MARK: Stages

extension Signal.Event {
    /// The stage behind `throttle(_:on:)`.
    static func throttle(
        _ interval: TimeInterval,
        on scheduler: DateScheduler
    ) -> TimeShiftingTransform<Value, Error, Value, Error> {
        precondition(interval >= 0, "Rivulet: throttle(_:on:): interval is \(interval); it must be 0 or more")
        return { downstream, lifetime, upstream in
            TimedStage.running(
                ThrottleStateMachine<Value, Error>(interval: interval),
                on: scheduler,
                downstream: downstream,
                lifetime: lifetime,
                upstream: upstream
            ).upstreamSink
        }
    }

    /// The gate behind `throttle(while:on:)`, before its hop onto the scheduler: `shouldThrottle`
    /// and upstream enter through one mailbox (which never makes either wait for the other).
    static func throttle(
        while shouldThrottle: SignalProducer<Bool, Never>
    ) -> EventTransform<Value, Error, Value, Error> {
        { downstream, lifetime in
            var state = ThrottleWhileStateMachine<Value, Error>()
            let mailbox = Mailbox<ThrottleWhileStateMachine<Value, Error>.Input>(policy: .queueForOwner) { input in
                switch input {
                case let .upstream(event):
                    if let event = state.receive(event) { downstream(event) }
                case let .shouldThrottle(value):
                    if let held = state.shouldThrottleChanged(to: value) { downstream(.value(held)) }
                }
            }
            lifetime.observeEnded { mailbox.close(.discardingAcceptedInputs) }
            // The condition is observed first, so that its current value applies to the first
            // upstream value. Its termination is ignored: a condition that ends keeps its last value.
            let conditionLifetime = CompositeDisposable()
            lifetime += conditionLifetime
            shouldThrottle.startInstance(
                { event in
                    if case let .value(value) = event { mailbox.send(.shouldThrottle(value)) }
                }, Lifetime(conditionLifetime))
            return { event in mailbox.send(.upstream(event)) }
        }
    }
}

// MARK: Operators

extension Signal {
    /// A signal that sends the latest value at most once per `interval` seconds, on `scheduler`.
    ///
    /// A value is sent at once (on the scheduler) if `interval` has passed since the last one went
    /// out; otherwise it waits until then, and a newer value replaces it. Terminal events are not
    /// delayed; a value still waiting when this signal terminates is dropped, unless its time had
    /// already come on the scheduler: a value due by the moment the terminal event is handled
    /// goes out first.
    ///
    /// - Parameters:
    ///   - interval: The minimum time between two values, in seconds; not negative (precondition).
    ///   - scheduler: Where and by whose clock the events are sent.
    /// - Returns: A signal of this signal's values, at most one per `interval` (the latest one
    ///   received), sent on `scheduler`; it ends, also on `scheduler`, when this signal ends.
    /// - Precondition: `interval` is 0 or more (not NaN).
    public func throttle(_ interval: TimeInterval, on scheduler: DateScheduler) -> Signal<Value, Error> where Value: Sendable {
        flatMapTimeShifted(Event.throttle(interval, on: scheduler))
    }

    /// A signal that holds values back while `shouldThrottle` is `true` and sends the latest held
    /// value when it turns `false`; every event is sent on `scheduler`.
    ///
    /// If this signal terminates while a value is held, the value is dropped. If `shouldThrottle`
    /// ends while `true`, values stay held back until this signal terminates.
    ///
    /// - Parameters:
    ///   - shouldThrottle: The condition: a signal, producer or property of `Bool`.
    ///   - scheduler: Where the events are sent.
    /// - Returns: A signal of this signal's values not superseded while held back, with every event
    ///   sent on `scheduler`; it ends when this signal ends.
    public func throttle<P: SignalProducerConvertible>(
        while shouldThrottle: P,
        on scheduler: Scheduler
    ) -> Signal<Value, Error> where P.Value == Bool, P.Error == Never, Value: Sendable {
        flatMapEvent(Event.throttle(while: shouldThrottle.producer)).observe(on: scheduler)
    }
}

extension SignalProducer {
    /// A producer that sends the latest value at most once per `interval` seconds, on
    /// `scheduler`; see `Signal.throttle(_:on:)`.
    ///
    /// - Parameters:
    ///   - interval: The minimum time between two values, in seconds; not negative (precondition).
    ///   - scheduler: Where and by whose clock the events are sent.
    /// - Returns: A producer whose starts send their values, at most one per `interval` (the latest
    ///   one received), on `scheduler`, and end there when this producer's start ends.
    /// - Precondition: `interval` is 0 or more (not NaN).
    public func throttle(_ interval: TimeInterval, on scheduler: DateScheduler) -> SignalProducer<Value, Error>
    where Value: Sendable {
        flatMapTimeShifted(Signal.Event.throttle(interval, on: scheduler))
    }

    /// A producer that holds values back while `shouldThrottle` is `true`; see
    /// `Signal.throttle(while:on:)`.
    ///
    /// Disposing of a start interrupts it at once, not on `scheduler`, and then stops this
    /// producer's start, as in ReactiveSwift.
    ///
    /// - Parameters:
    ///   - shouldThrottle: The condition: a signal, producer or property of `Bool`.
    ///   - scheduler: Where the events are sent.
    /// - Returns: A producer whose starts send their values not superseded while held back, with
    ///   every event on `scheduler`, and end when this producer's start ends.
    public func throttle<P: SignalProducerConvertible>(
        while shouldThrottle: P,
        on scheduler: Scheduler
    ) -> SignalProducer<Value, Error> where P.Value == Bool, P.Error == Never, Value: Sendable {
        let throttled = flatMapEvent(Signal.Event.throttle(while: shouldThrottle.producer)).observe(on: scheduler)
        // ReactiveSwift lifts the signal operator onto a start of this producer: a disposed start
        // is interrupted below at once, then the upstream's start is disposed of.
        return .fused({ downstream, lifetime in
            let (upstream, relay) = UpstreamLifetime.relaying(to: downstream, in: lifetime)
            throttled.startInstance(relay, upstream.lifetime)
        })
    }
}
