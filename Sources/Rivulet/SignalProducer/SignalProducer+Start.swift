extension SignalProducer {
    /// Starts the producer, hands its signal and the start's interrupter to `setup` before any
    /// event is sent, and returns what `setup` returns.
    ///
    /// Observe the signal inside `setup` to see every event of this start. Disposing of the
    /// interrupter interrupts the signal and ends the start's lifetime (P4); if `setup` already
    /// disposed of it, the work is never started. Otherwise the work starts even if `setup`
    /// neither observed nor kept the signal, as in ReactiveSwift; such a signal is then released
    /// with no observer, which interrupts it and ends the start (S4).
    ///
    /// - Parameter setup: Given the start's signal and its interrupter before any event; called
    ///   once, on the calling thread, before the work starts.
    /// - Returns: What `setup` returns.
    @inlinable
    @discardableResult
    public func startWithSignal<Result>(
        _ setup: (_ signal: Signal<Value, Error>, _ interrupter: Disposable) throws -> Result
    ) rethrows -> Result {
        let resources = CompositeDisposable(leadingWithInterruption: ())
        let core = SignalCore<Value, Error>(resources: resources)
        let interrupter = ProducerInterrupter(core: core, resources: resources)
        let signal = Signal(core: core)
        let result = try setup(signal, interrupter)
        // `signal` is alive until the work has started, so only the interrupter can have ended
        // the start by now.
        if !resources.isDisposed {
            startInstance({ event in core.send(event) }, Lifetime(resources))
        }
        withExtendedLifetime(signal) {}
        return result
    }

    /// Starts the producer, sending its events to `observer`; disposing of the result interrupts it.
    ///
    /// - Parameter observer: Receives every event of this start, on the thread that sends it (E7).
    /// - Returns: A disposable that interrupts the start and ends its lifetime (P4).
    @inlinable
    @discardableResult
    public func start(_ observer: Signal<Value, Error>.Observer = .init()) -> Disposable {
        // An input observer forwards to its signal's core (and the closure keeps it alive); any
        // other observer is kept as its closure alone.
        start(eventAction: observer.inputOf == nil ? observer.action : observer.sink, valueAction: nil)
    }

    /// Starts the producer with no `Signal` and no signal core: nobody can reach the produced
    /// signal, so its one observer is attached for the whole start, and the start's
    /// `ProducerStart` delivers to it (see there). One object per start, besides the lifetime and
    /// what the chain's stages make.
    @inlinable
    func start(eventAction: Signal<Value, Error>.Observer.Action?, valueAction: ((Value) -> Void)?) -> Disposable {
        let start = ProducerStart<Value, Error>(eventAction: eventAction, valueAction: valueAction)
        startInstance({ event in start.send(event) }, Lifetime(start))
        return start
    }

    /// Starts the producer, running `action` for each event.
    ///
    /// - Parameter action: Called with every event of this start, on the thread that sends it (E7).
    /// - Returns: A disposable that interrupts the start and ends its lifetime (P4).
    @inlinable
    @discardableResult
    public func start(_ action: sending @escaping Signal<Value, Error>.Observer.Action) -> Disposable {
        start(eventAction: action, valueAction: nil)
    }

    /// Starts the producer, running `action` with a result for each value and for a failure.
    ///
    /// - Parameter action: Called with `.success` for each value and `.failure` for a failure, on
    ///   the thread that sends it.
    /// - Returns: A disposable that interrupts the start and ends its lifetime (P4).
    @inlinable
    @discardableResult
    public func startWithResult(_ action: sending @escaping (Swift.Result<Value, Error>) -> Void) -> Disposable {
        start(eventAction: Signal.Event.forwardingResults(to: action), valueAction: nil)
    }

    /// Starts the producer, running `action` for each value.
    ///
    /// - Parameter action: Called with each value, on the thread that sends it (E7).
    /// - Returns: A disposable that interrupts the start and ends its lifetime (P4).
    @inlinable
    @discardableResult
    public func startWithValues(_ action: sending @escaping (Value) -> Void) -> Disposable {
        // The user's closure itself, with no observer object or wrapping closure around it.
        start(eventAction: nil, valueAction: action)
    }

    /// Starts the producer, running `action` if it completes.
    ///
    /// - Parameter action: Called once if the start completes.
    /// - Returns: A disposable that interrupts the start and ends its lifetime (P4).
    @inlinable
    @discardableResult
    public func startWithCompleted(_ action: sending @escaping () -> Void) -> Disposable {
        start(eventAction: { if case .completed = $0 { action() } }, valueAction: nil)
    }

    /// Starts the producer, running `action` if it fails.
    ///
    /// - Parameter action: Called once with the error if the start fails.
    /// - Returns: A disposable that interrupts the start and ends its lifetime (P4).
    @inlinable
    @discardableResult
    public func startWithFailed(_ action: sending @escaping (Error) -> Void) -> Disposable {
        start(eventAction: { if case let .failed(error) = $0 { action(error) } }, valueAction: nil)
    }

    /// Starts the producer, running `action` if it is interrupted.
    ///
    /// - Parameter action: Called once if the start is interrupted, by its disposal or by its
    ///   source.
    /// - Returns: A disposable that interrupts the start and ends its lifetime (P4).
    @inlinable
    @discardableResult
    public func startWithInterrupted(_ action: sending @escaping () -> Void) -> Disposable {
        start(eventAction: { if case .interrupted = $0 { action() } }, valueAction: nil)
    }
}

/// What `startWithSignal` hands out (`start` hands out its `ProducerStart`, which works the same
/// way without a signal core): disposing of it ends the start's lifetime (P4),
/// and the start's chain delivers the interruption as ReactiveSwift's does (issue 16).
///
/// The start's resources (its lifetime) lead with the *interruption entry*: the source or stage
/// nearest the source that can send into the fused chain serially (a start handler's core,
/// `never`, an `on(…)` stage, a time-based stage) puts `interrupted` in there first, and it flows
/// down through every stage below, so `on(…)` callbacks and `materialize` see it before the
/// start's observer. Then everything observing the lifetime's end runs: a time-based stage stops
/// forwarding and delivers `interrupted` on its scheduler. If the chain has no entry (a sequence
/// or a value with synchronous operators) or its entry's source had already ended, and no stage
/// delivers on a scheduler, the output is then interrupted directly.
@usableFromInline
final class ProducerInterrupter<Value, Error: Swift.Error>: Disposable {
    @usableFromInline let core: SignalCore<Value, Error>
    @usableFromInline let resources: CompositeDisposable

    @usableFromInline
    init(core: SignalCore<Value, Error>, resources: CompositeDisposable) {
        self.core = core
        self.resources = resources
    }

    /// True as soon as the start's lifetime has ended (the interruption itself may still be on its
    /// way through a scheduler), as in ReactiveSwift.
    @usableFromInline
    var isDisposed: Bool { resources.isDisposed }

    @usableFromInline
    func dispose() {
        // A signal that has accepted its terminal event disposes of these resources itself once
        // it has delivered it to every observer (or already has): a disposal from inside that
        // delivery ends the start afterwards, as ReactiveSwift does.
        if core.hasTerminated { return }
        if resources.disposeAfterLeadingInterruption() {
            // Nothing is on its way down the chain (no entry, or its source had ended) and no
            // stage delivers the interruption later, on a scheduler: interrupt the output.
            core.send(.interrupted)
        }
    }
}

/// The downstream sink of a source that sends nothing but its interruption (`never`), carried
/// into the start's interruption entry.
@usableFromInline
struct InterruptionSink<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: the entry runs once, on the thread that ends the start's lifetime, and
    // nothing else ever calls this sink (the source sends nothing else), so it is never called
    // concurrently with itself.
    @usableFromInline let sink: EventSink<Value, Error>

    @inlinable
    init(_ sink: @escaping EventSink<Value, Error>) {
        self.sink = sink
    }
}
