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

extension Signal.Event {
    /// The stage behind `on(…)`: runs the side-effect callbacks for each event, then forwards it.
    ///
    /// Order for one event: `event`, then the callback of its kind (`value`, `failed`, `completed`
    /// or `interrupted`), then `terminated` for a terminal event, then the event goes downstream.
    /// `disposed` runs when the stream's lifetime ends: after the terminal event, or on disposal.
    @usableFromInline
    static func on(
        event: ((Signal<Value, Error>.Event) -> Void)?,
        failed: ((Error) -> Void)?,
        completed: (() -> Void)?,
        interrupted: (() -> Void)?,
        terminated: (() -> Void)?,
        disposed: (() -> Void)?,
        value: ((Value) -> Void)?
    ) -> EventTransform<Value, Error, Value, Error> {
        { downstream, lifetime in
            if let disposed {
                let callback = LifetimeEndCallback(disposed)
                lifetime.observeEnded { callback.action() }
            }
            return { received in
                event?(received)
                switch received {
                case let .value(v): value?(v)
                case let .failed(error): failed?(error)
                case .completed: completed?()
                case .interrupted: interrupted?()
                }
                if received.isTerminating { terminated?() }
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
        flatMapEvent(Event.on(
            event: event, failed: failed, completed: completed, interrupted: interrupted,
            terminated: terminated, disposed: disposed, value: value
        ))
    }
}

extension SignalProducer {
    /// A producer that runs the given side effects for each start and its events.
    ///
    /// On each start, `starting` runs before this producer's work starts and `started` right after
    /// the work's start returns (a producer that finishes synchronously has sent all its events,
    /// and run `disposed`, by then). Events run the same callbacks in the same order as
    /// `Signal.on(…)`; `disposed` runs once, when the start's lifetime ends.
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
        let stage = Signal<Value, Error>.Event.on(
            event: event, failed: failed, completed: completed, interrupted: interrupted,
            terminated: terminated, disposed: disposed, value: value
        )
        return .fused({ downstream, lifetime in
            let upstream = stage(downstream, lifetime)
            starting?()
            self.startInstance(upstream, lifetime)
            started?()
        })
    }
}
