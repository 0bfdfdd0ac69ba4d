/// A mutable property that checks every value proposed to it, and keeps the outcome in `result`.
///
/// Setting `value` runs the validator on the proposed value: a valid value is written, a coerced
/// one is replaced by the validator's replacement, and an invalid one leaves the value unchanged.
/// Changes made directly to the wrapped property are validated too, so `result` always describes
/// the latest attempt. `value`, `producer` and `signal` are the wrapped property's.
public final class ValidatingProperty<Value, ValidationError: Swift.Error>: MutablePropertyProtocol {

    /// What a validator decides about a proposed value.
    public enum Decision {
        /// The value is accepted as it is.
        case valid
        /// The value is replaced by another, with an optional error explaining why.
        case coerced(Value, ValidationError?)
        /// The value is rejected.
        case invalid(ValidationError)
    }

    /// The outcome of the latest validation.
    public enum Result {
        /// The value was accepted.
        case valid(Value)
        /// `proposed` was replaced by `replacement`.
        case coerced(replacement: Value, proposed: Value, error: ValidationError?)
        /// The value was rejected; the property kept its previous value.
        case invalid(Value, ValidationError)

        /// The value the property took, or `nil` if the proposal was rejected.
        public var value: Value? {
            switch self {
            case let .valid(value), let .coerced(value, _, _): value
            case .invalid: nil
            }
        }

        /// The validation error, if any.
        public var error: ValidationError? {
            switch self {
            case .valid: nil
            case let .coerced(_, _, error): error
            case let .invalid(_, error): error
            }
        }

        /// Whether the proposal was rejected.
        public var isInvalid: Bool {
            if case .invalid = self { return true }
            return false
        }

        /// The value that was proposed.
        var proposed: Value {
            switch self {
            case let .valid(value), let .coerced(_, value, _), let .invalid(value, _): value
            }
        }

        init(_ proposed: Value, _ decision: Decision) {
            switch decision {
            case .valid: self = .valid(proposed)
            case let .coerced(replacement, error): self = .coerced(replacement: replacement, proposed: proposed, error: error)
            case let .invalid(error): self = .invalid(proposed, error)
            }
        }
    }

    private let readValue: () -> Value
    private let propose: (Value) -> Void

    /// The outcome of the latest validation.
    public let result: Property<Result>

    /// The current (valid) value. Setting it proposes a new value to the validator.
    public var value: Value {
        get { readValue() }
        set { propose(newValue) }
    }

    /// The wrapped property's producer: its current value, then every change.
    public let producer: SignalProducer<Value, Never>

    /// The wrapped property's changes.
    public let signal: Signal<Value, Never>

    /// The wrapped property's lifetime.
    public let lifetime: Lifetime

    /// Validates every value proposed to `inner` with `validator`.
    ///
    /// The current value of `inner` is validated at once; `result` reports that first outcome.
    ///
    /// - Parameters:
    ///   - inner: The property that holds the accepted values.
    ///   - validator: Decides on each proposed value (and on `inner`'s current one, now).
    public init<Inner: ComposableMutablePropertyProtocol>(
        _ inner: Inner,
        _ validator: @escaping @Sendable (Value) -> Decision
    ) where Inner.Value == Value {
        readValue = { inner.value }
        producer = inner.producer
        signal = inner.signal
        lifetime = inner.lifetime
        // The thread writing a validated value back into `inner`: that write is not validated again.
        let writebackThread = Locked<ThreadID?>(nil)
        let latest = inner.withValue { initial in
            // Holding `inner`'s turn: no change can slip between the first result and the binding.
            let latest = MutableProperty(Result(initial, validator(initial)))
            latest
                <~ inner.signal
                .filter { _ in writebackThread.withLock { $0 } != ThreadID.current }
                .map { Result($0, validator($0)) }
            return latest
        }
        result = Property(capturing: latest)
        propose = { proposed in
            let thread = ThreadID.current
            let outer = writebackThread.withLock { writer in
                defer { writer = thread }
                return writer
            }
            defer { writebackThread.withLock { $0 = outer } }
            // Holding `inner`'s turn, the decision and the write-back (and its emission, which
            // happens before `withValue` returns) cannot interleave with other writers.
            inner.withValue { _ in
                let outcome = Result(proposed, validator(proposed))
                latest.value = outcome
                if let accepted = outcome.value {
                    inner.value = accepted
                }
            }
        }
    }

    /// A validating property that starts with `initial`.
    ///
    /// - Parameters:
    ///   - initial: The first value, validated at once.
    ///   - validator: Decides on each proposed value.
    public convenience init(_ initial: Value, _ validator: @escaping @Sendable (Value) -> Decision) {
        self.init(MutableProperty(initial), validator)
    }

    /// Validates the values proposed to `inner` against `other`'s current value; whenever `other`
    /// changes, the latest proposal is validated again.
    ///
    /// - Parameters:
    ///   - inner: The property that holds the accepted values.
    ///   - other: The property whose current value each proposal is validated against.
    ///   - validator: Decides on a proposal, given `other`'s current value.
    public convenience init<Other: PropertyProtocol>(
        _ inner: MutableProperty<Value>,
        with other: Other,
        _ validator: @escaping @Sendable (Value, Other.Value) -> Decision
    ) where Other.Value: Sendable, Value: Sendable {
        // A composed view: follows `other` without keeping it alive.
        let other = Property(other)
        self.init(inner) { validator($0, other.value) }
        other.signal
            .take(during: lifetime)
            .observe(
                .values { [weak self] _ in
                    guard let self else { return }
                    self.value = self.result.value.proposed
                })
    }

    /// A validating property that starts with `initial`, validated against `other`'s value.
    ///
    /// - Parameters:
    ///   - initial: The first value, validated at once.
    ///   - other: The property whose current value each proposal is validated against.
    ///   - validator: Decides on a proposal, given `other`'s current value.
    public convenience init<Other: PropertyProtocol>(
        _ initial: Value,
        with other: Other,
        _ validator: @escaping @Sendable (Value, Other.Value) -> Decision
    ) where Other.Value: Sendable, Value: Sendable {
        self.init(MutableProperty(initial), with: other, validator)
    }

    /// Validates the values proposed to `inner` against the latest proposal made to `other`
    /// (valid or not).
    ///
    /// - Parameters:
    ///   - inner: The property that holds the accepted values.
    ///   - other: The validating property whose latest proposal (valid or not) each proposal is
    ///     validated against.
    ///   - validator: Decides on a proposal, given `other`'s latest proposal.
    public convenience init<U: Sendable, E>(
        _ inner: MutableProperty<Value>,
        with other: ValidatingProperty<U, E>,
        _ validator: @escaping @Sendable (Value, U) -> Decision
    ) where Value: Sendable {
        self.init(inner, with: other.result.map(\.proposed), validator)
    }

    /// A validating property that starts with `initial`, validated against the latest proposal
    /// made to `other`.
    ///
    /// - Parameters:
    ///   - initial: The first value, validated at once.
    ///   - other: The validating property whose latest proposal (valid or not) each proposal is
    ///     validated against.
    ///   - validator: Decides on a proposal, given `other`'s latest proposal.
    public convenience init<U: Sendable, E>(
        _ initial: Value,
        with other: ValidatingProperty<U, E>,
        _ validator: @escaping @Sendable (Value, U) -> Decision
    ) where Value: Sendable {
        self.init(MutableProperty(initial), with: other, validator)
    }
}

// @unchecked Sendable: the stored closures and properties are immutable; the mutable state is in
// the wrapped property and in `result`'s storage (each behind its own lock), and in
// `writebackThread` (a `Locked`). Only where the values are `Sendable`: otherwise the compiler
// keeps the instance, its values and its closures in one isolation region.
extension ValidatingProperty: @unchecked Sendable where Value: Sendable {}
