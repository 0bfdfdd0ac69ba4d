// ReactiveSwift offers unserialized signals as a speed-up that trades away E5/E6. Rivulet's
// serialized delivery costs no allocation and only an uncontended lock per send, so these entry
// points exist for source compatibility and keep every guarantee (a stronger contract is always
// a valid substitute for a weaker one).

extension Signal {
    /// The same as `Signal(_:)`: Rivulet signals are always serialized.
    ///
    /// Kept for source compatibility with ReactiveSwift, where this skips serialization.
    ///
    /// - Parameter generator: Run at once with the signal's input observer and lifetime (S1).
    /// - Returns: The signal.
    public static func unserialized(_ generator: (Observer, Lifetime) -> Void) -> Signal {
        Signal(generator)
    }

    /// The same as `Signal(_:)`: Rivulet signals are always serialized and queue re-entrant sends (E6).
    ///
    /// - Parameter generator: Run at once with the signal's input observer and lifetime (S1).
    /// - Returns: The signal.
    public static func reentrantUnserialized(_ generator: (Observer, Lifetime) -> Void) -> Signal {
        Signal(generator)
    }

    /// The same as `pipe(disposable:)`: Rivulet signals are always serialized.
    ///
    /// - Parameter disposable: Disposed of when the signal terminates or is disposed of.
    /// - Returns: The signal and its input observer.
    public static func unserializedPipe(disposable: Disposable? = nil) -> (output: Signal, input: Observer) {
        pipe(disposable: disposable)
    }

    /// The same as `pipe(disposable:)`: Rivulet signals are always serialized and queue re-entrant sends (E6).
    ///
    /// - Parameter disposable: Disposed of when the signal terminates or is disposed of.
    /// - Returns: The signal and its input observer.
    public static func reentrantUnserializedPipe(
        disposable: Disposable? = nil
    ) -> (output: Signal, input: Observer) {
        pipe(disposable: disposable)
    }
}

extension SignalProducer {
    /// The same as `SignalProducer(_:)`: the start handler's observer is always serialized.
    ///
    /// - Parameter startHandler: The work of one start, with the start's input observer and
    ///   lifetime.
    /// - Returns: The producer.
    public static func unserialized(
        _ startHandler: @escaping @Sendable (Signal<Value, Error>.Observer, Lifetime) -> Void
    ) -> SignalProducer {
        SignalProducer(startHandler)
    }

    /// The same as `SignalProducer(_:)`: the start handler's observer is always serialized.
    ///
    /// - Parameter startHandler: The work of one start, with the start's input observer and
    ///   lifetime.
    /// - Returns: The producer.
    public static func reentrantUnserialized(
        _ startHandler: @escaping @Sendable (Signal<Value, Error>.Observer, Lifetime) -> Void
    ) -> SignalProducer {
        SignalProducer(startHandler)
    }
}
