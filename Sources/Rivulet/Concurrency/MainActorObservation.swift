// Observers isolated to the main actor.
//
// A closure written `{ @MainActor in … }` may touch main-actor state, so it must only ever run on
// the main actor. These overloads are chosen for such closures (an unannotated closure picks the
// `sending` forms, which run on the sending thread, E7). Each one observes through
// `observe(on: UIScheduler())`: an event sent on the main queue while nothing of any
// `UIScheduler` is pending is delivered at once, before `send` returns; any other event is
// queued on the main queue behind the ones already queued, so events arrive in order, one at a
// time, never concurrently. Disposing of the observation drops the events still queued.
// The values cross to the main thread, so they must be `Sendable`.

extension Signal where Value: Sendable {
    /// Runs `action` on the main actor for every event from now on, in order.
    ///
    /// Chosen for a closure isolated to the main actor (`{ @MainActor event in … }`): an event
    /// sent from the main actor, with nothing queued for the main actor by any `UIScheduler`,
    /// runs at once; any other event is queued on the main queue, behind the earlier ones.
    ///
    /// - Parameter action: Called on the main actor with each event.
    /// - Returns: A disposable that stops the observation; events still queued are dropped.
    @discardableResult
    public func observe(_ action: @escaping @MainActor (Event) -> Void) -> Disposable? {
        observe(on: UIScheduler()).observe(.onMainActor(action))
    }

    /// Runs `action` on the main actor for each value, in order; see `observe(_:)` for a
    /// main-actor closure.
    ///
    /// - Parameter action: Called on the main actor with each value.
    /// - Returns: A disposable that stops the observation (events still queued are dropped), or
    ///   `nil` if the signal had already terminated.
    @discardableResult
    public func observeValues(_ action: @escaping @MainActor (Value) -> Void) -> Disposable? {
        observe(on: UIScheduler()).observe(.values(onMainActor: action))
    }

    /// Runs `action` on the main actor with `.success` for each value and `.failure` for a
    /// failure; see `observe(_:)` for a main-actor closure.
    ///
    /// - Parameter action: Called on the main actor with each value and with a failure.
    /// - Returns: A disposable that stops the observation (events still queued are dropped), or
    ///   `nil` if the signal had already terminated.
    @discardableResult
    public func observeResult(_ action: @escaping @MainActor (Result<Value, Error>) -> Void) -> Disposable? {
        observe(on: UIScheduler()).observe(.results(onMainActor: action))
    }

    /// Runs `action` on the main actor when the signal completes.
    ///
    /// - Parameter action: Called once on the main actor, if the signal completes.
    /// - Returns: A disposable that stops the observation (events still queued are dropped), or
    ///   `nil` if the signal had already terminated.
    @discardableResult
    public func observeCompleted(_ action: @escaping @MainActor () -> Void) -> Disposable? {
        observe { @MainActor event in if case .completed = event { action() } }
    }

    /// Runs `action` on the main actor when the signal fails.
    ///
    /// - Parameter action: Called once on the main actor with the error, if the signal fails.
    /// - Returns: A disposable that stops the observation (events still queued are dropped), or
    ///   `nil` if the signal had already terminated.
    @discardableResult
    public func observeFailed(_ action: @escaping @MainActor (Error) -> Void) -> Disposable? {
        observe { @MainActor event in if case let .failed(error) = event { action(error) } }
    }

    /// Runs `action` on the main actor when the signal is interrupted.
    ///
    /// - Parameter action: Called once on the main actor, if the signal is interrupted.
    /// - Returns: A disposable that stops the observation (events still queued are dropped), or
    ///   `nil` if the signal had already terminated.
    @discardableResult
    public func observeInterrupted(_ action: @escaping @MainActor () -> Void) -> Disposable? {
        observe { @MainActor event in if case .interrupted = event { action() } }
    }
}

extension SignalProducer where Value: Sendable {
    /// Starts the producer and runs `action` on the main actor for each event, in order.
    ///
    /// Chosen for a closure isolated to the main actor: the start happens here, on the calling
    /// thread; the events reach `action` as `Signal.observe(_:)` describes for main-actor
    /// closures.
    ///
    /// - Parameter action: Called on the main actor with each event of the start.
    /// - Returns: A disposable that interrupts the start; events still queued are dropped.
    @discardableResult
    public func start(_ action: @escaping @MainActor (Signal<Value, Error>.Event) -> Void) -> Disposable {
        observe(on: UIScheduler()).start(.onMainActor(action))
    }

    /// Starts the producer and runs `action` on the main actor for each value, in order.
    ///
    /// - Parameter action: Called on the main actor with each value.
    /// - Returns: A disposable that interrupts the start; events still queued are dropped.
    @discardableResult
    public func startWithValues(_ action: @escaping @MainActor (Value) -> Void) -> Disposable {
        observe(on: UIScheduler()).start(.values(onMainActor: action))
    }

    /// Starts the producer and runs `action` on the main actor with a result for each value and
    /// for a failure.
    ///
    /// - Parameter action: Called on the main actor with each value and with a failure.
    /// - Returns: A disposable that interrupts the start; events still queued are dropped.
    @discardableResult
    public func startWithResult(_ action: @escaping @MainActor (Swift.Result<Value, Error>) -> Void) -> Disposable {
        observe(on: UIScheduler()).start(.results(onMainActor: action))
    }

    /// Starts the producer and runs `action` on the main actor when it completes.
    ///
    /// - Parameter action: Called once on the main actor, if the start completes.
    /// - Returns: A disposable that interrupts the start; events still queued are dropped.
    @discardableResult
    public func startWithCompleted(_ action: @escaping @MainActor () -> Void) -> Disposable {
        start { @MainActor event in if case .completed = event { action() } }
    }

    /// Starts the producer and runs `action` on the main actor when it fails.
    ///
    /// - Parameter action: Called once on the main actor with the error, if the start fails.
    /// - Returns: A disposable that interrupts the start; events still queued are dropped.
    @discardableResult
    public func startWithFailed(_ action: @escaping @MainActor (Error) -> Void) -> Disposable {
        start { @MainActor event in if case let .failed(error) = event { action(error) } }
    }

    /// Starts the producer and runs `action` on the main actor when it is interrupted.
    ///
    /// - Parameter action: Called once on the main actor, if the start is interrupted.
    /// - Returns: A disposable that interrupts the start; events still queued are dropped.
    @discardableResult
    public func startWithInterrupted(_ action: @escaping @MainActor () -> Void) -> Disposable {
        start { @MainActor event in if case .interrupted = event { action() } }
    }
}

extension BindingTarget where Value: Sendable {
    /// A target that runs `action` on the main actor for each bound value, in order, until
    /// `lifetime` ends: the way to bind to a main-actor object, e.g.
    /// `BindingTarget(lifetime: model.lifetime) { @MainActor [weak model] in model?.title = $0 }`.
    ///
    /// A value bound from the main actor, with nothing queued for the main actor by any
    /// `UIScheduler`, is applied at once; any other value is queued on the main queue.
    ///
    /// - Parameters:
    ///   - lifetime: When it ends, the target stops taking values (and bindings to it end).
    ///   - action: Called on the main actor with each bound value.
    public init(lifetime: Lifetime, action: @escaping @MainActor (Value) -> Void) {
        self.init(on: UIScheduler(), lifetime: lifetime) { value in
            MainActor.assumeIsolated { action(value) }
        }
    }
}

extension Signal.Observer where Value: Sendable {
    /// An observer that runs a main-actor `action` for each event. Used only behind
    /// `observe(on: UIScheduler())`, whose deliveries run on the main queue, that is, on the main
    /// actor.
    @inlinable
    static func onMainActor(_ action: @escaping @MainActor (Signal.Event) -> Void) -> Signal.Observer {
        Signal.Observer(relaying: { event in MainActor.assumeIsolated { action(event) } }, ())
    }

    /// `onMainActor(_:)` for values only.
    @inlinable
    static func values(onMainActor action: @escaping @MainActor (Value) -> Void) -> Signal.Observer {
        .values { value in MainActor.assumeIsolated { action(value) } }
    }

    /// `onMainActor(_:)` for values and failures, as results.
    @inlinable
    static func results(onMainActor action: @escaping @MainActor (Result<Value, Error>) -> Void) -> Signal.Observer {
        .results { result in MainActor.assumeIsolated { action(result) } }
    }
}
