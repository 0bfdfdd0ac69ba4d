// sample(with:), sample(on:)

extension Signal {
    /// A signal that, each time `sampler` sends a value, sends the latest value of this signal
    /// paired with the sampler's value.
    ///
    /// Nothing is sent for a sampler value that arrives before this signal's first value; the
    /// latest value can be sent many times. The result completes once both have completed, fails
    /// when this signal fails, and is interrupted when either is interrupted.
    @inlinable
    public func sample<T>(with sampler: Signal<T, Never>) -> Signal<(Value, T), Error> {
        .sampling(self, with: sampler)
    }

    /// A signal that sends the latest value of this signal each time `sampler` sends a value.
    ///
    /// Completion and interruption follow `sample(with:)`.
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
    @inlinable
    public func sample<T>(with sampler: SignalProducer<T, Never>) -> SignalProducer<(Value, T), Error> {
        // Either may complete first while the other goes on: each stops its work as it ends.
        .sampling(self, with: sampler)
    }

    /// A producer that, each time `sampler` sends a value, sends the latest value of this start
    /// paired with the sampler's value.
    public func sample<Sampler: SignalProducerConvertible>(
        with sampler: Sampler
    ) -> SignalProducer<(Value, Sampler.Value), Error> where Sampler.Error == Never {
        sample(with: sampler.producer)
    }

    /// A producer that sends the latest value of this start each time `sampler` sends a value.
    ///
    /// Each start starts this producer first, then `sampler`.
    public func sample(on sampler: SignalProducer<(), Never>) -> SignalProducer<Value, Error> {
        sample(with: sampler).map { $0.0 }
    }

    /// A producer that sends the latest value of this start each time `sampler` sends a value.
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
