extension SignalProducer {
    /// A producer whose starts run on `scheduler`: each start of the result asks `scheduler` to
    /// start this producer (its start handler and everything it does synchronously run there).
    ///
    /// Events are still delivered wherever this producer sends them; add `observe(on:)` to move
    /// delivery too. Disposing of the start before the scheduler ran it cancels it: this producer
    /// is then never started.
    ///
    /// - Parameters:
    ///   - scheduler: Where each start runs.
    public func start(on scheduler: Scheduler) -> SignalProducer<Value, Error> {
        .fused({ downstream, lifetime in
            // The scheduler's callback carries nothing; the mailbox hands the start (with the
            // downstream sink) over to the scheduler's thread.
            var mailbox: Mailbox<Void>?
            let startMailbox = Mailbox<Void> { _ in
                // Started at most once, and never after the start was disposed of.
                mailbox?.close()
                mailbox = nil
                if !lifetime.hasEnded {
                    self.startInstance(downstream, lifetime)
                }
            }
            mailbox = startMailbox
            lifetime.observeEnded { startMailbox.close() }
            lifetime += scheduler.schedule { startMailbox.send(()) }
        })
    }
}
