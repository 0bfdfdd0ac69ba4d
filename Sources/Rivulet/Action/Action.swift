/// Work that runs on demand, one execution at a time: `apply(input)` gives a producer that, when
/// started, runs the work if the action is enabled, or fails with `ActionError.disabled`.
///
/// An action is enabled while its condition holds and it is not executing. Every execution's
/// events are also sent on `events` (and split into `values`, `errors` and `completed`), so that
/// one place can observe all of them. `isExecuting` turns `true` before the work's first event and
/// `false` after its last; starting an execution is atomic across threads.
public final class Action<Input, Output, Error: Swift.Error>: BindingTargetProvider {

    private let execute: (Input) -> SignalProducer<Output, ActionError<Error>>
    private let eventsInput: Signal<Signal<Output, Error>.Event, Never>.Observer
    private let disabledErrorsInput: Signal<(), Never>.Observer
    private let token: Lifetime.Token
    /// The state property, kept alive as long as the action (ReactiveSwift's rule): an action
    /// made from a composed property would otherwise stop following it. Never read.
    private let retainedState: AnyObject

    /// Ends when the action is deinitialized; its signals then complete.
    public let lifetime: Lifetime

    /// The events of every execution, in order.
    public let events: Signal<Signal<Output, Error>.Event, Never>

    /// The values of every execution.
    public let values: Signal<Output, Never>

    /// The failures of every execution.
    public let errors: Signal<Error, Never>

    /// A value for each start refused because the action was disabled.
    public let disabledErrors: Signal<(), Never>

    /// A value for each execution that completed.
    public let completed: Signal<(), Never>

    /// Whether an execution is running.
    public let isExecuting: Property<Bool>

    /// Whether a start would run: the condition holds and no execution is running.
    public let isEnabled: Property<Bool>

    /// An action whose condition is `isEnabled` applied to the latest value of `state`, and whose
    /// work gets that value with the input.
    ///
    /// - Parameters:
    ///   - state: The property whose latest value the condition and the work get.
    ///   - isEnabled: The condition, applied to each of `state`'s values.
    ///   - execute: The work of one execution: given `state`'s value and the input, the producer to
    ///     start.
    public init<State: PropertyProtocol>(
        state: State,
        enabledIf isEnabled: @escaping @Sendable (State.Value) -> Bool,
        execute: @escaping @Sendable (State.Value, Input) -> SignalProducer<Output, Error>
    ) where State.Value: Sendable, Input: Sendable, Output: Sendable {
        let token = Lifetime.Token()
        self.token = token
        retainedState = state
        lifetime = Lifetime(token)
        (events, eventsInput) = Signal.pipe()
        (disabledErrors, disabledErrorsInput) = Signal.pipe()
        values = events.compactMap(\.value)
        errors = events.compactMap(\.error)
        completed = events.compactMap { $0.isCompleted ? () : nil }

        let initial = state.value
        let actionState = MutableProperty(ActionState(value: initial, isUserEnabled: isEnabled(initial)))
        self.isExecuting = actionState.map(\.isExecuting).skipRepeats()
        self.isEnabled = actionState.map(\.isEnabled).skipRepeats()
        // Follow the state for as long as the action lives (its first value is the one just
        // read, or a newer one).
        lifetime += state.producer.startWithValues { value in
            actionState.modify { current in
                current.value = value
                current.isUserEnabled = isEnabled(value)
            }
        }

        let eventsInput = self.eventsInput
        let disabledErrorsInput = self.disabledErrorsInput
        self.execute = { input in
            SignalProducer { observer, lifetime in
                guard let stateValue = actionState.modify({ $0.beginExecution() }) else {
                    observer.send(error: .disabled)
                    disabledErrorsInput.send(value: ())
                    return
                }
                lifetime.observeEnded { actionState.modify { $0.endExecution() } }
                lifetime += execute(stateValue, input).start { event in
                    observer.send(event.mapError(ActionError.producerFailed))
                    eventsInput.send(value: event)
                }
            }
        }
    }

    /// An action that is enabled whenever it is not executing, whose work gets the latest value of
    /// `state` with the input.
    ///
    /// - Parameters:
    ///   - state: The property whose latest value the work gets.
    ///   - execute: The work of one execution: given `state`'s value and the input, the producer to
    ///     start.
    public convenience init<State: PropertyProtocol>(
        state: State,
        execute: @escaping @Sendable (State.Value, Input) -> SignalProducer<Output, Error>
    ) where State.Value: Sendable, Input: Sendable, Output: Sendable {
        self.init(state: state, enabledIf: { _ in true }, execute: execute)
    }

    /// An action that is enabled while `isEnabled` is `true` (and it is not executing).
    ///
    /// - Parameters:
    ///   - isEnabled: The condition.
    ///   - execute: The work of one execution: given the input, the producer to start.
    public convenience init<P: PropertyProtocol>(
        enabledIf isEnabled: P,
        execute: @escaping @Sendable (Input) -> SignalProducer<Output, Error>
    ) where P.Value == Bool, Input: Sendable, Output: Sendable {
        self.init(state: isEnabled, enabledIf: { $0 }) { _, input in execute(input) }
    }

    /// An action that is enabled whenever it is not executing.
    ///
    /// - Parameter execute: The work of one execution: given the input, the producer to start.
    public convenience init(execute: @escaping @Sendable (Input) -> SignalProducer<Output, Error>)
    where Input: Sendable, Output: Sendable {
        self.init(state: Property(value: ()), enabledIf: { _ in true }) { _, input in execute(input) }
    }

    /// An action that is enabled while `state` holds a value (and it is not executing); the work
    /// gets that value with the input.
    ///
    /// - Parameters:
    ///   - state: The property whose value, while not `nil`, enables the action and goes to the
    ///     work.
    ///   - execute: The work of one execution: given the unwrapped value and the input, the
    ///     producer to start.
    public convenience init<P: PropertyProtocol, T>(
        unwrapping state: P,
        execute: @escaping @Sendable (T, Input) -> SignalProducer<Output, Error>
    ) where P.Value == T?, T: Sendable, Input: Sendable, Output: Sendable {
        self.init(state: state, enabledIf: { $0 != nil }) { value, input in
            // Enabled only while non-nil, and the value is read under the same atomic step.
            execute(value!, input)
        }
    }

    /// An action that is enabled while `state` holds a valid (or coerced) value; the work gets that
    /// value with the input.
    ///
    /// - Parameters:
    ///   - state: The property whose valid (or coerced) value enables the action and goes to the
    ///     work.
    ///   - execute: The work of one execution: given that value and the input, the producer to
    ///     start.
    public convenience init<T: Sendable, E>(
        validated state: ValidatingProperty<T, E>,
        execute: @escaping @Sendable (T, Input) -> SignalProducer<Output, Error>
    ) where Input: Sendable, Output: Sendable {
        self.init(unwrapping: state.result.map(\.value), execute: execute)
    }

    deinit {
        eventsInput.sendCompleted()
        disabledErrorsInput.sendCompleted()
    }

    /// A producer that, on each start, runs the work with `input` if the action is enabled, and
    /// otherwise fails with `ActionError.disabled`. Disposing of a start interrupts its work.
    ///
    /// - Parameter input: The input of the execution each start runs.
    /// - Returns: A producer whose each start is one execution, or fails at once with
    ///   `ActionError.disabled`; the work's failure arrives as `ActionError.producerFailed`.
    public func apply(_ input: Input) -> SignalProducer<Output, ActionError<Error>> {
        execute(input)
    }

    /// Each bound value applies the action and starts the result, while the action lives.
    public var bindingTarget: BindingTarget<Input> {
        // Every initialiser requires `Input` and `Output` to be `Sendable`, so every action is
        // `Sendable`; the generic context here cannot state it.
        let applyAndStart = UncheckedTransfer { [weak self] (input: Input) in _ = self?.apply(input).start() }
        return BindingTarget(lifetime: lifetime) { input in applyAndStart.value(input) }
    }
}

extension Action where Input == Void {
    /// A producer that runs the work if the action is enabled; see `apply(_:)`.
    ///
    /// - Returns: A producer whose each start is one execution, or fails at once with
    ///   `ActionError.disabled`.
    public func apply() -> SignalProducer<Output, ActionError<Error>> {
        apply(())
    }

    /// An action that is enabled while `state` holds a value (and it is not executing); the work
    /// gets that value.
    ///
    /// - Parameters:
    ///   - state: The property whose value, while not `nil`, enables the action and goes to the
    ///     work.
    ///   - execute: The work of one execution: given the unwrapped value, the producer to start.
    public convenience init<P: PropertyProtocol, T>(
        unwrapping state: P,
        execute: @escaping @Sendable (T) -> SignalProducer<Output, Error>
    ) where P.Value == T?, T: Sendable, Input: Sendable, Output: Sendable {
        self.init(unwrapping: state) { value, _ in execute(value) }
    }

    /// An action that is enabled while `state` holds a valid (or coerced) value; the work gets
    /// that value.
    ///
    /// - Parameters:
    ///   - state: The property whose valid (or coerced) value enables the action and goes to the
    ///     work.
    ///   - execute: The work of one execution: given that value, the producer to start.
    public convenience init<T: Sendable, E>(
        validated state: ValidatingProperty<T, E>,
        execute: @escaping @Sendable (T) -> SignalProducer<Output, Error>
    ) where Input: Sendable, Output: Sendable {
        self.init(validated: state) { value, _ in execute(value) }
    }

    /// An action that is enabled whenever it is not executing; the work gets the latest value of
    /// `state`.
    ///
    /// - Parameters:
    ///   - state: The property whose latest value the work gets.
    ///   - execute: The work of one execution: given `state`'s value, the producer to start.
    public convenience init<P: PropertyProtocol, T>(
        state: P,
        execute: @escaping @Sendable (T) -> SignalProducer<Output, Error>
    ) where P.Value == T, T: Sendable, Input: Sendable, Output: Sendable {
        self.init(state: state) { value, _ in execute(value) }
    }
}

// @unchecked Sendable: every stored property is immutable; the changing state is in a
// `MutableProperty` (behind its lock) and the signals' inputs are thread-safe signal cores. Only
// where `Input` and `Output` are `Sendable`: otherwise the compiler keeps the instance, its values
// and its closures in one isolation region.
extension Action: @unchecked Sendable where Input: Sendable, Output: Sendable {}
