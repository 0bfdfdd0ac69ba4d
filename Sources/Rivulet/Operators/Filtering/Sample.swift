// sample(with:), sample(on:)

extension Signal {
    /// A signal that, each time `sampler` sends a value, sends the latest value of this signal
    /// paired with the sampler's value.
    ///
    /// Nothing is sent for a sampler value that arrives before this signal's first value; the
    /// latest value can be sent many times. The result completes once both have completed, fails
    /// when this signal fails, and is interrupted when either is interrupted.
    ///
    /// - Parameter sampler: The signal whose every value sends this signal's latest value, paired
    ///   with the sampler's value.
    /// - Returns: A signal of `(latest value, sampler value)` pairs; it completes once this signal
    ///   and `sampler` have both completed, fails when this signal fails, and is interrupted when
    ///   either is interrupted.
    @inlinable
    public func sample<T>(with sampler: Signal<T, Never>) -> Signal<(Value, T), Error> {
        .sampling(self, with: sampler)
    }

    /// A signal that sends the latest value of this signal each time `sampler` sends a value.
    ///
    /// Completion and interruption follow `sample(with:)`.
    ///
    /// - Parameter sampler: The signal whose every value sends this signal's latest value.
    /// - Returns: A signal of this signal's latest value, once per sampler value after this
    ///   signal's first value; it ends as the result of `sample(with:)` does.
    public func sample(on sampler: Signal<(), Never>) -> Signal<Value, Error> {
        sample(with: sampler).map { $0.0 }
    }
}

extension SignalProducer {
    /// A producer that, each time `sampler` sends a value, sends the latest value of this start
    /// paired with the sampler's value.
    ///
    /// Each start starts this producer first, then `sampler`. Completion, failure and interruption
    /// follow `Signal.sample(with:)`.
    ///
    /// - Parameter sampler: The producer started after this one on each start; its every value
    ///   sends the start's latest value, paired with the sampler's value.
    /// - Returns: A producer whose starts send `(latest value, sampler value)` pairs; a start
    ///   completes once both starts have completed, fails when this producer's start fails, and is
    ///   interrupted when either is interrupted.
    @inlinable
    public func sample<T>(with sampler: SignalProducer<T, Never>) -> SignalProducer<(Value, T), Error> {
        // Either may complete first while the other goes on: each stops its work as it ends.
        .sampling(self, with: sampler)
    }

    /// A producer that, each time `sampler` sends a value, sends the latest value of this start
    /// paired with the sampler's value.
    ///
    /// - Parameter sampler: A signal, producer or property, used as a producer started after this
    ///   one on each start; its every value sends the start's latest value, paired with the
    ///   sampler's value.
    /// - Returns: A producer whose starts send `(latest value, sampler value)` pairs, and end as
    ///   those of `sample(with:)` with a producer do.
    public func sample<Sampler: SignalProducerConvertible>(
        with sampler: Sampler
    ) -> SignalProducer<(Value, Sampler.Value), Error> where Sampler.Error == Never {
        sample(with: sampler.producer)
    }

    /// A producer that sends the latest value of this start each time `sampler` sends a value.
    ///
    /// Each start starts this producer first, then `sampler`.
    ///
    /// - Parameter sampler: The producer started after this one on each start; its every value
    ///   sends the start's latest value.
    /// - Returns: A producer whose starts send their latest value once per sampler value after
    ///   their first value, and end as those of `sample(with:)` do.
    public func sample(on sampler: SignalProducer<(), Never>) -> SignalProducer<Value, Error> {
        sample(with: sampler).map { $0.0 }
    }

    /// A producer that sends the latest value of this start each time `sampler` sends a value.
    ///
    /// - Parameter sampler: A signal, producer or property of `()`, used as a producer started
    ///   after this one on each start; its every value sends the start's latest value.
    /// - Returns: A producer whose starts send their latest value once per sampler value after
    ///   their first value, and end as those of `sample(with:)` do.
    public func sample<Sampler: SignalProducerConvertible>(
        on sampler: Sampler
    ) -> SignalProducer<Value, Error> where Sampler.Value == (), Sampler.Error == Never {
        sample(on: sampler.producer)
    }
}

extension CombiningStream {
    /// The one wiring of `sample(with:)` for signals and producers: a `SampleStateMachine` in a
    /// combining stage; each instance attaches `source`, then `sampler`.
    @inlinable
    static func sampling<Source: CombiningStream, T>(
        _ source: Source,
        with sampler: some CombiningStream<T, Never>
    ) -> Self where Value == (Source.Value, T), Source.Error == Error {
        combiningPair(
            SampleStateMachine<Source.Value, T>.self,
            [
                source.combiningSource.map(PairElement.first),
                sampler.combiningSource.map(PairElement.second, promotingErrorTo: Error.self),
            ])
    }
}
