extension Signal.Event where Value: Sequence {
    /// The stage behind `flatten()` for sequences: sends the elements of each sequence value in
    /// order. If the stream ends while a sequence is being sent (a downstream stage terminated
    /// it), the rest of that sequence is skipped, so even an endless sequence stops.
    @inlinable
    static func flattenSequences() -> EventTransform<Value, Error, Value.Element, Error> {
        { downstream, lifetime in
            { event in
                switch event {
                case let .value(sequence):
                    for element in sequence {
                        downstream(.value(element))
                        if lifetime.hasEnded { return }
                    }
                case let .failed(error): downstream(.failed(error))
                case .completed: downstream(.completed)
                case .interrupted: downstream(.interrupted)
                }
            }
        }
    }
}

extension Signal where Value: Sequence {
    /// A signal that sends the elements of each sequence value in order, one value per element.
    ///
    /// - Returns: A signal of the elements of every sequence, in order, ending when this signal
    ///   ends.
    @inlinable
    public func flatten() -> Signal<Value.Element, Error> {
        flatMapEventSharingTurn(Event.flattenSequences())
    }
}

extension SignalProducer where Value: Sequence {
    /// A producer that sends the elements of each sequence value in order, one value per element.
    ///
    /// - Returns: A producer whose starts send the elements of every sequence, in order, and end
    ///   when this producer's start ends.
    @inlinable
    public func flatten() -> SignalProducer<Value.Element, Error> {
        flatMapEvent(Signal.Event.flattenSequences())
    }
}
