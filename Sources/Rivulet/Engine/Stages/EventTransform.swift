/// Where an operator stage sends the events it produces.
///
/// Calls into a sink are serial: every source of events in Rivulet (a signal's delivery turn, a
/// producer's start, an operator's mailbox) delivers one event at a time, so a stage may keep plain
/// mutable state in its closure without a lock.
@usableFromInline
typealias EventSink<Value, Error: Swift.Error> = (Signal<Value, Error>.Event) -> Void

/// One operator stage, written once for signals and producers (O1).
///
/// Given the downstream sink and the lifetime of the stream it belongs to, a transform returns the
/// sink its upstream sends to. On a signal, the stage sits between the upstream signal and the new
/// signal; on a producer, stages are composed into one chain per start (fused: no signal per stage).
/// Work a stage schedules (timers, inner streams) is tied to `lifetime`, which ends when the
/// stream terminates or is disposed of.
@usableFromInline
typealias EventTransform<Value, Error: Swift.Error, U, F: Swift.Error> =
    (_ downstream: @escaping EventSink<U, F>, _ lifetime: Lifetime) -> EventSink<Value, Error>

extension Signal {
    /// A signal whose events are this signal's events passed through `transform`.
    @inlinable
    func flatMapEvent<U, F>(_ transform: @escaping EventTransform<Value, Error, U, F>) -> Signal<U, F> {
        Signal<U, F> { output, lifetime in
            let upstream = transform(output.sink, lifetime)
            lifetime += self.observe(Observer(relaying: upstream, ()))
        }
    }
}

extension SignalProducer {
    /// A producer whose starts run this producer's work with `transform` fused after it.
    @inlinable
    func flatMapEvent<U, F>(
        _ transform: @escaping EventTransform<Value, Error, U, F>
    ) -> SignalProducer<U, F> {
        SignalProducer<U, F>.fused({ downstream, lifetime in
            self.startInstance(transform(downstream, lifetime), lifetime)
        })
    }
}
