extension SignalProducer {
    /// Starts the producer, hands its signal and the start's interrupter to `setup` before any
    /// event is sent, and returns what `setup` returns.
    ///
    /// Observe the signal inside `setup` to see every event of this start. Disposing of the
    /// interrupter interrupts the signal and ends the start's lifetime (P4); if `setup` already
    /// disposed of it, the work is never started.
    @inlinable
    @discardableResult
    public func startWithSignal<Result>(
        _ setup: (_ signal: Signal<Value, Error>, _ interrupter: Disposable) throws -> Result
    ) rethrows -> Result {
        let resources = CompositeDisposable()
        let core = SignalCore<Value, Error>(resources: resources)
        let interrupter = ProducerInterrupter(core: core)
        let result = try setup(Signal(core: core), interrupter)
        if !resources.isDisposed {
            startInstance({ event in core.send(event) }, Lifetime(resources))
        }
        return result
    }

    /// Starts the producer, sending its events to `observer`; disposing of the result interrupts it.
    @inlinable
    @discardableResult
    public func start(_ observer: Signal<Value, Error>.Observer = .init()) -> Disposable {
        // `startWithSignal` without the `Signal` object: nobody can reach the produced signal, so
        // it lives exactly while `observer` is attached (S4), and no unspecialised `Signal` deinit
        // runs for each start.
        let resources = CompositeDisposable()
        let core = SignalCore<Value, Error>(resources: resources)
        core.observeUntilEnd(observer)
        core.signalDidDeinitialize()
        startInstance({ event in core.send(event) }, Lifetime(resources))
        return ProducerInterrupter(core: core)
    }

    /// Starts the producer, running `action` for each event.
    @inlinable
    @discardableResult
    public func start(_ action: @escaping Signal<Value, Error>.Observer.Action) -> Disposable {
        start(Signal.Observer(action))
    }

    /// Starts the producer, running `action` with a result for each value and for a failure.
    @inlinable
    @discardableResult
    public func startWithResult(_ action: @escaping (Swift.Result<Value, Error>) -> Void) -> Disposable {
        start(Signal.Observer(value: { action(.success($0)) }, failed: { action(.failure($0)) }))
    }

    /// Starts the producer, running `action` for each value.
    @inlinable
    @discardableResult
    public func startWithValues(_ action: @escaping (Value) -> Void) -> Disposable {
        start(Signal.Observer.values(action))
    }

    /// Starts the producer, running `action` if it completes.
    @inlinable
    @discardableResult
    public func startWithCompleted(_ action: @escaping () -> Void) -> Disposable {
        start(Signal.Observer(completed: action))
    }

    /// Starts the producer, running `action` if it fails.
    @inlinable
    @discardableResult
    public func startWithFailed(_ action: @escaping (Error) -> Void) -> Disposable {
        start(Signal.Observer(failed: action))
    }

    /// Starts the producer, running `action` if it is interrupted.
    @inlinable
    @discardableResult
    public func startWithInterrupted(_ action: @escaping () -> Void) -> Disposable {
        start(Signal.Observer(interrupted: action))
    }
}

/// What `startWithSignal` hands out: disposing of it interrupts the produced signal, which then
/// ends the start's lifetime (its resources) as any terminal event does (S5, P4).
@usableFromInline
final class ProducerInterrupter<Value, Error: Swift.Error>: Disposable {
    @usableFromInline let core: SignalCore<Value, Error>

    @usableFromInline
    init(core: SignalCore<Value, Error>) {
        self.core = core
    }

    @usableFromInline
    var isDisposed: Bool { core.hasTerminated }

    @usableFromInline
    func dispose() {
        core.send(.interrupted)
    }
}
