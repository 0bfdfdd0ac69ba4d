extension Channel {
    /// Attaches an output that calls `handler` with every result (A1), on `context`.
    ///
    /// Activation values (A2) reach `handler` before `subscribe` returns, whatever the context.
    /// On a plain channel that already has an output, the new output receives
    /// `.failure(.other(ChannelBindError<Value>.duplicate(nil)))` at once and the first is
    /// unaffected (A4).
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs; `.direct` (the default) runs it on the delivering thread.
    ///   - handler: Called with each value, then at most one end.
    /// - Returns: The output; keep it, since releasing it deactivates the graph (A6).
    @inlinable
    public func subscribe(
        context: Exec = .direct, _ handler: @escaping @Sendable (Result<Value, ChannelEnd>) -> Void
    ) -> ChannelOutput<Value> where Value: Sendable {
        let consumer = OutputConsumer<Value>(context: context) {
            handler($0)
            return true
        }
        return attachOutput(consumer, keepingItAlive: false)
    }

    /// Attaches an output that calls `handler` with every value; the end is not reported.
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs.
    ///   - handler: Called with each value.
    /// - Returns: The output; keep it, since releasing it deactivates the graph (A6).
    @inlinable
    public func subscribeValues(
        context: Exec = .direct, _ handler: @escaping @Sendable (Value) -> Void
    ) -> ChannelOutput<Value> where Value: Sendable {
        attachOutput(OutputConsumer.values(on: context, handler: handler), keepingItAlive: false)
    }

    /// Attaches an output that keeps itself alive until `handler` returns `false` or an end
    /// arrives.
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs.
    ///   - handler: Called with each result; returning `false` cancels the output.
    @inlinable
    public func subscribeWhile(
        context: Exec = .direct, _ handler: @escaping @Sendable (Result<Value, ChannelEnd>) -> Bool
    ) where Value: Sendable {
        _ = attachOutput(OutputConsumer(context: context, handler: handler), keepingItAlive: true)
    }

    @inlinable
    func attachOutput(
        _ consumer: OutputConsumer<Value>, keepingItAlive: Bool
    ) -> ChannelOutput<Value> {
        let output = ChannelOutput(link: consumer.link)
        // Set before any result can arrive, so that the self-retained output is let go only by
        // its handler's answer or the end.
        if keepingItAlive { consumer.link.keepAlive(output) }
        // The outcome alone: an output does not need the node back (its link records it).
        let outcome = if let connector { connector(consumer, nil).outcome } else { attach(consumer, run: nil) }
        if case .attached = outcome { return output }
        Self.refuse(consumer, outcome)
        return output
    }

    /// Tells an output that was not attached why (A4, or the channel's end). Out of line, so
    /// that `attachOutput` stays small enough to inline: an output that does not escape then
    /// needs no allocation.
    @inlinable @inline(never)
    static func refuse(_ consumer: OutputConsumer<Value>, _ outcome: AttachOutcome) {
        switch outcome {
        case .attached:
            break
        case .duplicate:
            consumer.receive(.failure(.other(ChannelBindError<Value>.duplicate(nil))), true)
        case let .ended(end):
            consumer.receive(.failure(end), true)
        }
    }
}
