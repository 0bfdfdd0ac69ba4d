// withLatest(from:)

extension Signal {
    /// A signal that pairs each value of this signal with the latest value of `samplee`.
    ///
    /// Values that arrive before `samplee`'s first value are dropped. The result ends when this
    /// signal ends; `samplee`'s terminal events are ignored (its last value stays in use).
    ///
    /// - Parameter samplee: The signal whose latest value is paired with each value; its terminal
    ///   events are ignored.
    /// - Returns: A signal of `(value, latest samplee value)` pairs, ending when this signal ends.
    @inlinable
    public func withLatest<U>(from samplee: Signal<U, Never>) -> Signal<(Value, U), Error> {
        .pairing(self, withLatestFrom: samplee)
    }

    /// A signal that pairs each value of this signal with the latest value of `samplee`, which is
    /// started when the signal is created and stopped when it ends.
    ///
    /// - Parameter samplee: The producer whose latest value is paired with each value; its terminal
    ///   events are ignored.
    /// - Returns: A signal of `(value, latest samplee value)` pairs, ending when this signal ends.
    @inlinable
    public func withLatest<U>(from samplee: SignalProducer<U, Never>) -> Signal<(Value, U), Error> {
        // The samplee may end long before this signal: it stops its work when it does.
        .pairing(self, withLatestFrom: samplee)
    }

    /// A signal that pairs each value of this signal with the latest value of `samplee`.
    ///
    /// - Parameter samplee: A signal, producer or property, used as a producer started when the
    ///   signal is created; its latest value is paired with each value, and its terminal events are
    ///   ignored.
    /// - Returns: A signal of `(value, latest samplee value)` pairs, ending when this signal ends.
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
    ///
    /// - Parameter samplee: The producer started before this one on each start; its latest value is
    ///   paired with each value, and its terminal events are ignored.
    /// - Returns: A producer whose starts send `(value, latest samplee value)` pairs, and end when
    ///   this producer's start ends.
    @inlinable
    public func withLatest<U>(from samplee: SignalProducer<U, Never>) -> SignalProducer<(Value, U), Error> {
        // The samplee may end long before this producer: it stops its work when it does.
        .pairing(self, withLatestFrom: samplee)
    }

    /// A producer that pairs each value of a start with the latest value of `samplee`.
    ///
    /// - Parameter samplee: A signal, producer or property, used as a producer started before this
    ///   one on each start; its latest value is paired with each value, and its terminal events are
    ///   ignored.
    /// - Returns: A producer whose starts send `(value, latest samplee value)` pairs, and end when
    ///   this producer's start ends.
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
