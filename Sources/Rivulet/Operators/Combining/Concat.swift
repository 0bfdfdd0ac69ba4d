extension SignalProducer {
    /// A producer that runs this producer, then `next` once this one has completed.
    ///
    /// A failure of this producer ends the result, and `next` never starts. Like any `.concat`
    /// flattening, an interruption of this producer counts as its completion: `next` starts.
    ///
    /// - Parameter next: The producer started once this one has completed or been interrupted;
    ///   it is not started if this one fails.
    /// - Returns: A producer of this producer's values, then those of `next`; it fails as soon
    ///   as either fails, and otherwise ends when `next` ends.
    public func concat(_ next: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        SignalProducer<SignalProducer<Value, Error>, Error>([self, next]).flatten(.concat)
    }

    /// A producer that runs this producer, then `next` (a signal, producer, property, …) once
    /// this one has completed.
    ///
    /// - Parameter next: What to run once this producer has completed or been interrupted; its
    ///   producer is not started if this one fails.
    /// - Returns: A producer of this producer's values, then those of `next`; it fails as soon
    ///   as either fails, and otherwise ends when `next` ends.
    public func concat<Next: SignalProducerConvertible>(
        _ next: Next
    ) -> SignalProducer<Value, Error> where Next.Value == Value, Next.Error == Error {
        concat(next.producer)
    }

    /// A producer that sends this producer's values, then `value` when it completes.
    ///
    /// - Parameter value: The value sent last, after this producer has completed.
    /// - Returns: A producer of this producer's values and then `value`, which then completes; if
    ///   this producer fails, it fails at once, without `value`.
    public func concat(value: Value) -> SignalProducer<Value, Error> {
        concat(SignalProducer(value: value))
    }

    /// A producer that sends this producer's values, then fails with `error` instead of completing.
    ///
    /// - Parameter error: The error the result fails with once this producer has completed.
    /// - Returns: A producer of this producer's values that then fails with `error` (or with this
    ///   producer's own error, if it fails).
    public func concat(error: Error) -> SignalProducer<Value, Error> {
        concat(SignalProducer(error: error))
    }

    /// A producer that runs `previous` first, then this producer once `previous` has completed.
    ///
    /// - Parameter previous: The producer run first; this producer starts once it has completed
    ///   or been interrupted, and not at all if it fails.
    /// - Returns: A producer of the values of `previous`, then those of this producer; it fails
    ///   as soon as either fails, and otherwise ends when this producer ends.
    public func prefix(_ previous: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        previous.concat(self)
    }

    /// A producer that runs `previous` (a signal, producer, property, …) first, then this
    /// producer once `previous` has completed.
    ///
    /// - Parameter previous: What to run first; this producer starts once its producer has
    ///   completed or been interrupted, and not at all if it fails.
    /// - Returns: A producer of the values of `previous`, then those of this producer; it fails
    ///   as soon as either fails, and otherwise ends when this producer ends.
    public func prefix<Previous: SignalProducerConvertible>(
        _ previous: Previous
    ) -> SignalProducer<Value, Error> where Previous.Value == Value, Previous.Error == Error {
        prefix(previous.producer)
    }

    /// A producer that sends `value` first, then this producer's events.
    ///
    /// - Parameter value: The value sent first, at each start.
    /// - Returns: A producer of `value` followed by this producer's events.
    public func prefix(value: Value) -> SignalProducer<Value, Error> {
        prefix(SignalProducer(value: value))
    }
}

// MARK: - then

extension Signal.Event {
    /// The stage behind `then`: ignores values, forwards failure and interruption at once; on
    /// completion, starts `replacement` into the same downstream.
    static func thenSink<U, F>(
        _ replacement: SignalProducer<U, F>,
        promote: @escaping (Error) -> F,
        downstream: @escaping EventSink<U, F>,
        lifetime: Lifetime
    ) -> EventSink<Value, Error> {
        handOverSink(downstream: downstream, lifetime: lifetime) { event in
            switch event {
            case .value: .drop
            case let .failed(error): .forward(.failed(promote(error)))
            case .completed: .replace { replacement }
            case .interrupted: .forward(.interrupted)
            }
        }
    }
}

extension SignalProducer {
    /// Runs this producer ignoring its values, then `replacement` once it has completed.
    fileprivate func thenStarting<U, F>(
        _ replacement: SignalProducer<U, F>,
        promote: @escaping (Error) -> F
    ) -> SignalProducer<U, F> {
        SignalProducer<U, F>.fused({ downstream, lifetime in
            self.startHandingOver(
                in: lifetime,
                to: Signal.Event.thenSink(replacement, promote: promote, downstream: downstream, lifetime: lifetime))
        })
    }

    /// A producer that waits for this producer to complete, ignoring its values, then forwards
    /// the events of `replacement` (which cannot fail).
    ///
    /// A failure or interruption of this producer is forwarded at once, and `replacement` never starts.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer fails or is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's failure or
    ///   interruption, whichever comes first.
    public func then<Replacement: SignalProducerConvertible>(
        _ replacement: Replacement
    ) -> SignalProducer<Replacement.Value, Error> where Replacement.Error == Never {
        thenStarting(replacement.producer.flattenPromoted(), promote: { $0 })
    }

    /// A producer that waits for this producer to complete, ignoring its values, then forwards
    /// the events of `replacement`.
    ///
    /// A failure or interruption of this producer is forwarded at once, and `replacement` never starts.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer fails or is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's failure or
    ///   interruption, whichever comes first.
    public func then<Replacement: SignalProducerConvertible>(
        _ replacement: Replacement
    ) -> SignalProducer<Replacement.Value, Error> where Replacement.Error == Error {
        thenStarting(replacement.producer, promote: { $0 })
    }

    /// A producer that waits for this producer to complete, ignoring its values, then forwards
    /// the events of `replacement`, which sends values of the same type.
    ///
    /// A failure or interruption of this producer is forwarded at once, and `replacement` never starts.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer fails or is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's failure or
    ///   interruption, whichever comes first.
    public func then<Replacement: SignalProducerConvertible>(
        _ replacement: Replacement
    ) -> SignalProducer<Value, Error> where Replacement.Value == Value, Replacement.Error == Error {
        thenStarting(replacement.producer, promote: { $0 })
    }

    // The forms typed to `SignalProducer` let the argument be written as an implicit member,
    // `then(.empty)` or `then(.init(value: x))`, as in ReactiveSwift: a protocol-typed parameter
    // gives the compiler no type to look `.empty` up in.

    /// `then(_:)` for a replacement that cannot fail, written as a `SignalProducer`.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer fails or is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's failure or
    ///   interruption, whichever comes first.
    public func then<U>(_ replacement: SignalProducer<U, Never>) -> SignalProducer<U, Error> {
        thenStarting(replacement.flattenPromoted(), promote: { $0 })
    }

    /// `then(_:)` for a replacement with this producer's error, written as a `SignalProducer`.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer fails or is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's failure or
    ///   interruption, whichever comes first.
    public func then<U>(_ replacement: SignalProducer<U, Error>) -> SignalProducer<U, Error> {
        thenStarting(replacement, promote: { $0 })
    }

    /// `then(_:)` for a replacement of this producer's type, written as a `SignalProducer`.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer fails or is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's failure or
    ///   interruption, whichever comes first.
    public func then(_ replacement: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        thenStarting(replacement, promote: { $0 })
    }
}

extension SignalProducer where Error == Never {
    /// A producer that waits for this producer to complete, ignoring its values, then forwards
    /// the events of `replacement`, including its failure.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's interruption
    ///   if that comes first.
    public func then<Replacement: SignalProducerConvertible>(
        _ replacement: Replacement
    ) -> SignalProducer<Replacement.Value, Replacement.Error> {
        thenStarting(replacement.producer, promote: flattenNever)
    }

    /// A producer that waits for this producer to complete, ignoring its values, then forwards
    /// the events of `replacement`.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's interruption
    ///   if that comes first.
    public func then<Replacement: SignalProducerConvertible>(
        _ replacement: Replacement
    ) -> SignalProducer<Replacement.Value, Never> where Replacement.Error == Never {
        thenStarting(replacement.producer, promote: flattenNever)
    }

    /// A producer that waits for this producer to complete, ignoring its values, then forwards
    /// the events of `replacement`, which sends values of the same type.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's interruption
    ///   if that comes first.
    public func then<Replacement: SignalProducerConvertible>(
        _ replacement: Replacement
    ) -> SignalProducer<Value, Never> where Replacement.Value == Value, Replacement.Error == Never {
        thenStarting(replacement.producer, promote: flattenNever)
    }

    /// `then(_:)` for any replacement, written as a `SignalProducer` (so `.init(…)` can name it).
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's interruption
    ///   if that comes first.
    public func then<U, F>(_ replacement: SignalProducer<U, F>) -> SignalProducer<U, F> {
        thenStarting(replacement, promote: flattenNever)
    }

    /// `then(_:)` for a replacement that cannot fail, written as a `SignalProducer`.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's interruption
    ///   if that comes first.
    public func then<U>(_ replacement: SignalProducer<U, Never>) -> SignalProducer<U, Never> {
        thenStarting(replacement, promote: flattenNever)
    }

    /// `then(_:)` for a replacement of this producer's type, written as a `SignalProducer`.
    ///
    /// - Parameter replacement: What to start once this producer has completed; it is never
    ///   started if this producer is interrupted.
    /// - Returns: A producer of the events of `replacement`, or of this producer's interruption
    ///   if that comes first.
    public func then(_ replacement: SignalProducer<Value, Never>) -> SignalProducer<Value, Never> {
        thenStarting(replacement, promote: flattenNever)
    }
}
