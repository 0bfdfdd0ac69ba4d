extension SignalProducer {
    /// A producer whose starts run on `scheduler`: each start of the result asks `scheduler` to
    /// start this producer (its start handler and everything it does synchronously run there).
    ///
    /// Events are still delivered wherever this producer sends them; add `observe(on:)` to move
    /// delivery too. Disposing of the start before the scheduler ran it cancels it: this producer
    /// is then never started.
    ///
    /// Disposing of a start interrupts it here, below this producer, as in ReactiveSwift, whose
    /// start of this producer runs on its own: what follows sees `interrupted` first, then this
    /// producer's start is disposed of (its own stages see the interruption after those below).
    ///
    /// - Parameter scheduler: Where each start runs.
    /// - Returns: A producer whose starts start this producer on `scheduler`, and forward its
    ///   events.
    public func start(on scheduler: Scheduler) -> SignalProducer<Value, Error> where Value: Sendable {
        .fused({ downstream, lifetime in
            let (upstream, relay) = UpstreamLifetime.relaying(to: downstream, in: lifetime)
            // The scheduler's callback carries nothing; the mailbox hands the start (with the
            // relay's sink) over to the scheduler's thread.
            var mailbox: Mailbox<Void>?
            let startMailbox = Mailbox<Void> { _ in
                // Started at most once, and never after the start was disposed of.
                mailbox?.close()
                mailbox = nil
                if !upstream.lifetime.hasEnded {
                    self.startInstance(relay, upstream.lifetime)
                }
            }
            mailbox = startMailbox
            lifetime.observeEnded { startMailbox.close() }
            lifetime += scheduler.schedule { startMailbox.send(()) }
        })
    }
}
