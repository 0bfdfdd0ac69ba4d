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

    /// No callbacks.
    @usableFromInline
    static var none: OnEventCallbacks {
        OnEventCallbacks(event: nil, failed: nil, completed: nil, interrupted: nil, terminated: nil, value: nil)
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
    ///
    /// - Parameters:
    ///   - event: Runs first for every event.
    ///   - failed: Runs with the error of a failure.
    ///   - completed: Runs on completion.
    ///   - interrupted: Runs on interruption.
    ///   - terminated: Runs after the callback of any terminal event.
    ///   - disposed: Runs once, when the returned signal's lifetime ends.
    ///   - value: Runs with each value.
    /// - Returns: A signal of this signal's events, each forwarded unchanged after its callbacks,
    ///   that ends when this signal ends.
    public func on(
        event: (@Sendable (Event) -> Void)? = nil,
        failed: (@Sendable (Error) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil,
        value: (@Sendable (Value) -> Void)? = nil
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
    /// As in ReactiveSwift, disposing of a start interrupts it at its source: the interruption
    /// comes down the chain, through these callbacks, before the start's observer sees it; if an
    /// operator above this one delivers on a scheduler (`observe(on:)`, `delay`, …), the callbacks
    /// see it there, when the scheduler runs it. If the start is disposed of while a callback runs
    /// on another thread, the `interrupted` callbacks and `disposed` run on that thread as soon as
    /// it is done with its event.
    ///
    /// - Parameters:
    ///   - starting: Runs on each start, before this producer's work starts.
    ///   - started: Runs on each start, right after the start of this producer's work returns.
    ///   - event: Runs first for every event.
    ///   - failed: Runs with the error of a failure.
    ///   - completed: Runs on completion.
    ///   - interrupted: Runs on interruption, including that of a start that ends before this
    ///     producer sent a terminal event.
    ///   - terminated: Runs after the callback of any terminal event.
    ///   - disposed: Runs once per start, last, when the start's lifetime ends.
    ///   - value: Runs with each value.
    /// - Returns: A producer whose starts forward this producer's events unchanged, each after its
    ///   callbacks.
    public func on(
        starting: (@Sendable () -> Void)? = nil,
        started: (@Sendable () -> Void)? = nil,
        event: (@Sendable (ProducedSignal.Event) -> Void)? = nil,
        failed: (@Sendable (Error) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil,
        value: (@Sendable (Value) -> Void)? = nil
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
            stage.enter(lifetime)
            starting?()
            self.startInstance(stage.receive, lifetime)
            started?()
        })
    }
}

/// The producer stage of `on(…)`, one per start.
///
/// The start can end on any thread (disposal) or from further down the chain while an event is
/// being handled. In a producer start's lifetime the stage is an interruption entry: if no source
/// or stage above it does, it puts the interruption into the chain when the start is disposed of,
/// through its mailbox. If the lifetime ends before a terminal event came through, the callbacks
/// run for `interrupted`, unless a stage above that delivers on a scheduler holds the
/// interruption: then the end waits for it. `disposed` always runs last, and no callback overlaps
/// another.
///
/// Events and the end enter one `Mailbox` with the `queueForOwner` policy: an end that comes in
/// while an event is handled is left to that thread, which runs it as soon as the event is done
/// (ReactiveSwift likewise hands a terminal event to the thread that is sending); otherwise the
/// ending thread runs it at once. Nobody ever waits, and an uncontended event costs the mailbox's
/// two compare-and-swaps, no lock, no allocation.
@usableFromInline
final class OnEventsStage<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: every stored `var` is touched only by the mailbox's handler, which runs
    // on one thread at a time (the mailbox's turn), each turn ordered after the previous one by the
    // mailbox's turn word or lock; `mailbox` is set once in `init`, before the stage is shared;
    // `hasSeenTerminalStorage` is never accessed after `init` but through `hasSeenTerminal`'s
    // atomic operations.

    /// The memory of `hasSeenTerminal`: the first stored property, never read or written directly
    /// after `init` (see AtomicWord.swift).
    var hasSeenTerminalStorage = AtomicFlag.storage(false)

    @usableFromInline
    enum Input {
        case event(Signal<Value, Error>.Event)
        case end
    }

    private var mailbox: Mailbox<Input>!
    private var callbacks: OnEventCallbacks<Value, Error>?
    private var disposed: (() -> Void)?
    private var downstream: EventSink<Value, Error>?
    private var hasTerminated = false
    /// `hasTerminated`, readable by the thread that runs the interruption entry.
    private var hasSeenTerminal: AtomicFlag { AtomicFlag(firstStoredPropertyOf: self) }
    /// The lifetime has ended; `disposed` runs once the terminal event has come through.
    private var hasEnded = false
    /// The handler is forwarding the terminal event downstream (its callbacks have run).
    private var isForwardingTerminal = false
    /// `finish()` has run.
    private var isFinished = false
    /// Set in `enter(_:)`: the stream's lifetime, asked at the end whether a stage above holds
    /// the interruption.
    private var lifetime: Lifetime?

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    @usableFromInline
    init(
        _ callbacks: OnEventCallbacks<Value, Error>,
        disposed: (() -> Void)?,
        downstream: @escaping EventSink<Value, Error>
    ) {
        self.callbacks = callbacks
        self.disposed = disposed
        self.downstream = downstream
        // The handler keeps the stage until the end closes the mailbox.
        mailbox = Mailbox(policy: .queueForOwner) { [self] input in handle(input) }
    }

    /// An event of the upstream: runs the callbacks and forwards it, unless the start has ended.
    @usableFromInline
    func receive(_ event: Signal<Value, Error>.Event) {
        mailbox.send(.event(event))
    }

    /// Joins the stream's lifetime: becomes its interruption entry if it is a producer start's,
    /// and ends when it ends. Called once, before the upstream starts.
    @usableFromInline
    func enter(_ lifetime: Lifetime) {
        // Written before the entry can reach another thread.
        self.lifetime = lifetime
        _ = lifetime.setInterruptionEntry { [self] in
            // Once a terminal event came through, nothing more comes from here.
            if hasSeenTerminal.loadAcquiring() { return false }
            receive(.interrupted)
            return true
        }
        lifetime.observeEnded { [self] in end() }
    }

    /// The start's lifetime has ended.
    @usableFromInline
    func end() {
        // The terminal event this thread is forwarding has ended the start on its way down (the
        // start's output terminated): `disposed` runs now, before the rest of the lifetime (the
        // upstream's resources) goes, as ReactiveSwift disposes of this stage's signal right
        // after it delivered its terminal event, and of the upstream's after that. Only the
        // turn's owner reads the flag, and every callback of the event has run.
        if mailbox.isTurnHeld(by: .current), isForwardingTerminal {
            hasEnded = true
            finish()
            return
        }
        mailbox.send(.end)
    }

    private func handle(_ input: Input) {
        switch input {
        case let .event(event):
            guard !hasTerminated else { return }
            hasTerminated = event.isTerminating
            if hasTerminated { hasSeenTerminal.storeReleasing(true) }
            callbacks?.run(for: event)
            isForwardingTerminal = hasTerminated
            downstream?(event)
            isForwardingTerminal = false
            if hasTerminated, hasEnded { finish() }
        case .end:
            hasEnded = true
            // A stage above delivers the interruption on its scheduler: wait for it.
            if hasTerminated || lifetime?.isInterruptionHeld != true { finish() }
        }
    }

    /// Runs the end and closes the mailbox: later events are ignored.
    private func finish() {
        guard !isFinished else { return }
        isFinished = true
        if !hasTerminated {
            hasTerminated = true
            hasSeenTerminal.storeReleasing(true)
            callbacks?.run(for: .interrupted)
            downstream?(.interrupted)
        }
        let disposed = self.disposed
        // Release the callbacks and the chain below: nothing more is handled.
        callbacks = nil
        self.disposed = nil
        downstream = nil
        lifetime = nil
        mailbox.close(.discardingAcceptedInputs)
        disposed?()
    }
}
