/// A capture: an output that pulls a channel's activation values synchronously (A8) and holds
/// every later result until it is resumed, subscribed or bound, then delivers them in order.
///
/// Made by `capture()`, which activates the channel at once.
public final class ChannelCapture<Value> {
    let holder: CaptureHolder<Value>
    private let consumer: ChannelConsumer<Value>
    private let upstream: Channel<Value>
    private let attachedTo: Channel<Value>?

    init(upstream: Channel<Value>) {
        self.upstream = upstream
        let holder = CaptureHolder<Value>()
        self.holder = holder
        consumer = ChannelConsumer.closure(activationDidEnd: { holder.activationDidEnd() }) {
            holder.receive($0, activating: $1)
        }
        let connection = upstream.connectNow(consumer)
        switch connection {
        case let .attached(node):
            attachedTo = node
        case .duplicate:
            attachedTo = nil
            holder.receive(.failure(.other(ChannelBindError<Value>.duplicate(nil))), activating: true)
        case let .ended(end):
            attachedTo = nil
            holder.receive(.failure(end), activating: true)
        }
        holder.activationDidEnd()
    }

    deinit {
        attachedTo?.detach(consumer)
    }

    /// The activation values captured, in order.
    public var values: [Value] { holder.captured.values }

    /// The end captured during activation, if the channel had already ended.
    public var end: ChannelEnd? { holder.captured.end }

    /// The last captured activation value, if any.
    ///
    /// - Returns: The value, or `nil`.
    public func peek() -> Value? {
        values.last
    }

    /// The last captured activation value.
    ///
    /// - Returns: The value.
    /// - Throws: The captured end when there is no value, or `ChannelEnd.cancelled` when there is
    ///   neither.
    public func get() throws -> Value {
        let captured = holder.captured
        if let value = captured.values.last { return value }
        throw captured.end ?? ChannelEnd.cancelled
    }

    /// A channel that delivers the values held since the capture, then what follows. Only one
    /// channel resumes a capture; another one ends with `ChannelBindError.duplicate`.
    ///
    /// - Parameter resend: Which captured activation values to send first (`.none`, the
    ///   default, sends none; `.all`, `.deferred` and `.first` send them all; `.last` the last).
    /// - Returns: The resumed channel.
    public func resume(resend: ChannelActivationSelection = .none) -> Channel<Value> {
        Channel(source: .of(CaptureSource(capture: self, resend: resend)))
    }

    /// Resumes the capture into `input`'s channel, which takes it instead of `input`.
    ///
    /// - Parameters:
    ///   - input: The current input of the channel to feed.
    ///   - resend: Which captured activation values to send first.
    /// - Throws: `ChannelBindError` when `input` is not its channel's current input.
    public func bind(to input: ChannelInput<Value>, resend: ChannelActivationSelection = .none) throws {
        try resume(resend: resend).junction().bind(to: input)
    }

    /// Resumes the capture and subscribes to it (see `Channel.subscribe(context:_:)`).
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs.
    ///   - handler: Called with each result.
    /// - Returns: The output.
    public func subscribe(
        context: Exec = .direct, _ handler: @escaping @Sendable (Result<Value, ChannelEnd>) -> Void
    ) -> ChannelOutput<Value> where Value: Sendable {
        resume().subscribe(context: context, handler)
    }

    /// Resumes the capture and subscribes to its values (see `Channel.subscribeValues`).
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs.
    ///   - handler: Called with each value.
    /// - Returns: The output.
    public func subscribeValues(
        context: Exec = .direct, _ handler: @escaping @Sendable (Value) -> Void
    ) -> ChannelOutput<Value> where Value: Sendable {
        resume().subscribeValues(context: context, handler)
    }
}

// @unchecked Sendable: the capture's mutable state is in its holder's `Locked`; the rest is set
// once in `init`. Only where `Value` is Sendable: the capture hands its values to whichever thread
// reads or resumes it.
extension ChannelCapture: @unchecked Sendable where Value: Sendable {}

extension Channel {
    /// Activates this channel now and captures its activation values (A8).
    ///
    /// - Returns: The capture; later results wait in it until it is resumed.
    public func capture() -> ChannelCapture<Value> {
        ChannelCapture(upstream: self)
    }
}

/// What a capture holds: its activation values, and the results that wait for it to resume.
final class CaptureHolder<Value> {
    struct Captured {
        var values: [Value] = []
        var end: ChannelEnd?
    }

    private struct State {
        var captured = Captured()
        var isActivationOver = false
        var held: [Result<Value, ChannelEnd>] = []
        var downstream: (node: Channel<Value>, generation: UInt)?
        var resumer: ObjectIdentifier?
    }

    private let state = Locked(State())

    var captured: Captured { state.withLock { $0.captured } }

    func receive(_ result: Result<Value, ChannelEnd>, activating: Bool) {
        let downstream = state.withLock { state -> (node: Channel<Value>, generation: UInt)? in
            if activating, !state.isActivationOver {
                switch result {
                case let .success(value): state.captured.values.append(value)
                case let .failure(end): state.captured.end = end
                }
                return nil
            }
            if let downstream = state.downstream { return downstream }
            state.held.append(result)
            return nil
        }
        downstream?.node.deliver(result, generation: downstream!.generation)
    }

    func activationDidEnd() {
        state.withLock { $0.isActivationOver = true }
    }

    /// Connects the resumed channel `node`; returns what it must receive first, or `nil` if
    /// another channel already resumed the capture.
    func resume(
        into node: Channel<Value>, generation: UInt, resend: ChannelActivationSelection, by resumer: ObjectIdentifier
    ) -> [Result<Value, ChannelEnd>]? {
        state.withLock { state in
            if let current = state.resumer, current != resumer { return nil }
            state.resumer = resumer
            state.downstream = (node, generation)
            var first: [Result<Value, ChannelEnd>]
            switch resend {
            case .none: first = []
            case .last: first = state.captured.values.last.map { [.success($0)] } ?? []
            case .all, .deferred, .first: first = state.captured.values.map { .success($0) }
            }
            if let end = state.captured.end { first.append(.failure(end)) }
            first += state.held
            state.held = []
            return first
        }
    }

    /// The resumed channel deactivated: hold results again until it comes back.
    func pause(by resumer: ObjectIdentifier) {
        state.withLock { state in
            if state.resumer == resumer { state.downstream = nil }
        }
    }
}

/// The source of a resumed capture.
final class CaptureSource<Value>: ChannelSourceBehaviour {
    private let capture: ChannelCapture<Value>
    private let resend: ChannelActivationSelection
    private var sentResend = false

    init(capture: ChannelCapture<Value>, resend: ChannelActivationSelection) {
        self.capture = capture
        self.resend = resend
    }

    func activate(_ node: Channel<Value>, generation: UInt, run: ActivationRun) {
        let selection = sentResend ? .none : resend
        guard
            let first = capture.holder.resume(
                into: node, generation: generation, resend: selection, by: ObjectIdentifier(self))
        else {
            node.deliver(.failure(.other(ChannelBindError<Value>.duplicate(nil))), generation: generation)
            return
        }
        sentResend = true
        for result in first {
            node.deliver(result, generation: generation)
        }
    }

    func deactivate(_ node: Channel<Value>) {
        capture.holder.pause(by: ObjectIdentifier(self))
    }
}
