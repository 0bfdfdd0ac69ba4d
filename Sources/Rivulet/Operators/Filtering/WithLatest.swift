// withLatest(from:)

extension Signal {
    /// A signal that pairs each value of this signal with the latest value of `samplee`.
    ///
    /// Values that arrive before `samplee`'s first value are dropped. The result ends when this
    /// signal ends; `samplee`'s terminal events are ignored (its last value stays in use).
    @inlinable
    public func withLatest<U>(from samplee: Signal<U, Never>) -> Signal<(Value, U), Error> {
        .pairing(self, withLatestFrom: samplee)
    }

    /// A signal that pairs each value of this signal with the latest value of `samplee`, which is
    /// started when the signal is created and stopped when it ends.
    @inlinable
    public func withLatest<U>(from samplee: SignalProducer<U, Never>) -> Signal<(Value, U), Error> {
        // The samplee may end long before this signal: it stops its work when it does.
        .pairing(self, withLatestFrom: samplee)
    }

    /// A signal that pairs each value of this signal with the latest value of `samplee`.
    public func withLatest<Samplee: SignalProducerConvertible>(
        from samplee: Samplee
    ) -> Signal<(Value, Samplee.Value), Error> where Samplee.Error == Never {
        withLatest(from: samplee.producer)
    }
}

extension SignalProducer {
    /// A producer that pairs each value of a start with the latest value of `samplee`.
    ///
    /// Each start starts `samplee` first, then this producer. Values that arrive before
    /// `samplee`'s first value are dropped; the result ends when this producer's start ends, and
    /// `samplee`'s terminal events are ignored.
    @inlinable
    public func withLatest<U>(from samplee: SignalProducer<U, Never>) -> SignalProducer<(Value, U), Error> {
        // The samplee may end long before this producer: it stops its work when it does.
        .pairing(self, withLatestFrom: samplee)
    }

    /// A producer that pairs each value of a start with the latest value of `samplee`.
    public func withLatest<Samplee: SignalProducerConvertible>(
        from samplee: Samplee
    ) -> SignalProducer<(Value, Samplee.Value), Error> where Samplee.Error == Never {
        withLatest(from: samplee.producer)
    }
}

extension CombiningStream {
    /// The one wiring of `withLatest(from:)` for signals and producers: a
    /// `WithLatestStateMachine` in a combining stage; each instance attaches `samplee`, then
    /// `source`.
    @inlinable
    static func pairing<Source: CombiningStream, U>(
        _ source: Source,
        withLatestFrom samplee: some CombiningStream<U, Never>
    ) -> Self where Value == (Source.Value, U), Source.Error == Error {
        combiningPair(
            WithLatestStateMachine<Source.Value, U>.self,
            [
                samplee.combiningSource.map(PairElement.second, promotingErrorTo: Error.self),
                source.combiningSource.map(PairElement.first),
            ])
    }
}
