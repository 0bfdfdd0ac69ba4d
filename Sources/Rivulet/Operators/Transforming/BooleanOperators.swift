// Logical operators on streams of `Bool`. `negate` is a `map`; the others combine the latest
// values of their inputs with `combineLatest` and reduce them, so they share its semantics: a
// result is sent once every input has sent a value, completion waits for every input, and a
// failure or interruption of any input ends the result at once.

extension Signal where Value == Bool {
    /// A signal of the logical NOT of each value.
    ///
    /// - Returns: A signal of the negated values, ending when this signal ends.
    @inlinable
    public func negate() -> Signal<Bool, Error> {
        flatMapEventSharingTurn(Event.mapValues(!))
    }

    /// A signal of the logical AND of the latest values of this signal and `signal`.
    ///
    /// - Parameter signal: The other operand.
    /// - Returns: A signal of the AND of both latest values, sent each time either signal sends a
    ///   value once both have sent one; it completes when both have completed, and fails or is
    ///   interrupted as soon as either does.
    public func and(_ signal: Signal<Bool, Error>) -> Signal<Bool, Error> {
        Signal.all([self, signal])
    }

    /// A signal of the logical OR of the latest values of this signal and `signal`.
    ///
    /// - Parameter signal: The other operand.
    /// - Returns: A signal of the OR of both latest values, sent each time either signal sends a
    ///   value once both have sent one; it completes when both have completed, and fails or is
    ///   interrupted as soon as either does.
    public func or(_ signal: Signal<Bool, Error>) -> Signal<Bool, Error> {
        Signal.any([self, signal])
    }

    /// A signal of the logical AND of the latest values of `booleans`. With no signal, the result
    /// has already completed.
    ///
    /// - Parameter booleans: The operands; may be empty.
    /// - Returns: A signal of the AND of the latest values, sent each time one of `booleans` sends
    ///   a value once each has sent one; it completes when all have completed, and fails or is
    ///   interrupted as soon as one does.
    public static func all<BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> Signal<Bool, Error> where BooleansCollection.Element == Signal<Bool, Error> {
        combineLatest(booleans).map { !$0.contains(false) }
    }

    /// A signal of the logical AND of the latest values of `booleans`.
    ///
    /// - Parameter booleans: The operands.
    /// - Returns: A signal of the AND of the latest values, which ends as the collection form's
    ///   result does.
    public static func all(_ booleans: Signal<Bool, Error>...) -> Signal<Bool, Error> {
        all(booleans)
    }

    /// A signal of the logical OR of the latest values of `booleans`. With no signal, the result
    /// has already completed.
    ///
    /// - Parameter booleans: The operands; may be empty.
    /// - Returns: A signal of the OR of the latest values, sent each time one of `booleans` sends a
    ///   value once each has sent one; it completes when all have completed, and fails or is
    ///   interrupted as soon as one does.
    public static func any<BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> Signal<Bool, Error> where BooleansCollection.Element == Signal<Bool, Error> {
        combineLatest(booleans).map { $0.contains(true) }
    }

    /// A signal of the logical OR of the latest values of `booleans`.
    ///
    /// - Parameter booleans: The operands.
    /// - Returns: A signal of the OR of the latest values, which ends as the collection form's
    ///   result does.
    public static func any(_ booleans: Signal<Bool, Error>...) -> Signal<Bool, Error> {
        any(booleans)
    }
}

extension SignalProducer where Value == Bool {
    /// A producer of the logical NOT of each value.
    ///
    /// - Returns: A producer whose starts send the negated values, and end when this producer's
    ///   start ends.
    @inlinable
    public func negate() -> SignalProducer<Bool, Error> {
        flatMapEvent(Signal.Event.mapValues(!))
    }

    /// A producer of the logical AND of the latest values of this producer and `booleans`.
    ///
    /// - Parameter booleans: The other operand, started along with this producer on each start.
    /// - Returns: A producer whose starts send the AND of both latest values once both have sent
    ///   one; a start completes when both have completed, and fails or is interrupted as soon as
    ///   either does.
    public func and(_ booleans: SignalProducer<Bool, Error>) -> SignalProducer<Bool, Error> {
        SignalProducer.all([self, booleans])
    }

    /// A producer of the logical AND of the latest values of this producer and `booleans`.
    ///
    /// - Parameter booleans: The other operand: a signal, producer or property, used as a producer
    ///   started along with this one on each start.
    /// - Returns: A producer whose starts send the AND of both latest values once both have sent
    ///   one, and end as those of `and(_:)` with a producer do.
    public func and<Booleans: SignalProducerConvertible>(
        _ booleans: Booleans
    ) -> SignalProducer<Bool, Error> where Booleans.Value == Bool, Booleans.Error == Error {
        and(booleans.producer)
    }

    /// A producer of the logical OR of the latest values of this producer and `booleans`.
    ///
    /// - Parameter booleans: The other operand, started along with this producer on each start.
    /// - Returns: A producer whose starts send the OR of both latest values once both have sent
    ///   one; a start completes when both have completed, and fails or is interrupted as soon as
    ///   either does.
    public func or(_ booleans: SignalProducer<Bool, Error>) -> SignalProducer<Bool, Error> {
        SignalProducer.any([self, booleans])
    }

    /// A producer of the logical OR of the latest values of this producer and `booleans`.
    ///
    /// - Parameter booleans: The other operand: a signal, producer or property, used as a producer
    ///   started along with this one on each start.
    /// - Returns: A producer whose starts send the OR of both latest values once both have sent
    ///   one, and end as those of `or(_:)` with a producer do.
    public func or<Booleans: SignalProducerConvertible>(
        _ booleans: Booleans
    ) -> SignalProducer<Bool, Error> where Booleans.Value == Bool, Booleans.Error == Error {
        or(booleans.producer)
    }

    /// A producer of the logical AND of the latest values of `booleans`. With no producer, a start
    /// sends `true` (the AND of nothing), then completes.
    ///
    /// - Parameter booleans: The operands, all started on each start; may be empty.
    /// - Returns: A producer whose starts send the AND of the latest values once each operand has
    ///   sent one; a start completes when all have completed, and fails or is interrupted as soon
    ///   as one does.
    public static func all<BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> SignalProducer<Bool, Error> where BooleansCollection.Element == SignalProducer<Bool, Error> {
        combineLatest(booleans, emptySentinel: []).map { !$0.contains(false) }
    }

    /// A producer of the logical AND of the latest values of `booleans`.
    ///
    /// - Parameter booleans: The operands, all started on each start.
    /// - Returns: A producer whose starts send the AND of the latest values, and end as those of
    ///   the collection form do.
    public static func all(_ booleans: SignalProducer<Bool, Error>...) -> SignalProducer<Bool, Error> {
        all(booleans)
    }

    /// A producer of the logical AND of the latest values of `booleans` (signals, producers,
    /// properties). With none, a start sends `true`, then completes.
    ///
    /// - Parameter booleans: The operands, used as producers all started on each start; may be
    ///   empty.
    /// - Returns: A producer whose starts send the AND of the latest values, and end as those of
    ///   the collection form do.
    public static func all<Booleans: SignalProducerConvertible, BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> SignalProducer<Bool, Error>
    where Booleans.Value == Bool, Booleans.Error == Error, BooleansCollection.Element == Booleans {
        all(booleans.map(\.producer))
    }

    /// A producer of the logical OR of the latest values of `booleans`. With no producer, a start
    /// sends `false` (the OR of nothing), then completes.
    ///
    /// - Parameter booleans: The operands, all started on each start; may be empty.
    /// - Returns: A producer whose starts send the OR of the latest values once each operand has
    ///   sent one; a start completes when all have completed, and fails or is interrupted as soon
    ///   as one does.
    public static func any<BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> SignalProducer<Bool, Error> where BooleansCollection.Element == SignalProducer<Bool, Error> {
        combineLatest(booleans, emptySentinel: []).map { $0.contains(true) }
    }

    /// A producer of the logical OR of the latest values of `booleans`.
    ///
    /// - Parameter booleans: The operands, all started on each start.
    /// - Returns: A producer whose starts send the OR of the latest values, and end as those of the
    ///   collection form do.
    public static func any(_ booleans: SignalProducer<Bool, Error>...) -> SignalProducer<Bool, Error> {
        any(booleans)
    }

    /// A producer of the logical OR of the latest values of `booleans` (signals, producers,
    /// properties). With none, a start sends `false`, then completes.
    ///
    /// - Parameter booleans: The operands, used as producers all started on each start; may be
    ///   empty.
    /// - Returns: A producer whose starts send the OR of the latest values, and end as those of the
    ///   collection form do.
    public static func any<Booleans: SignalProducerConvertible, BooleansCollection: Collection>(
        _ booleans: BooleansCollection
    ) -> SignalProducer<Bool, Error>
    where Booleans.Value == Bool, Booleans.Error == Error, BooleansCollection.Element == Booleans {
        any(booleans.map(\.producer))
    }
}
