// `replayLazily(upTo:)`: one shared start of the upstream, begun by the first start of the
// replaying producer; every start sees the latest values (up to the capacity) and then the live
// events, or the replayed terminal event once the upstream has ended.
//
// Layout: `ReplayLazilyStateMachine` is the pure state machine; `ReplayHub` runs it for inputs that a
// `Mailbox` serializes (upstream events, attaching and detaching starts), so the machine
// needs no lock and downstream code runs with no lock held (O7); `ReplayKeeper` is what the
// returned producer and every running start retain: when the last of them lets go, it ends the
// shared upstream start, as in ReactiveSwift.

// MARK: State machine

/// The replay buffer under its earlier name (the unit tests use it).
typealias ReplayBuffer<Value> = RingBuffer<Value>

/// The decisions of `replayLazily`, free of threads and side effects: each input updates the
/// state and returns what to deliver.
struct ReplayLazilyStateMachine<Value, Error: Swift.Error> {
    typealias Event = Signal<Value, Error>.Event

    /// A running start of the replaying producer.
    struct Subscriber {
        let id: UInt64
        let sink: EventSink<Value, Error>
    }

    enum Input {
        /// An event of the shared upstream start.
        case upstream(Event)
        /// A new start wants the replay and the live events.
        case attach(Subscriber)
        /// A start has ended.
        case detach(id: UInt64)
        /// A start was disposed of: it is interrupted here, at its source, unless it has already
        /// received its terminal event.
        case interrupt(id: UInt64)
    }

    enum Action {
        case none
        /// Send `event` to each of `subscribers`, in order.
        case broadcast(Event, to: [Subscriber])
        /// Send `values` then `terminal` (if any) to `sink`: the replay for a new start.
        case replay(ContiguousArray<Value>, then: Event?, to: EventSink<Value, Error>)
    }

    private(set) var subscribers: [Subscriber] = []
    private var buffer: RingBuffer<Value>
    private var terminal: Event?

    init(capacity: Int) {
        buffer = RingBuffer(capacity: capacity)
    }

    mutating func handle(_ input: Input) -> Action {
        switch input {
        case let .upstream(event):
            // The upstream keeps E1; ignore anything after its terminal event all the same.
            guard terminal == nil else { return .none }
            switch event {
            case let .value(value):
                buffer.append(value)
                return .broadcast(event, to: subscribers)
            case .failed, .completed, .interrupted:
                terminal = event
                let last = subscribers
                subscribers = []
                return .broadcast(event, to: last)
            }
        case let .attach(subscriber):
            if terminal == nil { subscribers.append(subscriber) }
            return .replay(buffer.values, then: terminal, to: subscriber.sink)
        case let .detach(id):
            subscribers.removeAll { $0.id == id }
            return .none
        case let .interrupt(id):
            guard let index = subscribers.firstIndex(where: { $0.id == id }) else { return .none }
            return .broadcast(.interrupted, to: [subscribers.remove(at: index)])
        }
    }
}

// MARK: Running the machine

/// Owns the machine and carries out its actions. Touched only by the mailbox's handler, so inputs
/// arrive one at a time; inputs sent from inside a delivery are queued by the mailbox (E6).
final class ReplayHub<Value, Error: Swift.Error> {
    private var machine: ReplayLazilyStateMachine<Value, Error>

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    init(capacity: Int) {
        machine = ReplayLazilyStateMachine(capacity: capacity)
    }

    func handle(_ input: ReplayLazilyStateMachine<Value, Error>.Input) {
        switch machine.handle(input) {
        case .none:
            break
        case let .broadcast(event, subscribers):
            for subscriber in subscribers { subscriber.sink(event) }
        case let .replay(values, terminal, sink):
            for value in values { sink(.value(value)) }
            if let terminal { sink(terminal) }
        }
    }
}

/// What the returned producer and each of its running starts retain. When the last reference
/// goes (no copy of the producer is left and every start has ended), the shared upstream start
/// is ended and the mailbox is closed, releasing the hub and the sinks it holds.
final class ReplayKeeper<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: `launch` is behind its lock and the mailbox is thread-safe. The values
    // it holds cross threads only between starts of one producer, which are on one isolation region
    // unless the producer, and so its values, are Sendable (Docs/Concurrency.md, "Sendable rules").
    private struct Launch {
        /// The producer to start at the first start; `nil` once started (it is not kept).
        var upstream: SignalProducer<Value, Error>?
        var nextID: UInt64 = 0
    }

    private let mailbox: Mailbox<ReplayLazilyStateMachine<Value, Error>.Input>
    private let launch: Locked<Launch>
    /// Ends the shared upstream start.
    private let upstreamToken = Lifetime.Token()

    init(upstream: SignalProducer<Value, Error>, capacity: Int) {
        let hub = ReplayHub<Value, Error>(capacity: capacity)
        mailbox = Mailbox { input in hub.handle(input) }
        launch = Locked(Launch(upstream: upstream))
    }

    deinit {
        upstreamToken.dispose()
        mailbox.close()
    }

    /// Adds a start: replays to `downstream`, then forwards the live events until `lifetime`
    /// ends. The first start also starts the upstream.
    func attach(_ downstream: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) {
        let id = launch.withLock { launch -> UInt64 in
            launch.nextID += 1
            return launch.nextID
        }
        let mailbox = self.mailbox
        // Disposing of the start interrupts it here, at the top of its chain, so that the stages
        // below see the interruption, as with ReactiveSwift's start of this producer. Never
        // waits: a thread delivering on the hub hands it on after its current event.
        _ = lifetime.setInterruptionEntry {
            mailbox.send(.interrupt(id: id), policy: .queueForOwner)
            return true
        }
        mailbox.send(.attach(.init(id: id, sink: downstream)))
        // Retains `self` while the start runs, so the upstream lives at least as long.
        lifetime.observeEnded { [self] in detach(id) }
        guard let upstream = launch.withLock({ $0.upstream.take() }) else { return }
        let token = upstreamToken
        upstream.startInstance(
            { event in
                mailbox.send(.upstream(event))
                // The upstream has ended and its terminal event has gone to every start: end its
                // lifetime so that its resources go now (after the starts were told, as
                // ReactiveSwift disposes of a start's resources after notifying its observer).
                if event.isTerminating { token.dispose() }
            }, Lifetime(token))
    }
}

extension ReplayKeeper {
    private func detach(_ id: UInt64) {
        mailbox.send(.detach(id: id))
    }
}

extension SignalProducer {
    /// A producer whose starts share one start of this producer, begun by the first of them;
    /// each start first receives the latest `capacity` values sent so far (and the terminal event
    /// if this producer has ended), then the live events.
    ///
    /// The shared start runs until this producer ends, or until the returned producer and every
    /// one of its starts are gone: ending a single start does not stop it. `capacity` may be 0
    /// (replay only the terminal event) or `Int.max` (replay everything).
    ///
    /// - Parameter capacity: How many of the latest values are kept for later starts: 0 or more,
    ///   or `Int.max` to keep every value.
    /// - Returns: A producer whose starts share one start of this producer, each receiving the kept
    ///   values (and the terminal event, if there was one) before the live events.
    /// - Precondition: `capacity` is 0 or more.
    public func replayLazily(upTo capacity: Int) -> SignalProducer<Value, Error> {
        precondition(capacity >= 0, "Rivulet: replayLazily(upTo:): capacity is \(capacity); it must be 0 or more")
        let keeper = ReplayKeeper(upstream: self, capacity: capacity)
        return .fused({ downstream, lifetime in
            keeper.attach(downstream, lifetime)
        })
    }
}
