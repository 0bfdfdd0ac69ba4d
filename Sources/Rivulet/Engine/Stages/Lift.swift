extension SignalProducer {
    /// Applies a signal operator to every start of this producer (P3).
    ///
    /// Each start of the result starts this producer, passes its signal through `transform`, and
    /// forwards the transformed signal's events. Built-in operators are fused instead; `lift` is
    /// how a custom signal operator becomes a producer operator with the same semantics.
    ///
    /// - Parameter transform: The signal operator; called once per start with that start's signal,
    ///   and the signal it returns is the one whose events the start sends.
    /// - Returns: A producer whose every start starts this producer and sends the events of
    ///   `transform` applied to its signal; disposing of the start interrupts this producer's start
    ///   (P4).
    @inlinable
    public func lift<U, F>(
        _ transform: @escaping (Signal<Value, Error>) -> Signal<U, F>
    ) -> SignalProducer<U, F> {
        SignalProducer<U, F>.fused({ downstream, lifetime in
            self.startWithSignal { signal, interrupter in
                lifetime += interrupter
                lifetime += transform(signal).observe(Signal.Observer(relaying: downstream, ()))
            }
        })
    }

    /// Applies a binary signal operator to the starts of this producer and another.
    ///
    /// Each start of the resulting producer starts the other producer first, then this one (as in
    /// ReactiveSwift): with synchronous producers, the other's events are then already known when
    /// this producer's events arrive.
    ///
    /// - Parameter transform: The binary signal operator, curried; called once per start with this
    ///   producer's signal, then with the other producer's signal.
    /// - Returns: A function that takes the other producer and returns a producer whose every start
    ///   starts both and sends the events of `transform` applied to their signals; disposing of the
    ///   start interrupts both starts (P4).
    @inlinable
    public func lift<U, F, V, G>(
        _ transform: @escaping (Signal<Value, Error>) -> (Signal<U, F>) -> Signal<V, G>
    ) -> (SignalProducer<U, F>) -> SignalProducer<V, G> {
        { other in
            SignalProducer<V, G>.fused({ downstream, lifetime in
                // A `startWithSignal` starts its producer when its setup returns, so the inner
                // (this producer) is set up last but the outer (the other producer) starts last:
                // nest this producer outside to start the other one first.
                self.startWithSignal { signal, interrupter in
                    lifetime += interrupter
                    other.startWithSignal { otherSignal, otherInterrupter in
                        lifetime += otherInterrupter
                        lifetime += transform(signal)(otherSignal).observe(Signal.Observer(relaying: downstream, ()))
                    }
                }
            })
        }
    }
}
