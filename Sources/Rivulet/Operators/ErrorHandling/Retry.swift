/// Runs a producer again and again within one start: each run is a start of its own, and when a
/// run ends with a terminal event that `Restarts` accepts, the next run begins. Used by
/// `retry(upTo:)` (restart after a failure) and `repeat(_:)` (restart after completion).
///
/// As in ReactiveSwift, a run's lifetime ends only once its terminal event has been handled:
/// after the next run has started, or after the event has gone downstream.
///
/// Restarts never nest: a run that ends while its own `startInstance` call is still on the stack
/// (a synchronous producer) only asks for the next run, which the loop in `run()` begins once
/// that call returns. So a thousand synchronous retries use a constant amount of stack. The runs
/// that ended that way end their lifetimes when the loop is done, the latest first: the order in
/// which ReactiveSwift, which restarts from inside the run's terminal event, ends them.
final class RestartingRun<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: all mutable state is in `state` (a `Locked`); `producer` and
    // `downstream` are immutable, and `downstream` is only called serially: one run at a time,
    // and a run's events are serial.

    /// What happens at a run's terminal event.
    struct Policy {
        /// How many more runs may begin.
        var remaining: Int
        /// Whether a run that ended with `event` is followed by another run (if any remain).
        let restartsAfter: (Signal<Value, Error>.Event) -> Bool
    }

    private struct State {
        var policy: Policy
        /// The running run's resources, so that ending the whole start ends the run; `nil` once
        /// the run is delivering its terminal event (it then ends by itself).
        var current: CompositeDisposable?
        /// Set when the start has ended: no run begins any more.
        var ended = false
        /// Set while `run()` is inside `startInstance`.
        var starting = false
        /// Set when a run ended (and a restart was decided) while `starting` was set.
        var restartRequested = false
    }

    /// What a run's terminal event leads to.
    private enum Next { case forward, restartNow, restartLater }

    private let producer: SignalProducer<Value, Error>
    private let downstream: EventSink<Value, Error>
    private let state: Locked<State>

    let liveObject = LiveObjectTracker<LiveObjectTag.Stage>()

    init(
        _ producer: SignalProducer<Value, Error>,
        downstream: @escaping EventSink<Value, Error>,
        policy: Policy
    ) {
        self.producer = producer
        self.downstream = downstream
        state = Locked(State(policy: policy))
    }

    /// Begins the first run, and ends the current run when `lifetime` ends.
    func start(in lifetime: Lifetime) {
        lifetime.observeEnded { [self] in
            let current = state.withLock { state -> CompositeDisposable? in
                state.ended = true
                defer { state.current = nil }
                return state.current
            }
            current?.dispose()
        }
        run()
    }

    /// Begins runs until one of them does not ask for a successor before `startInstance` returns.
    private func run() {
        // The runs that ended inside their own `startInstance`; no allocation unless one does.
        var endedDuringStart: [CompositeDisposable] = []
        defer {
            for resources in endedDuringStart.reversed() { resources.dispose() }
        }
        while true {
            // A producer start's resources: each run is a start like any other.
            let resources = CompositeDisposable(leadingWithInterruption: ())
            let proceed = state.withLock { state -> Bool in
                guard !state.ended else { return false }
                state.current = resources
                state.starting = true
                return true
            }
            guard proceed else { return }
            producer.startInstance(sink(for: resources), Lifetime(resources))
            let again = state.withLock { state -> Bool in
                state.starting = false
                defer { state.restartRequested = false }
                return state.restartRequested
            }
            if !again { return }
            endedDuringStart.append(resources)
        }
    }

    /// The sink of one run: forwards values, and at the run's terminal event either forwards it
    /// or begins the next run; then the run's lifetime ends.
    private func sink(for resources: CompositeDisposable) -> EventSink<Value, Error> {
        var finished = false
        return { [self] event in
            if finished { return }
            guard event.isTerminating else {
                downstream(event)
                return
            }
            finished = true
            let next = state.withLock { state -> Next in
                // The run is delivering its terminal event: ending the whole start meanwhile
                // must not end it first.
                if state.current === resources { state.current = nil }
                guard !state.ended, state.policy.remaining > 0, state.policy.restartsAfter(event) else {
                    return .forward
                }
                state.policy.remaining -= 1
                if state.starting {
                    state.restartRequested = true
                    return .restartLater
                }
                return .restartNow
            }
            switch next {
            case .forward:
                downstream(event)
                resources.dispose()
            case .restartNow:
                run()
                resources.dispose()
            case .restartLater:
                // `run()`'s loop, on the stack below, starts the next run and then ends this one.
                break
            }
        }
    }
}

extension SignalProducer {
    /// A producer that starts this producer again when it fails, at most `count` times; the
    /// values of every run are forwarded, and the failure of the last allowed run ends the start.
    /// With a `count` of 0 it is this producer.
    ///
    /// - Parameter count: How many times this producer may be started again after a failure; not
    ///   negative (precondition).
    /// - Returns: A producer of the values of every run; it fails with the failure of the last
    ///   allowed run, and completes or is interrupted when the current run does.
    /// - Precondition: `count` is 0 or more.
    public func retry(upTo count: Int) -> SignalProducer<Value, Error> {
        precondition(count >= 0, "Rivulet: retry(upTo:): count is \(count); it must be 0 or more")
        if count == 0 { return self }
        return restarting(
            policy: .init(remaining: count) { event in
                if case .failed = event { true } else { false }
            })
    }

    /// A producer that runs this producer `count` times in a row: each completion starts the next
    /// run, and the last run's completion completes the start. A failure or an interruption ends
    /// it at once. With a `count` of 0 it completes at once without starting this producer.
    ///
    /// - Parameter count: How many runs to make in all; not negative (precondition).
    /// - Returns: A producer of the values of every run; it completes when the last run completes,
    ///   and fails or is interrupted as soon as a run does.
    /// - Precondition: `count` is 0 or more.
    public func `repeat`(_ count: Int) -> SignalProducer<Value, Error> {
        precondition(count >= 0, "Rivulet: repeat(_:): count is \(count); it must be 0 or more")
        if count == 0 { return .empty }
        if count == 1 { return self }
        return restarting(policy: .init(remaining: count - 1) { event in event.isCompleted })
    }

    private func restarting(policy: RestartingRun<Value, Error>.Policy) -> SignalProducer<Value, Error> {
        .fused({ downstream, lifetime in
            RestartingRun(self, downstream: downstream, policy: policy).start(in: lifetime)
        })
    }
}
