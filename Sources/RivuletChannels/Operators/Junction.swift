/// A junction: a breakable joint between a channel and the input of another channel (A10).
///
/// `bind(to:)` makes the junction's channel feed the input's channel instead of the input;
/// `disconnect()` undoes it, deactivating the junction's upstream and handing back a fresh input.
/// Values in flight on a connection that has been broken are dropped, never delivered late.
public final class ChannelJunction<Value> {
    let upstream: Channel<Value>
    private let state = Locked(JunctionState<Value>())

    init(upstream: Channel<Value>) {
        self.upstream = upstream
    }

    /// Makes this junction's channel the source of `input`'s channel; `input` stops working.
    ///
    /// - Parameter input: The current input of the channel to feed.
    /// - Throws: `ChannelBindError.cancelled` if `input` is not its channel's current input,
    ///   `.duplicate(input)` if the junction is already bound, `.loop` if the channel feeds this
    ///   junction.
    public func bind(to input: ChannelInput<Value>) throws {
        try bind(to: input, onEnd: nil)
    }

    /// Like `bind(to:)`, but an end from upstream goes to `onEnd` instead of the bound channel:
    /// the junction disconnects and hands `onEnd` the fresh input of the channel it fed.
    ///
    /// - Parameters:
    ///   - input: The current input of the channel to feed.
    ///   - onEnd: Called with the junction, the end and the fresh input.
    /// - Throws: As `bind(to:)`.
    public func bind(
        to input: ChannelInput<Value>,
        onEnd: @escaping (ChannelJunction<Value>, ChannelEnd, ChannelInput<Value>) -> Void
    ) throws {
        try bind(to: input, onEnd: Optional(onEnd))
    }

    private func bind(
        to input: ChannelInput<Value>,
        onEnd: ((ChannelJunction<Value>, ChannelEnd, ChannelInput<Value>) -> Void)?
    ) throws {
        let target = input.channel
        if upstream.draws(from: target) {
            throw ChannelBindError<Value>.loop
        }
        let source = JunctionSource(junction: self)
        let channelSource = ChannelSource.of(source, isJunction: true)
        let claimed = state.withLock { state -> Bool in
            guard state.source == nil else { return false }
            state.source = ObjectIdentifier(source)
            state.channelSource = ObjectIdentifier(channelSource)
            state.target = target
            state.onEnd = onEnd
            return true
        }
        guard claimed else { throw ChannelBindError<Value>.duplicate(input) }
        switch target.replaceInput(input, with: channelSource) {
        case .notCurrent:
            state.withLock {
                $0.source = nil
                $0.channelSource = nil
                $0.target = nil
                $0.onEnd = nil
            }
            throw ChannelBindError<Value>.cancelled
        case let .swapped(activeGeneration):
            if let activeGeneration {
                ActivationRun.perform { connect(into: target, generation: activeGeneration, source: source, run: $0) }
            }
        }
    }

    /// Breaks the connection made by `bind(to:)`: the upstream deactivates and the channel that
    /// was fed gets a fresh input, returned here.
    ///
    /// - Returns: The fresh input, or `nil` if the junction was not bound.
    @discardableResult
    public func disconnect() -> ChannelInput<Value>? {
        let taken = state.withLock { state -> (ObjectIdentifier, Channel<Value>?, JunctionConnection<Value>?)? in
            guard let source = state.channelSource else { return nil }
            defer {
                state.source = nil
                state.channelSource = nil
                state.target = nil
                state.onEnd = nil
                state.connection = nil
            }
            return (source, state.target, state.connection)
        }
        guard let (source, target, connection) = taken else { return nil }
        if let connection {
            connection.forwarder.stop()
            connection.attachedTo?.detach(connection.consumer)
        }
        return target?.restoreInput(replacing: source)
    }

    /// Disconnects and binds again to the fresh input: the upstream deactivates and activates
    /// afresh (A6).
    public func rebind() {
        guard let input = disconnect() else { return }
        try? bind(to: input)
    }

    // MARK: The connection

    func connect(into target: Channel<Value>, generation: UInt, source: JunctionSource<Value>, run: ActivationRun) {
        let forwarder = JunctionForwarder(junction: self, target: target, generation: generation)
        let consumer = ChannelConsumer<Value>.closure { result, _ in forwarder.receive(result) }
        let fresh = state.withLock { state -> Bool in
            guard state.source == ObjectIdentifier(source) else { return false }
            state.connection = JunctionConnection(
                target: target, consumer: consumer, forwarder: forwarder, attachedTo: nil)
            return true
        }
        guard fresh else { return }
        switch upstream.connect(consumer, run: run) {
        case let .attached(node):
            let kept = state.withLock { state -> Bool in
                guard state.connection?.consumer === consumer else { return false }
                state.connection?.attachedTo = node
                return true
            }
            if !kept { node.detach(consumer) }
        case .duplicate:
            forwarder.receive(.failure(.other(ChannelBindError<Value>.duplicate(nil))))
        case let .ended(end):
            forwarder.receive(.failure(end))
        }
    }

    func disconnectUpstream(for source: JunctionSource<Value>) {
        let connection = state.withLock { state -> JunctionConnection<Value>? in
            guard state.source == ObjectIdentifier(source) else { return nil }
            defer { state.connection = nil }
            return state.connection
        }
        guard let connection else { return }
        connection.forwarder.stop()
        connection.attachedTo?.detach(connection.consumer)
    }

    /// An end reached the junction: with an `onEnd` handler, disconnect and hand it the end.
    /// Returns whether the handler took it.
    func handOverEnd(_ end: ChannelEnd) -> Bool {
        guard let onEnd = state.withLock({ $0.onEnd }) else { return false }
        guard let input = disconnect() else { return true }
        onEnd(self, end, input)
        return true
    }
}

// @unchecked Sendable: a junction's mutable state is under its lock. Only where `Value` is
// Sendable, as the channels it joins.
extension ChannelJunction: @unchecked Sendable where Value: Sendable {}

extension Channel {
    /// A junction on this channel, to bind into another channel's input (and break it later).
    ///
    /// - Returns: The junction; this channel is activated only once the junction is bound and the
    ///   channel it feeds is active.
    public func junction() -> ChannelJunction<Value> {
        ChannelJunction(upstream: self)
    }
}

struct JunctionState<Value> {
    /// The bound source, by identity only: the bound channel holds it (and through it this
    /// junction), so a strong reference here would be a cycle.
    var source: ObjectIdentifier?
    var channelSource: ObjectIdentifier?
    /// Weak: the bound channel holds the junction (through its source), not the other way.
    weak var target: Channel<Value>?
    var onEnd: ((ChannelJunction<Value>, ChannelEnd, ChannelInput<Value>) -> Void)?
    var connection: JunctionConnection<Value>?
}

struct JunctionConnection<Value> {
    let target: Channel<Value>
    let consumer: ChannelConsumer<Value>
    let forwarder: JunctionForwarder<Value>
    var attachedTo: Channel<Value>?
}

/// The source of a channel fed by a junction.
final class JunctionSource<Value>: ChannelSourceBehaviour {
    let junction: ChannelJunction<Value>

    init(junction: ChannelJunction<Value>) {
        self.junction = junction
    }

    func activate(_ node: Channel<Value>, generation: UInt, run: ActivationRun) {
        junction.connect(into: node, generation: generation, source: self, run: run)
    }

    func deactivate(_ node: Channel<Value>) {
        junction.disconnectUpstream(for: self)
    }

    func reaches(_ node: AnyObject) -> Bool {
        junction.upstream.draws(from: node)
    }
}

/// What a junction's consumer on its upstream does: forward into the bound channel.
final class JunctionForwarder<Value> {
    /// The memory of `stopped`: the first stored property, never read or written directly after
    /// `init` (see Rivulet's AtomicWord.swift).
    var stoppedStorage = AtomicFlag.storage(false)
    /// Strong: the junction drops this consumer (its connection) when it disconnects.
    private let junction: ChannelJunction<Value>
    private let target: Channel<Value>
    private let generation: UInt
    private var stopped: AtomicFlag { AtomicFlag(firstStoredPropertyOf: self) }

    init(junction: ChannelJunction<Value>, target: Channel<Value>, generation: UInt) {
        self.junction = junction
        self.target = target
        self.generation = generation
    }

    func stop() {
        stopped.storeReleasing(true)
    }

    func receive(_ result: Result<Value, ChannelEnd>) {
        guard !stopped.loadAcquiring() else { return }
        if case let .failure(end) = result, junction.handOverEnd(end) { return }
        target.deliver(result, generation: generation)
    }
}
