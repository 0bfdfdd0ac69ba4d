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
    public func subscribe(
        context: Exec = .direct, _ handler: @escaping (Result<Value, ChannelEnd>) -> Void
    ) -> ChannelOutput<Value> {
        attachOutput(
            OutputConsumer(context: context) {
                handler($0); return true
            })
    }

    /// Attaches an output that calls `handler` with every value; the end is not reported.
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs.
    ///   - handler: Called with each value.
    /// - Returns: The output; keep it, since releasing it deactivates the graph (A6).
    public func subscribeValues(
        context: Exec = .direct, _ handler: @escaping (Value) -> Void
    ) -> ChannelOutput<Value> {
        attachOutput(
            OutputConsumer(context: context) { result in
                if case let .success(value) = result { handler(value) }
                return true
            })
    }

    /// Attaches an output that keeps itself alive until `handler` returns `false` or an end
    /// arrives.
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs.
    ///   - handler: Called with each result; returning `false` cancels the output.
    public func subscribeWhile(
        context: Exec = .direct, _ handler: @escaping (Result<Value, ChannelEnd>) -> Bool
    ) {
        let consumer = OutputConsumer(context: context, handler: handler)
        _ = attachOutput(consumer, keepingItAlive: true)
    }

    func attachOutput(_ consumer: OutputConsumer<Value>, keepingItAlive: Bool = false) -> ChannelOutput<Value> {
        let output = ChannelOutput(channel: self, consumer: consumer)
        // Set before any result can arrive, so that only the handler's own thread clears it.
        if keepingItAlive { consumer.retainedOutput = output }
        ActivationRun.perform { run in
            switch connect(consumer, run: run) {
            case .attached:
                break
            case .duplicate:
                consumer.receive(.failure(.other(ChannelBindError<Value>.duplicate(nil))), activating: true)
            case let .ended(end):
                consumer.receive(.failure(end), activating: true)
            }
        }
        return output
    }
}
