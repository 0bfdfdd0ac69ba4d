extension Channel {
    /// A channel whose values come from `activationChange`: each activation calls it with a fresh
    /// input (A3), once the activation is complete, so what it sends are ordinary values;
    /// deactivation calls it with `nil`. Dropping the input ends the channel with `.cancelled`.
    ///
    /// - Parameters:
    ///   - context: Where `activationChange` runs.
    ///   - activationChange: Receives the input of each activation, and `nil` when it ends.
    /// - Returns: The channel.
    @inlinable
    public static func generate(
        context: Exec = .direct, _ activationChange: @escaping @Sendable (ChannelInput<Value>?) -> Void
    ) -> Channel<Value> where Value: Sendable {
        Channel(source: .of(GenerateSource(context: context, activationChange: activationChange)))
    }

    /// A multi that has already ended: each output receives `values`, then `end`.
    ///
    /// - Parameters:
    ///   - values: The values every output receives.
    ///   - end: The end that follows them.
    /// - Returns: The ended multi.
    public static func preclosed(_ values: Value..., end: ChannelEnd = .complete) -> ChannelMulti<Value> {
        preclosed(values: values, end: end)
    }

    /// A multi that has already ended with `end` and has no values.
    ///
    /// - Parameter end: The end every output receives.
    /// - Returns: The ended multi.
    public static func preclosed(end: ChannelEnd) -> ChannelMulti<Value> {
        preclosed(values: [], end: end)
    }

    /// A multi that has already ended: each output receives the elements of `values`, then `end`.
    ///
    /// - Parameters:
    ///   - values: The values every output receives.
    ///   - end: The end that follows them.
    /// - Returns: The ended multi.
    public static func preclosed(values: [Value], end: ChannelEnd = .complete) -> ChannelMulti<Value> {
        let fanOut = MultiFanOut(policy: .all, initialValues: values, end: end)
        let multi = ChannelMulti(source: .inert(), fanOut: fanOut)
        fanOut.multi = multi
        fanOut.consumer = ChannelConsumer.closure { [unowned fanOut] result, _ in fanOut.receive(result) }
        return multi
    }
}

/// The source of a `generate` channel: each activation makes a fresh input for the closure.
@usableFromInline
final class GenerateSource<Value>: ChannelSourceBehaviour {
    @usableFromInline let context: Exec
    @usableFromInline let activationChange: (ChannelInput<Value>?) -> Void

    @inlinable
    init(context: Exec, activationChange: @escaping (ChannelInput<Value>?) -> Void) {
        self.context = context
        self.activationChange = activationChange
    }

    @inlinable
    func activate(_ node: Channel<Value>, generation: UInt, run: ActivationRun) {
        let input = ChannelInput(channel: node, generation: generation)
        run.afterActivation(self, input) { source, input in
            unsafeDowncast(source, to: GenerateSource<Value>.self).call(unsafeDowncast(input, to: ChannelInput<Value>.self))
        }
    }

    @inlinable
    func deactivate(_ node: Channel<Value>) {
        call(nil)
    }

    @inlinable
    func call(_ input: ChannelInput<Value>?) {
        guard let scheduler = context.scheduler else {
            activationChange(input)
            return
        }
        let change = UncheckedSendable((activationChange, input))
        scheduler.schedule { change.value.0(change.value.1) }
    }
}

/// Carries a value that Rivulet hands from one thread to another itself, in order, to a closure
/// that the channel's contract says runs there.
@usableFromInline
struct UncheckedSendable<T>: @unchecked Sendable {
    // @unchecked Sendable: used only to move a channel's own closures and inputs onto the
    // execution context the user chose for them; the closure is never run concurrently with
    // itself because each context is serial.
    @usableFromInline let value: T

    @inlinable
    init(_ value: T) {
        self.value = value
    }
}
