/// A read-only property. There are three kinds:
///
/// - **Constant** (`Property(value:)`): the value never changes; the producer sends it and
///   completes, and the signal has already completed.
/// - **Existential** (`Property(capturing:)`): a view of another property that passes everything
///   through and retains it.
/// - **Composed** (`Property(_:)`, `Property(initial:then:)` and every property operator, such as
///   `map` or `combineLatest`): follows its sources, but does not retain them and has no effect
///   on them (R4). It ends when its sources can change no more (for example when they are
///   deinitialized); after that it keeps its last value.
@propertyWrapper
public final class Property<Value>: PropertyProtocol {

    @usableFromInline let readValue: () -> Value

    /// Every change from now on; completes when the property ends.
    public let signal: Signal<Value, Never>

    /// Sends the current value, then every change, and completes when the property ends.
    public let producer: SignalProducer<Value, Never>

    /// The current value.
    public var value: Value { readValue() }

    /// The current value, when used as a property wrapper.
    public var wrappedValue: Value { readValue() }

    /// The property itself, as `$name` when used as a property wrapper.
    public var projectedValue: Property<Value> { self }

    /// A property that always has `value`.
    ///
    /// - Parameter value: The property's only value.
    public init(value: Value) {
        rank = 0
        readValue = { value }
        signal = .empty
        producer = SignalProducer(value: value)
    }

    /// A property that passes through everything of `property`, and retains it.
    ///
    /// - Parameter property: The property to pass through; retained by the new property.
    public init<P: PropertyProtocol>(capturing property: P) where P.Value == Value {
        rank = property.compositionRank
        readValue = { property.value }
        signal = property.signal
        producer = property.producer
    }

    /// A composed property that follows `property` without retaining it.
    ///
    /// - Parameter property: The property to follow; not retained (R4).
    public convenience init<P: PropertyProtocol>(_ property: P) where P.Value == Value {
        self.init(composing: property.producer, rank: property.compositionRank + 1)
    }

    /// A composed property that starts with `initial` and then takes each value of `values`.
    ///
    /// - Parameters:
    ///   - initial: The value until `values` sends one.
    ///   - values: Started once, now; each value it sends becomes the property's value. The
    ///     property keeps its last value when `values` ends.
    public convenience init(initial: Value, then values: SignalProducer<Value, Never>) {
        self.init(composing: values.prefix(value: initial), rank: 1)
    }

    /// A composed property that starts with `initial` and then takes each value of `values`.
    ///
    /// - Parameters:
    ///   - initial: The value until `values` sends one.
    ///   - values: Observed from now on; each value it sends becomes the property's value. The
    ///     property keeps its last value when `values` ends.
    public convenience init(initial: Value, then values: Signal<Value, Never>) {
        self.init(initial: initial, then: values.producer)
    }

    /// A composed property that starts with `initial` and then takes each value of `values`
    /// (a signal, producer or property).
    ///
    /// - Parameters:
    ///   - initial: The value until `values` sends one.
    ///   - values: Started or observed once, now; each value it sends becomes the property's value.
    ///     The property keeps its last value when `values` ends.
    public convenience init<Values: SignalProducerConvertible>(initial: Value, then values: Values)
    where Values.Value == Value, Values.Error == Never {
        self.init(initial: initial, then: values.producer)
    }

    /// How many compositions lie between this property and the mutable or constant properties it
    /// comes from: a transaction publishes deferred combinations shallowest first.
    @usableFromInline let rank: Int

    /// A composed property: starts `source` once, now, and takes each of its values.
    ///
    /// `source` must send a value synchronously when started; its end (or the disappearance of
    /// everything that can reach this property's signal) stops the start. A `combining` property
    /// defers its changes to the end of a `PropertyTransaction`.
    @inlinable
    init(composing source: SignalProducer<Value, Never>, rank: Int, combining: Bool = false) {
        let start = SerialDisposable()
        let storage = PropertyStorage<Value>(value: nil, resources: start)
        let write: (Value) -> Void
        if combining {
            write = CoalescingWriter(storage: storage, rank: rank).receive
        } else {
            write = storage.set
        }
        start.inner = source.start { event in
            switch event {
            case let .value(value): write(value)
            case .completed, .interrupted: storage.end()
            }
        }
        guard storage.hasValue else {
            preconditionFailure(
                "Rivulet: a composed property (lift(_:), Property(_:)): source sent no value when started; it must send one at once, use Property(initial:then:) for a stream that starts later"
            )
        }
        let signal = Signal(core: storage.core)
        self.rank = rank
        readValue = { storage.value }
        self.signal = signal
        producer = SignalProducer.fused { downstream, lifetime in
            // Keeping `signal` reachable keeps the composition running while the producer exists.
            withExtendedLifetime(signal) {
                _ = lifetime += storage.observeWithCurrentValue(Signal.Observer(relaying: downstream, ()))
            }
        }
    }
}

extension PropertyProtocol {
    /// The composition depth of this property (0 for anything but a composed `Property`).
    @inlinable
    var compositionRank: Int {
        (self as? Property<Value>)?.rank ?? 0
    }
}

extension Property where Value: OptionalProtocol {
    /// A composed property that starts with `initial` and then takes each value of `values`,
    /// wrapped as optionals.
    ///
    /// - Parameters:
    ///   - initial: The value until `values` sends one.
    ///   - values: Started or observed once, now; each value it sends, wrapped, becomes the
    ///     property's value. The property keeps its last value when `values` ends.
    public convenience init<Values: SignalProducerConvertible>(initial: Value, then values: Values)
    where Values.Value == Value.Wrapped, Values.Error == Never, Value: SendableMetatype {
        self.init(initial: initial, then: values.producer.map { Value(reconstructing: $0) })
    }
}

// @unchecked Sendable: the stored closures are immutable. A composed property's mutable state is in
// its `PropertyStorage` (behind its lock); a constant one has none; an existential one relies on
// the property it wraps. Only where the values are `Sendable`: otherwise the compiler keeps the
// instance, its values and its closures in one isolation region.
extension Property: @unchecked Sendable where Value: Sendable {}
