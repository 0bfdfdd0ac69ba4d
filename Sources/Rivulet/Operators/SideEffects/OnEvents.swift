import Synchronization

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
    ///
    /// Unlike ReactiveSwift, where disposal interrupts the upstream first, a disposed start's own
    /// observers see `interrupted` before these callbacks run: operator chains on a producer are
    /// fused, so disposal interrupts the produced signal directly. If the start is disposed of
    /// while a callback runs on another thread, the `interrupted` callbacks and `disposed` run on
    /// that thread as soon as it is done with its event.
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
        on(
            starting: starting, started: started,
            callbacks: OnEventCallbacks(
                event: event, failed: failed, completed: completed, interrupted: interrupted,
                terminated: terminated, value: value
            ),
            disposed: disposed
        )
    }

    /// `on(…)` with the per-event callbacks already gathered (also used by `logEvents`).
    func on(
        starting: (() -> Void)?,
        started: (() -> Void)?,
        callbacks: OnEventCallbacks<Value, Error>,
        disposed: (() -> Void)?
    ) -> SignalProducer<Value, Error> {
        .fused({ downstream, lifetime in
            let stage = OnEventsStage(callbacks, disposed: disposed, downstream: downstream)
            lifetime.observeEnded { stage.end() }
            starting?()
            self.startInstance(stage.receive, lifetime)
            started?()
        })
    }
}

/// The producer stage of `on(…)`, one per start.
///
/// The start can end on any thread (disposal) or from further down the chain while an event is
/// being handled. If it ends before a terminal event came through, the callbacks run for
/// `interrupted`; `disposed` always runs last, and no callback overlaps another.
///
/// Events reach a sink one at a time, so only the end has to be ordered against them: `state`
/// says whether an event is being handled (`busy`) and whether the start has ended. An end that
/// comes in while an event is handled is left to that thread, which runs it as soon as the event
/// is done (ReactiveSwift likewise hands a terminal event to the thread that is sending);
/// otherwise the ending thread runs it at once. Two atomic operations per event, no lock, no
/// allocation.
@usableFromInline
final class OnEventsStage<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: the stored closures and `hasTerminated` are touched only by the thread
    // that holds the `busy` bit of `state` (taken with acquiring, given back with releasing
    // ordering), so by one thread at a time, each seeing the writes of the one before.
    private static var busy: UInt8 { 1 }
    private static var ended: UInt8 { 2 }

    private let state = Atomic<UInt8>(0)
    private var callbacks: OnEventCallbacks<Value, Error>?
    private var disposed: (() -> Void)?
    private var downstream: EventSink<Value, Error>?
    private var hasTerminated = false

    @usableFromInline
    init(
        _ callbacks: OnEventCallbacks<Value, Error>,
        disposed: (() -> Void)?,
        downstream: @escaping EventSink<Value, Error>
    ) {
        self.callbacks = callbacks
        self.disposed = disposed
        self.downstream = downstream
    }

    /// An event of the upstream: runs the callbacks and forwards it, unless the start has ended.
    @usableFromInline
    func receive(_ event: Signal<Value, Error>.Event) {
        guard state.compareExchange(expected: 0, desired: Self.busy, ordering: .acquiring).exchanged else {
            return // the start has ended
        }
        if !hasTerminated {
            hasTerminated = event.isTerminating
            callbacks?.run(for: event)
            downstream?(event)
        }
        // Give the turn back, unless the start ended meanwhile: then the end is ours to run.
        if !state.compareExchange(expected: Self.busy, desired: 0, ordering: .releasing).exchanged {
            finish()
        }
    }

    /// The start's lifetime has ended.
    @usableFromInline
    func end() {
        var current: UInt8 = 0
        while true {
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: Self.busy | Self.ended, ordering: .acquiringAndReleasing
            )
            if exchanged {
                // Idle: run the end here. Busy: the thread handling an event runs it.
                if original == 0 { finish() }
                return
            }
            if original & Self.ended != 0 { return }
            current = original
        }
    }

    /// Runs the end, holding the `busy` bit for good: later events are ignored.
    private func finish() {
        if !hasTerminated {
            hasTerminated = true
            callbacks?.run(for: .interrupted)
            downstream?(.interrupted)
        }
        let disposed = self.disposed
        // Release the callbacks and the chain below: nothing more is handled.
        callbacks = nil
        self.disposed = nil
        downstream = nil
        disposed?()
    }
}
