// take(first:), take(last:), take(while:), take(until:) (predicate and trigger), take(during:),
// take(untilReplacement:)

extension Signal.Event {
    /// The stage behind `take(first:)`: forwards `count` values (at least one), then completes.
    ///
    /// Completing ends the stream's lifetime, so on a producer the upstream work stops at once.
    @inlinable
    static func take(first count: Int) -> EventTransform<Value, Error, Value, Error> {
        { downstream, _ in
            var remaining = count
            return { event in
                guard remaining > 0 else { return }
                switch event {
                case .value:
                    remaining -= 1
                    downstream(event)
                    if remaining == 0 { downstream(.completed) }
                case .failed, .completed, .interrupted:
                    remaining = 0
                    downstream(event)
                }
            }
        }
    }

    /// The stage behind `take(last:)`: keeps the last `count` values and sends them on completion.
    @usableFromInline
    static func take(last count: Int) -> EventTransform<Value, Error, Value, Error> {
        { downstream, _ in
            var buffer = RingBuffer<Value>(capacity: count, reservingStorage: true)
            var isDone = false
            return { event in
                guard !isDone else { return }
                switch event {
                case let .value(value):
                    buffer.append(value)
                case .completed:
                    isDone = true
                    let values = buffer.drain()
                    for value in values { downstream(.value(value)) }
                    downstream(.completed)
                case .failed, .interrupted:
                    isDone = true
                    buffer.removeAll()
                    downstream(event)
                }
            }
        }
    }

    /// The stage behind `take(while:)` and `take(until:)` with a predicate: forwards values while
    /// `shouldContinue` holds and completes at the first value for which it does not, after
    /// forwarding that value if `sendsLast` is set (`take(until:)`) or dropping it (`take(while:)`).
    @inlinable
    static func take(
        while shouldContinue: @escaping (Value) -> Bool,
        sendsLast: Bool
    ) -> EventTransform<Value, Error, Value, Error> {
        { downstream, _ in
            var isDone = false
            return { event in
                guard !isDone else { return }
                switch event {
                case let .value(value):
                    if shouldContinue(value) {
                        downstream(event)
                    } else {
                        isDone = true
                        if sendsLast { downstream(event) }
                        downstream(.completed)
                    }
                case .failed, .completed, .interrupted:
                    isDone = true
                    downstream(event)
                }
            }
        }
    }
}

extension Signal {
    /// A signal of the first `count` values of this signal; it completes right after the last one.
    ///
    /// With a `count` of zero the result has already completed, so observers see `interrupted`
    /// (S3), as in ReactiveSwift.
    ///
    /// - Parameter count: How many values to forward; 0 or more.
    /// - Returns: A signal of this signal's first `count` values that completes right after the
    ///   last of them, or ends earlier with this signal; already completed when `count` is 0.
    /// - Precondition: `count` is not negative.
    @inlinable
    public func take(first count: Int) -> Signal<Value, Error> {
        precondition(count >= 0, "Rivulet: take(first:): count is \(count); it must be 0 or more")
        guard count > 0 else { return .empty }
        return flatMapEventSharingTurn(Event.take(first: count))
    }

    /// A signal that waits for this signal to complete, then sends its last `count` values and
    /// completes. A failure or interruption is forwarded at once and the kept values are dropped.
    /// With a `count` of 0 it sends no value and completes when this signal completes
    /// (ReactiveSwift stops with a precondition failure there).
    ///
    /// - Parameter count: How many of the latest values to keep; 0 or more.
    /// - Returns: A signal that sends the kept values and completes when this signal completes, and
    ///   fails or is interrupted at once when this signal does (E2, E4).
    /// - Precondition: `count` is not negative.
    @inlinable
    public func take(last count: Int) -> Signal<Value, Error> {
        precondition(count >= 0, "Rivulet: take(last:): count is \(count); it must be 0 or more")
        return flatMapEventSharingTurn(Event.take(last: count))
    }

    /// A signal that forwards values while `shouldContinue` holds, and completes at the first value
    /// for which it returns `false`, without sending that value.
    ///
    /// - Parameter shouldContinue: The test; called for each value until it returns `false`.
    /// - Returns: A signal of the values before the first one that fails `shouldContinue`; it
    ///   completes at that value, or ends earlier with this signal.
    @inlinable
    public func take(while shouldContinue: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Error> {
        flatMapEventSharingTurn(Event.take(while: shouldContinue, sendsLast: false))
    }

    /// A signal that forwards each value and completes right after the first one for which
    /// `shouldContinue` returns `false` (that value is sent too).
    ///
    /// - Parameter shouldContinue: The test; called for each value until it returns `false`.
    /// - Returns: A signal of the values up to and including the first one that fails
    ///   `shouldContinue`; it completes right after that value, or ends earlier with this signal.
    @inlinable
    public func take(until shouldContinue: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Error> {
        flatMapEventSharingTurn(Event.take(while: shouldContinue, sendsLast: true))
    }

    /// A signal that forwards this signal's events until `trigger` sends a value or completes, and
    /// then completes. An interruption of `trigger` is ignored.
    ///
    /// - Parameter trigger: The signal whose first value or completion completes the result; its
    ///   interruption is ignored.
    /// - Returns: A signal that forwards this signal's events until `trigger` fires, then
    ///   completes.
    public func take(until trigger: Signal<(), Never>) -> Signal<Value, Error> {
        Signal { output, lifetime in
            let gate = GateRunner(
                TakeUntilStateMachine<Value, Error>(), downstream: output.sink, lifetime: lifetime, startsOperands: false
            )
            gate.observe(self, as: .source) { gate.receive(.source($0), from: 0) }
            gate.observe(trigger, as: .other) { gate.receive(.trigger($0), from: 1) }
        }
    }

    /// A signal that forwards this signal's events until `lifetime` ends, and then completes.
    ///
    /// If `lifetime` has already ended, the result has already completed.
    ///
    /// - Parameter lifetime: The lifetime whose end completes the result.
    /// - Returns: A signal that forwards this signal's events until `lifetime` ends, then
    ///   completes.
    public func take(during lifetime: Lifetime) -> Signal<Value, Error> {
        Signal { output, streamLifetime in
            let gate = GateRunner(
                TakeDuringStateMachine<Value, Error>(), downstream: output.sink, lifetime: streamLifetime, hasOther: false,
                startsOperands: false
            )
            gate.observe(self, as: .source) { gate.receive(.source($0), from: 0) }
            gate.source += lifetime.observeEnded { gate.receive(.ended, from: -1) }
        }
    }

    /// A signal that forwards this signal's values until `replacement` sends its first event, then
    /// stops observing this signal and forwards `replacement`'s events instead.
    ///
    /// This signal's completion is not forwarded (the replacement is still to come); its failure
    /// and interruption are, at once.
    ///
    /// - Parameter replacement: The signal that takes over at its first event, whether a value or a
    ///   terminal event.
    /// - Returns: A signal of this signal's values until `replacement`'s first event, then of
    ///   `replacement`'s events; it ends when `replacement` ends, or when this signal fails or is
    ///   interrupted before that.
    public func take(untilReplacement replacement: Signal<Value, Error>) -> Signal<Value, Error> {
        Signal { output, lifetime in
            let gate = GateRunner(
                TakeUntilReplacementStateMachine<Value, Error>(), downstream: output.sink, lifetime: lifetime,
                startsOperands: false
            )
            gate.observe(self, as: .source) { gate.receive(.source($0), from: 0) }
            gate.observe(replacement, as: .other) { gate.receive(.replacement($0), from: 1) }
        }
    }
}

extension SignalProducer {
    /// A producer of the first `count` values of each start; it completes right after the last
    /// one, which ends the start's lifetime and so stops the upstream work.
    ///
    /// With a `count` of zero the result is interrupted at once without starting this producer,
    /// as in ReactiveSwift.
    ///
    /// - Parameter count: How many values of each start to forward; 0 or more.
    /// - Returns: A producer whose starts send the first `count` values and then complete, or end
    ///   earlier with this producer's start; interrupted at once when `count` is 0.
    /// - Precondition: `count` is not negative.
    @inlinable
    public func take(first count: Int) -> SignalProducer<Value, Error> {
        precondition(count >= 0, "Rivulet: take(first:): count is \(count); it must be 0 or more")
        guard count > 0 else { return .fused({ downstream, _ in downstream(.interrupted) }) }
        return flatMapEvent(Signal.Event.take(first: count))
    }

    /// A producer that waits for each start to complete, then sends its last `count` values and
    /// completes. A failure or interruption is forwarded at once and the kept values are dropped.
    /// With a `count` of 0 it sends no value and completes when the start completes
    /// (ReactiveSwift stops with a precondition failure there).
    ///
    /// - Parameter count: How many of the latest values of each start to keep; 0 or more.
    /// - Returns: A producer whose starts send the kept values and complete when this producer's
    ///   start completes, and fail or are interrupted at once when it does (E2, E4).
    /// - Precondition: `count` is not negative.
    @inlinable
    public func take(last count: Int) -> SignalProducer<Value, Error> {
        precondition(count >= 0, "Rivulet: take(last:): count is \(count); it must be 0 or more")
        return flatMapEvent(Signal.Event.take(last: count))
    }

    /// A producer that forwards values while `shouldContinue` holds, and completes at the first
    /// value for which it returns `false`, without sending that value.
    ///
    /// - Parameter shouldContinue: The test; called for each value of a start until it returns
    ///   `false`.
    /// - Returns: A producer whose starts send the values before the first one that fails
    ///   `shouldContinue`, completing at that value (which stops this producer's start) or ending
    ///   earlier with it.
    @inlinable
    public func take(while shouldContinue: @escaping @Sendable (Value) -> Bool) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.take(while: shouldContinue, sendsLast: false))
    }

    /// A producer that forwards each value and completes right after the first one for which
    /// `shouldContinue` returns `false` (that value is sent too).
    ///
    /// - Parameter shouldContinue: The test; called for each value of a start until it returns
    ///   `false`.
    /// - Returns: A producer whose starts send the values up to and including the first one that
    ///   fails `shouldContinue`, completing right after it (which stops this producer's start) or
    ///   ending earlier with it.
    @inlinable
    public func take(until shouldContinue: @escaping @Sendable (Value) -> Bool) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.take(while: shouldContinue, sendsLast: true))
    }

    /// A producer that forwards each start's events until `trigger` sends a value or completes, and
    /// then completes. An interruption of `trigger` is ignored.
    ///
    /// Each start starts `trigger` first, then this producer (not at all if the trigger has already
    /// fired). The result's end stops this producer's start, then the trigger's.
    ///
    /// - Parameter trigger: The producer started before this one on each start; its first value or
    ///   completion completes the result, and its interruption is ignored.
    /// - Returns: A producer whose starts forward this producer's events until `trigger` fires,
    ///   then complete.
    public func take(until trigger: SignalProducer<(), Never>) -> SignalProducer<Value, Error> {
        SignalProducer.fused({ downstream, lifetime in
            let gate = GateRunner(
                TakeUntilStateMachine<Value, Error>(), downstream: downstream, lifetime: lifetime, startsOperands: true
            )
            gate.start(.other, trigger.startInstance) { event in
                gate.receive(.trigger(event), fromStart: .other, for: event)
            }
            gate.start(.source, self.startInstance) { event in
                gate.receive(.source(event), fromStart: .source, for: event)
            }
        })
    }

    /// A producer that forwards each start's events until `trigger` sends a value or completes, and
    /// then completes.
    ///
    /// - Parameter trigger: A signal, producer or property of `()`, used as a producer started
    ///   before this one on each start; its first value or completion completes the result.
    /// - Returns: A producer whose starts forward this producer's events until `trigger` fires,
    ///   then complete.
    public func take<Trigger: SignalProducerConvertible>(
        until trigger: Trigger
    ) -> SignalProducer<Value, Error> where Trigger.Value == (), Trigger.Error == Never {
        take(until: trigger.producer)
    }

    /// A producer that forwards each start's events until `lifetime` ends, and then completes.
    ///
    /// If `lifetime` has already ended, a start is interrupted at once without starting this
    /// producer, as in ReactiveSwift (whose producer form observes the signal form's result, which
    /// has then already completed: S3).
    ///
    /// - Parameter lifetime: The lifetime whose end completes every start.
    /// - Returns: A producer whose starts forward this producer's events until `lifetime` ends,
    ///   then complete.
    public func take(during lifetime: Lifetime) -> SignalProducer<Value, Error> {
        SignalProducer.fused({ downstream, streamLifetime in
            if lifetime.hasEnded {
                downstream(.interrupted)
                return
            }
            let gate = GateRunner(
                TakeDuringStateMachine<Value, Error>(), downstream: downstream, lifetime: streamLifetime, hasOther: false,
                startsOperands: true
            )
            gate.source += lifetime.observeEnded { gate.receive(.ended, from: -1) }
            gate.start(.source, self.startInstance) { event in
                gate.receive(.source(event), fromStart: .source, for: event)
            }
        })
    }

    /// A producer that forwards each start's values until `replacement` sends its first event,
    /// then stops this producer and forwards `replacement`'s events instead.
    ///
    /// Each start starts `replacement` first, then this producer. This producer's completion is not
    /// forwarded; its failure and interruption are, at once.
    ///
    /// - Parameter replacement: The producer started before this one on each start; it takes over
    ///   at its first event, whether a value or a terminal event.
    /// - Returns: A producer whose starts send this producer's values until `replacement`'s first
    ///   event, then `replacement`'s events; a start ends when `replacement`'s does, or when this
    ///   producer's start fails or is interrupted before that.
    public func take(untilReplacement replacement: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        SignalProducer.fused({ downstream, lifetime in
            let gate = GateRunner(
                TakeUntilReplacementStateMachine<Value, Error>(), downstream: downstream, lifetime: lifetime,
                startsOperands: true
            )
            gate.start(.other, replacement.startInstance) { event in
                gate.receive(.replacement(event), fromStart: .other, for: event)
            }
            // Not started once the result has ended (the replacement ended it during its start). A
            // replacement that has only taken over does not prevent the start, which then ends at
            // once, as in ReactiveSwift: the start's side effects happen whatever the replacement
            // sends first.
            if gate.hasEnded(.other) { return }
            gate.startEvenIfStopped(.source, self.startInstance) { event in
                gate.receive(.source(event), fromStart: .source, for: event)
            }
        })
    }

    /// A producer that forwards each start's values until `replacement` sends its first event,
    /// then forwards `replacement`'s events instead.
    ///
    /// - Parameter replacement: A signal, producer or property, used as a producer started before
    ///   this one on each start; it takes over at its first event.
    /// - Returns: A producer whose starts send this producer's values until `replacement`'s first
    ///   event, then `replacement`'s events.
    public func take<Replacement: SignalProducerConvertible>(
        untilReplacement replacement: Replacement
    ) -> SignalProducer<Value, Error> where Replacement.Value == Value, Replacement.Error == Error {
        take(untilReplacement: replacement.producer)
    }
}

// MARK: - take(until: trigger) state machine

/// The inputs of `take(until:)` with a trigger.
@usableFromInline
enum TakeUntilInput<Value, Error: Swift.Error> {
    case source(Signal<Value, Error>.Event)
    case trigger(Signal<(), Never>.Event)
}

/// `take(until:)` with a trigger: forwards the source until the trigger fires, then completes.
@usableFromInline
struct TakeUntilStateMachine<Value, Error: Swift.Error>: GateStateMachine {
    private var hasTerminated = false

    @usableFromInline
    init() {}

    @usableFromInline
    mutating func receive(_ input: TakeUntilInput<Value, Error>) -> GateAction<Value, Error> {
        if hasTerminated { return .none }
        switch input {
        case let .source(event):
            hasTerminated = event.isTerminating
            return .send(event)
        case let .trigger(event):
            switch event {
            case .value, .completed:
                hasTerminated = true
                return .send(.completed)
            case .interrupted:
                return .none
            }
        }
    }

    @usableFromInline
    static func interruption(of operand: GateOperand) -> TakeUntilInput<Value, Error> {
        operand == .source ? .source(.interrupted) : .trigger(.interrupted)
    }
}

// MARK: - take(during:) state machine

/// The inputs of `take(during:)`.
@usableFromInline
enum TakeDuringInput<Value, Error: Swift.Error> {
    case source(Signal<Value, Error>.Event)
    /// The lifetime has ended.
    case ended
}

/// `take(during:)`: forwards the source until the lifetime ends, then completes.
@usableFromInline
struct TakeDuringStateMachine<Value, Error: Swift.Error>: GateStateMachine {
    private var hasTerminated = false

    @usableFromInline
    init() {}

    @usableFromInline
    mutating func receive(_ input: TakeDuringInput<Value, Error>) -> GateAction<Value, Error> {
        if hasTerminated { return .none }
        switch input {
        case let .source(event):
            hasTerminated = event.isTerminating
            return .send(event)
        case .ended:
            hasTerminated = true
            return .send(.completed)
        }
    }

    @usableFromInline
    static func interruption(of _: GateOperand) -> TakeDuringInput<Value, Error> {
        .source(.interrupted)
    }
}

// MARK: - take(untilReplacement:) state machine

/// The inputs of `take(untilReplacement:)`.
@usableFromInline
enum TakeUntilReplacementInput<Value, Error: Swift.Error> {
    case source(Signal<Value, Error>.Event)
    case replacement(Signal<Value, Error>.Event)
}

/// `take(untilReplacement:)`: the source until the replacement's first event, then the replacement.
@usableFromInline
struct TakeUntilReplacementStateMachine<Value, Error: Swift.Error>: GateStateMachine {
    private var isReplaced = false
    private var hasTerminated = false

    @usableFromInline
    init() {}

    @usableFromInline
    mutating func receive(_ input: TakeUntilReplacementInput<Value, Error>) -> GateAction<Value, Error> {
        if hasTerminated { return .none }
        switch input {
        case let .source(event):
            if isReplaced { return .none }
            switch event {
            case .value:
                return .send(event)
            case .completed:
                // Not forwarded: the replacement is still to come. The source's work is over, so
                // its start stops (stages further up that completed it end their work too).
                return GateAction(event: nil, stops: .source)
            case .failed, .interrupted:
                hasTerminated = true
                return .send(event)
            }
        case let .replacement(event):
            let stopsSource = !isReplaced
            isReplaced = true
            hasTerminated = event.isTerminating
            return GateAction(event: event, stops: stopsSource ? .source : nil)
        }
    }

    @usableFromInline
    static func interruption(of operand: GateOperand) -> TakeUntilReplacementInput<Value, Error> {
        operand == .source ? .source(.interrupted) : .replacement(.interrupted)
    }
}
