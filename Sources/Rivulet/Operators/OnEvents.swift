// on(event:failed:completed:interrupted:terminated:disposed:value:) and the producer form with
// starting/started

/// A callback that runs when a stream's lifetime ends, carried into `Lifetime.observeEnded`.
@usableFromInline
struct LifetimeEndCallback: @unchecked Sendable {
    // @unchecked Sendable: the lifetime's `CompositeDisposable` takes its members out under its
    // `Locked` state and disposes of each exactly once, so the callback runs once, on the thread
    // that ends the stream (as in ReactiveSwift). It is never called concurrently with itself; what
    // it shares with the event callbacks is the caller's to protect if streams end on other threads.
    @usableFromInline let action: () -> Void

    @usableFromInline
    init(_ action: @escaping () -> Void) {
        self.action = action
    }
}

/// The per-event callbacks of `on(…)`, run in one fixed order.
@usableFromInline
struct OnEventCallbacks<Value, Error: Swift.Error> {
    let event: ((Signal<Value, Error>.Event) -> Void)?
    let failed: ((Error) -> Void)?
    let completed: (() -> Void)?
    let interrupted: (() -> Void)?
    let terminated: (() -> Void)?
    let value: ((Value) -> Void)?

    @usableFromInline
    init(
        event: ((Signal<Value, Error>.Event) -> Void)?,
        failed: ((Error) -> Void)?,
        completed: (() -> Void)?,
        interrupted: (() -> Void)?,
        terminated: (() -> Void)?,
        value: ((Value) -> Void)?
    ) {
        self.event = event
        self.failed = failed
        self.completed = completed
        self.interrupted = interrupted
        self.terminated = terminated
        self.value = value
    }

    /// `event`, then the callback of the event's kind, then `terminated` for a terminal event.
    @usableFromInline
    func run(for received: Signal<Value, Error>.Event) {
        event?(received)
        switch received {
        case let .value(v): value?(v)
        case let .failed(error): failed?(error)
        case .completed: completed?()
        case .interrupted: interrupted?()
        }
        if received.isTerminating { terminated?() }
    }
}

extension Signal.Event {
    /// The stage behind `Signal.on(…)`: runs the callbacks for each event, then forwards it, and
    /// runs `disposed` when the stream's lifetime ends.
    @usableFromInline
    static func on(
        _ callbacks: OnEventCallbacks<Value, Error>,
        disposed: (() -> Void)?
    ) -> EventTransform<Value, Error, Value, Error> {
        { downstream, lifetime in
            if let disposed {
                let callback = LifetimeEndCallback(disposed)
                lifetime.observeEnded { callback.action() }
            }
            return { received in
                callbacks.run(for: received)
                downstream(received)
            }
        }
    }
}

extension Signal {
    /// A signal that runs the given side effects for this signal's events, then forwards them.
    ///
    /// For each event, `event` runs first, then the callback for its kind (`value`, `failed`,
    /// `completed` or `interrupted`), then `terminated` if the event ends the stream; the event is
    /// forwarded after its callbacks. `disposed` runs once, when the returned signal's lifetime
    /// ends (after the terminal event, or when it is disposed of). Callbacks run on the thread that
    /// sends the event.
    public func on(
        event: ((Event) -> Void)? = nil,
        failed: ((Error) -> Void)? = nil,
        completed: (() -> Void)? = nil,
        interrupted: (() -> Void)? = nil,
        terminated: (() -> Void)? = nil,
        disposed: (() -> Void)? = nil,
        value: ((Value) -> Void)? = nil
    ) -> Signal<Value, Error> {
        let callbacks = OnEventCallbacks(
            event: event, failed: failed, completed: completed, interrupted: interrupted,
            terminated: terminated, value: value
        )
        return flatMapEvent(Event.on(callbacks, disposed: disposed))
    }
}

extension SignalProducer {
    /// A producer that runs the given side effects for each start and its events.
    ///
    /// On each start, `starting` runs before this producer's work starts and `started` right after
    /// the work's start returns (a producer that finishes synchronously has sent all its events,
    /// and run `disposed`, by then). Events run the same callbacks in the same order as
    /// `Signal.on(…)`. If the start ends before this producer sent a terminal event (the start is
    /// disposed of, or an operator further down ended it), the callbacks run for `interrupted`.
    /// `disposed` runs once, last, when the start's lifetime ends.
    public func on(
        starting: (() -> Void)? = nil,
        started: (() -> Void)? = nil,
        event: ((ProducedSignal.Event) -> Void)? = nil,
        failed: ((Error) -> Void)? = nil,
        completed: (() -> Void)? = nil,
        interrupted: (() -> Void)? = nil,
        terminated: (() -> Void)? = nil,
        disposed: (() -> Void)? = nil,
        value: ((Value) -> Void)? = nil
    ) -> SignalProducer<Value, Error> {
        let callbacks = OnEventCallbacks(
            event: event, failed: failed, completed: completed, interrupted: interrupted,
            terminated: terminated, value: value
        )
        return .fused({ downstream, lifetime in
            let inbox = OnEventsStage.start(callbacks, disposed: disposed, downstream: downstream, lifetime: lifetime)
            starting?()
            self.startInstance({ inbox.send(.event($0)) }, lifetime)
            started?()
        })
    }
}

/// What the producer form of `on(…)` serializes: the upstream's events and the end of the start.
@usableFromInline
enum OnEventsInput<Value, Error: Swift.Error> {
    case event(Signal<Value, Error>.Event)
    /// The start's lifetime has ended.
    case ended
}

/// The producer stage of `on(…)`.
///
/// The end of a start can come from any thread (disposal) or from further down the chain, while
/// the upstream may be sending; an inbox puts both in one order, so the callbacks never overlap
/// and `disposed` always runs last.
@usableFromInline
enum OnEventsStage {
    @usableFromInline
    static func start<Value, Error>(
        _ callbacks: OnEventCallbacks<Value, Error>,
        disposed: (() -> Void)?,
        downstream: @escaping EventSink<Value, Error>,
        lifetime: Lifetime
    ) -> SerialInbox<OnEventsInput<Value, Error>> {
        var hasTerminated = false
        var inbox: SerialInbox<OnEventsInput<Value, Error>>?
        let created = SerialInbox<OnEventsInput<Value, Error>> { input in
            switch input {
            case let .event(received):
                if hasTerminated { return }
                hasTerminated = received.isTerminating
                callbacks.run(for: received)
                downstream(received)
            case .ended:
                if !hasTerminated {
                    hasTerminated = true
                    callbacks.run(for: .interrupted)
                    downstream(.interrupted)
                }
                disposed?()
                // Releases the callbacks; nothing more is handled.
                inbox?.close()
                inbox = nil
            }
        }
        inbox = created
        lifetime.observeEnded { created.send(.ended) }
        return created
    }
}
