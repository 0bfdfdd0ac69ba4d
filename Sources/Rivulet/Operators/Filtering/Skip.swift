// skip(first:), skip(while:), skip(until:)

extension Signal.Event {
    /// The stage behind `skip(first:)`: drops the first `count` values.
    @inlinable
    static func skip(first count: Int) -> EventTransform<Value, Error, Value, Error> {
        { downstream, _ in
            var skipped = 0
            return { event in
                switch event {
                case .value:
                    if skipped < count {
                        skipped += 1
                        return
                    }
                    downstream(event)
                case .failed, .completed, .interrupted:
                    downstream(event)
                }
            }
        }
    }

    /// The stage behind `skip(while:)`: drops values until one fails `shouldContinue`, then lets
    /// everything through (the predicate is no longer called).
    @inlinable
    static func skip(while shouldContinue: @escaping (Value) -> Bool) -> EventTransform<Value, Error, Value, Error> {
        { downstream, _ in
            var isSkipping = true
            return { event in
                switch event {
                case let .value(value):
                    if isSkipping {
                        if shouldContinue(value) { return }
                        isSkipping = false
                    }
                    downstream(event)
                case .failed, .completed, .interrupted:
                    downstream(event)
                }
            }
        }
    }
}

extension Signal {
    /// A signal that drops the first `count` values of this signal, then forwards everything.
    /// With a `count` of 0 it is this signal.
    ///
    /// - Parameter count: How many values to drop; 0 or more.
    /// - Returns: A signal of this signal's values after the first `count`, ending when this signal
    ///   ends; this signal itself when `count` is 0.
    /// - Precondition: `count` is not negative.
    @inlinable
    public func skip(first count: Int) -> Signal<Value, Error> {
        precondition(count >= 0, "Rivulet: skip(first:): count is \(count); it must be 0 or more")
        guard count > 0 else { return self }
        return flatMapEventSharingTurn(Event.skip(first: count))
    }

    /// A signal that drops values while `shouldContinue` holds, then forwards everything from the
    /// first value for which it returns `false`.
    ///
    /// - Parameter shouldContinue: The test; called for each value until it first returns `false`,
    ///   and never again after that.
    /// - Returns: A signal of this signal's values from the first one that fails `shouldContinue`
    ///   on, ending when this signal ends.
    @inlinable
    public func skip(while shouldContinue: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Error> {
        flatMapEventSharingTurn(Event.skip(while: shouldContinue))
    }

    /// A signal that drops the values of this signal until `trigger` sends a value or completes,
    /// then forwards them.
    ///
    /// Terminal events of this signal are forwarded at once, even before the trigger (E2, E4).
    /// An interruption of `trigger` before it fires interrupts the result (the gate could never
    /// open), as in ReactiveSwift.
    ///
    /// - Parameter trigger: The signal whose first value or completion opens the gate; its
    ///   interruption before that interrupts the result.
    /// - Returns: A signal of this signal's values sent after `trigger` fired, and of this signal's
    ///   terminal event whenever it comes.
    public func skip(until trigger: Signal<(), Never>) -> Signal<Value, Error> {
        Signal { output, lifetime in
            let gate = GateRunner(
                SkipUntilStateMachine<Value, Error>(), downstream: output.sink, lifetime: lifetime, startsOperands: false
            )
            // The trigger is no longer observed once it has opened the gate, as in ReactiveSwift.
            gate.observe(trigger, as: .other) { gate.receive(.trigger($0), from: 1) }
            gate.observe(self, as: .source) { gate.receive(.source($0), from: 0) }
        }
    }
}

extension SignalProducer {
    /// A producer that drops the first `count` values of each start, then forwards everything.
    /// With a `count` of 0 it is this producer.
    ///
    /// - Parameter count: How many values of each start to drop; 0 or more.
    /// - Returns: A producer whose starts send the values after the first `count` and end when this
    ///   producer's start ends; this producer itself when `count` is 0.
    /// - Precondition: `count` is not negative.
    @inlinable
    public func skip(first count: Int) -> SignalProducer<Value, Error> {
        precondition(count >= 0, "Rivulet: skip(first:): count is \(count); it must be 0 or more")
        guard count > 0 else { return self }
        return flatMapEvent(Signal.Event.skip(first: count))
    }

    /// A producer that drops values while `shouldContinue` holds, then forwards everything from the
    /// first value for which it returns `false`.
    ///
    /// - Parameter shouldContinue: The test; called for each value of a start until it first
    ///   returns `false`, and never again in that start.
    /// - Returns: A producer whose starts send the values from the first one that fails
    ///   `shouldContinue` on, and end when this producer's start ends.
    @inlinable
    public func skip(while shouldContinue: @escaping @Sendable (Value) -> Bool) -> SignalProducer<Value, Error> {
        flatMapEvent(Signal.Event.skip(while: shouldContinue))
    }

    /// A producer that drops the values of each start until `trigger` sends a value or completes,
    /// then forwards them.
    ///
    /// Each start starts `trigger` first, then this producer (not at all if the trigger was
    /// interrupted meanwhile). Terminal events of this producer are forwarded at once, even before
    /// the trigger (E2, E4); an interruption of `trigger` before it fires interrupts the result.
    /// The trigger's start is stopped once it has opened the gate.
    ///
    /// - Parameter trigger: The producer started before this one on each start; its first value or
    ///   completion opens the gate and stops it, and its interruption before that interrupts the
    ///   result.
    /// - Returns: A producer whose starts send the values sent after `trigger` fired, and this
    ///   producer's terminal event whenever it comes.
    public func skip(until trigger: SignalProducer<(), Never>) -> SignalProducer<Value, Error> {
        SignalProducer.fused({ downstream, lifetime in
            let gate = GateRunner(
                SkipUntilStateMachine<Value, Error>(), downstream: downstream, lifetime: lifetime, startsOperands: true
            )
            gate.start(.other, trigger.startInstance) { event in
                gate.receive(.trigger(event), fromStart: .other, for: event)
            }
            gate.start(.source, self.startInstance) { event in
                gate.receive(.source(event), fromStart: .source, for: event)
            }
        })
    }

    /// A producer that drops the values of each start until `trigger` sends a value or completes,
    /// then forwards them.
    ///
    /// - Parameter trigger: A signal, producer or property of `()`, used as a producer started
    ///   before this one on each start; its first value or completion opens the gate.
    /// - Returns: A producer whose starts send the values sent after `trigger` fired, and end as
    ///   those of `skip(until:)` with a producer do.
    public func skip<Trigger: SignalProducerConvertible>(
        until trigger: Trigger
    ) -> SignalProducer<Value, Error> where Trigger.Value == (), Trigger.Error == Never {
        skip(until: trigger.producer)
    }
}

// MARK: - skip(until:) state machine

/// The inputs of `skip(until:)`.
@usableFromInline
enum SkipUntilInput<Value, Error: Swift.Error> {
    case source(Signal<Value, Error>.Event)
    case trigger(Signal<(), Never>.Event)
}

/// `skip(until:)`: closed until the trigger sends a value or completes, then open; opening stops
/// the trigger. A trigger interrupted while the gate is closed interrupts the result.
@usableFromInline
struct SkipUntilStateMachine<Value, Error: Swift.Error>: GateStateMachine {
    private var isOpen = false
    private var hasTerminated = false

    @usableFromInline
    init() {}

    @usableFromInline
    mutating func receive(_ input: SkipUntilInput<Value, Error>) -> GateAction<Value, Error> {
        if hasTerminated { return .none }
        switch input {
        case let .source(event):
            switch event {
            case .value:
                return isOpen ? .send(event) : .none
            case .failed, .completed, .interrupted:
                hasTerminated = true
                // ReactiveSwift observes the source only once the gate is open, so a terminal
                // event before that ends nothing but the source: the trigger goes on until the
                // stream's lifetime ends (right after this event, in a producer's start).
                return GateAction(event: event, endsOperands: isOpen)
            }
        case let .trigger(event):
            switch event {
            case .value, .completed:
                // Open for good: the trigger is no longer needed.
                let stopsTrigger = !isOpen
                isOpen = true
                return GateAction(event: nil, stops: stopsTrigger ? .other : nil)
            case .interrupted:
                // The gate can never open any more. As in ReactiveSwift, where the trigger's end
                // lets go of the result's input observer and of the unobserved source: the source
                // stops, then the result is interrupted. Once open, the trigger has been stopped
                // and its interruption means nothing.
                if isOpen { return .none }
                hasTerminated = true
                return GateAction(event: .interrupted, stops: .source)
            }
        }
    }

    @usableFromInline
    static func interruption(of operand: GateOperand) -> SkipUntilInput<Value, Error> {
        operand == .source ? .source(.interrupted) : .trigger(.interrupted)
    }
}
