import Rivulet

/// A fresh subject for one scenario, seen through closures so that the scenarios need not know
/// its type or how it is changed: the k-th set applies the k-th input.
struct PropertyFixture<Value>: Sendable {
    let read: @Sendable () -> Value
    let signal: @Sendable () -> Signal<Value, Never>
    let producer: @Sendable () -> SignalProducer<Value, Never>
    /// The inputs the kit sets, described for traces.
    let inputs: [String]
    /// Applies the input at the index: sets the source, or the standalone property.
    let set: @Sendable (Int) -> Void
    /// The source of a composed subject; `nil` for a standalone one.
    let source: ComposedSource?
}

/// The `MutableProperty` a composed subject is made from, held by the kit alone, so that it can
/// be let go of to see whether the subject keeps it (R4) and how the subject ends (E1).
struct ComposedSource: Sendable {
    /// Lets go of the kit's reference to the source.
    let release: @Sendable () -> Void
    /// Whether the source has been deinitialized.
    let isGone: @Sendable () -> Bool
    /// How many values the source emitted since the kit began to watch it, before the subject
    /// was made.
    let emissions: @Sendable () -> Int
    /// The source's value now (`nil` once it is gone), described.
    let currentValue: @Sendable () -> String?
    /// The source's value when the kit made it, described.
    let initialValue: String
}

/// A weak reference to a source.
private struct WeakSource<Input: Sendable>: Sendable {
    weak var property: MutableProperty<Input>?
}

extension PropertyFixture {
    /// A subject composed from a fresh `MutableProperty` that starts at `values[0]`; the sets
    /// apply the rest of `values`. The kit watches the source's emissions from before the subject
    /// is made.
    static func composed<Input: Sendable, P: PropertyProtocol & Sendable>(
        values: [Input],
        _ compose: @Sendable (MutableProperty<Input>) -> P
    ) -> PropertyFixture where P.Value == Value {
        let source = MutableProperty(values[0])
        let held = Locked<MutableProperty<Input>?>(source)
        let weak = WeakSource(property: source)
        let emissions = Locked(0)
        // The kit's own observation of the source: it keeps the source's signal, not the source.
        _ = source.signal.observe { event in
            if case .value = event { emissions.withLock { $0 += 1 } }
        }
        let subject = compose(source)
        let inputs = values.dropFirst().map { String(describing: $0) }
        return PropertyFixture(
            read: { subject.value },
            signal: { subject.signal },
            producer: { subject.producer },
            inputs: inputs,
            set: { index in
                // Set outside the kit's lock: the set runs the subject's observers.
                let source = held.withLock { $0 }
                source?.value = values[index + 1]
            },
            source: ComposedSource(
                release: {
                    let taken = held.withLock { held -> MutableProperty<Input>? in
                        defer { held = nil }
                        return held
                    }
                    // The source is deinitialized here, outside the lock, unless something else
                    // holds it: its end runs the subject's observers.
                    withExtendedLifetime(taken) {}
                },
                isGone: { weak.property == nil },
                emissions: { emissions.withLock { $0 } },
                currentValue: { weak.property.map { String(describing: $0.value) } },
                initialValue: String(describing: values[0])
            )
        )
    }

    /// A standalone subject; the sets call `set` with each of `values`.
    static func standalone<P: PropertyProtocol & Sendable>(
        values: [Value],
        _ made: (property: P, set: @Sendable (Value) -> Void)
    ) -> PropertyFixture where P.Value == Value, Value: Sendable {
        let subject = made.property
        let set = made.set
        return PropertyFixture(
            read: { subject.value },
            signal: { subject.signal },
            producer: { subject.producer },
            inputs: values.map { String(describing: $0) },
            set: { index in set(values[index]) },
            source: nil
        )
    }
}
