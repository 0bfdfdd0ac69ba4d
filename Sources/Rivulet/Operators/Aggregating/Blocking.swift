import Dispatch

// Waiting for a producer's result: the blocking forms of ReactiveSwift (`first()`, `single()`,
// `last()`, `wait()`), and non-blocking `async` forms of the same four.
//
// Naming of the async forms: `awaitFirst()`, `awaitSingle()`, `awaitLast()` and
// `awaitCompletion()`. Giving them the blocking names (`func first() async`) would be legal Swift,
// but inside any `async` function the compiler prefers the async overload, so existing code that
// calls the blocking `first()` there would silently change meaning (or stop compiling for want of
// `await`). Distinct names keep both forms reachable everywhere and show at the call site which
// one runs.

/// What the blocking and async forms have seen so far, and whether they know their answer.
/// Pure: `handle` takes an event and says whether the start can be stopped.
struct ProducerOutcome<Value, Error: Swift.Error> {
    enum Kind {
        /// The first value, or the failure before it; `nil` if none.
        case first
        /// The only value; `nil` if none or more than one; the failure if the producer fails
        /// before a second value.
        case single
        /// The last value, or the failure; `nil` if none or if interrupted.
        case last
        /// Success at completion (or interruption), the failure otherwise; values are ignored.
        case completion
    }

    let kind: Kind
    private(set) var result: Result<Value, Error>?
    private(set) var isDecided = false
    private var valueCount = 0
    /// For `.completion`: the failure, if any.
    private(set) var failure: Error?

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// Takes the next event; returns `true` when the answer is known and the start can be
    /// stopped. Events after that are ignored.
    mutating func handle(_ event: Signal<Value, Error>.Event) -> Bool {
        guard !isDecided else { return false }
        switch event {
        case let .value(value):
            valueCount += 1
            switch kind {
            case .first:
                result = .success(value)
                isDecided = true
            case .single:
                if valueCount == 1 {
                    result = .success(value)
                } else {
                    result = nil
                    isDecided = true
                }
            case .last:
                result = .success(value)
            case .completion:
                break
            }
        case let .failed(error):
            result = .failure(error)
            failure = error
            isDecided = true
        case .completed:
            isDecided = true
        case .interrupted:
            if kind == .last { result = nil }
            isDecided = true
        }
        return isDecided
    }

    /// The answer of the `completion` kind.
    var completion: Result<(), Error> {
        if let failure { .failure(failure) } else { .success(()) }
    }
}

/// The shared part of one blocking or async wait: the outcome behind a lock, the start to stop,
/// and what to do once the answer is known (signal a semaphore, resume a continuation).
final class OutcomeWaiter<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is inside `state` (a `Locked`); the outcome, with the
    // producer's values, is handed from the producer's thread to the waiting thread through that
    // lock (a hand-off of values not required to be `Sendable`; see Docs/Architecture.md).
    private struct State {
        var outcome: ProducerOutcome<Value, Error>
        var interrupter: Disposable?
        var cancelled = false
        var onDecided: (() -> Void)?
    }

    private let state: Locked<State>

    init(_ kind: ProducerOutcome<Value, Error>.Kind, onDecided: @escaping () -> Void) {
        state = Locked(State(outcome: ProducerOutcome(kind), onDecided: onDecided))
    }

    var outcome: ProducerOutcome<Value, Error> { state.withLock { $0.outcome } }

    /// Starts `producer`, feeding its events to the outcome. Returns at once if the producer
    /// sends asynchronously.
    func start(_ producer: SignalProducer<Value, Error>) {
        producer.startWithSignal { signal, interrupter in
            let cancelledAlready = state.withLock { state -> Bool in
                state.interrupter = interrupter
                return state.cancelled
            }
            signal.observe { [self] event in receive(event) }
            // Cancelled before the start: the work is never started.
            if cancelledAlready { interrupter.dispose() }
        }
    }

    /// Stops the start (for the cancellation of an awaiting task); the outcome is then decided
    /// by the interruption, as if the producer had been interrupted.
    func cancel() {
        let interrupter = state.withLock { state -> Disposable? in
            state.cancelled = true
            return state.interrupter
        }
        interrupter?.dispose()
    }

    private func receive(_ event: Signal<Value, Error>.Event) {
        let (decided, interrupter, onDecided, replaced) = state.withLock { state in
            // A value the outcome lets go of (`last` keeps only the latest) is released here,
            // after the lock, since its deinit is user code (O7).
            let replaced = state.outcome.result
            let decided = state.outcome.handle(event)
            return (decided, decided ? state.interrupter : nil, decided ? state.onDecided.take() : nil, replaced)
        }
        withExtendedLifetime(replaced) {}
        guard decided else { return }
        // The answer is known: stop the work (queued if it is running this observer, E6).
        if !event.isTerminating { interrupter?.dispose() }
        onDecided?()
    }
}

extension SignalProducer {
    /// Starts the producer and blocks the calling thread until `kind` has its answer.
    ///
    /// No deadlock when the producer sends synchronously: the events arrive on this thread before
    /// the wait begins, and the semaphore is then already signalled.
    private func blockingOutcome(_ kind: ProducerOutcome<Value, Error>.Kind) -> ProducerOutcome<Value, Error> {
        let decided = DispatchSemaphore(value: 0)
        let waiter = OutcomeWaiter<Value, Error>(kind) { decided.signal() }
        waiter.start(self)
        decided.wait()
        return waiter.outcome
    }

    /// Starts the producer and blocks until the first value: `success` with it, `failure` if the
    /// producer fails first, `nil` if it ends without a value. The start is stopped after the
    /// first value.
    ///
    /// Like every blocking form, never call it on the thread (or queue) that the producer needs in
    /// order to send; in async code use `awaitFirst()`, which does not hold a thread.
    ///
    /// - Returns: `success` with the first value, `failure` if the producer fails before sending
    ///   one, or `nil` if it completes or is interrupted without a value.
    public func first() -> Result<Value, Error>? {
        blockingOutcome(.first).result
    }

    /// Starts the producer and blocks until it ends: `success` with its only value, `nil` if it
    /// sends no value or more than one (the start is stopped at the second), `failure` if it
    /// fails first.
    ///
    /// - Returns: `success` with the only value, `nil` if the producer sends none or more than one,
    ///   or `failure` if it fails before a second value.
    public func single() -> Result<Value, Error>? {
        blockingOutcome(.single).result
    }

    /// Starts the producer and blocks until it ends: `success` with its last value, `failure` if
    /// it fails, `nil` if it completes without a value or is interrupted.
    ///
    /// - Returns: `success` with the last value, `failure` if the producer fails, or `nil` if it
    ///   completes without a value or is interrupted.
    public func last() -> Result<Value, Error>? {
        blockingOutcome(.last).result
    }

    /// Starts the producer and blocks until it ends: `failure` if it fails, otherwise `success`
    /// (also when it is interrupted). Values are ignored.
    ///
    /// - Returns: `failure` if the producer fails, otherwise `success`, also when it is
    ///   interrupted.
    public func wait() -> Result<(), Error> {
        blockingOutcome(.completion).completion
    }
}

extension SignalProducer {
    /// Starts the producer and suspends (without blocking a thread) until `kind` has its answer.
    /// Cancelling the awaiting task stops the start, which then counts as interrupted.
    ///
    /// It runs on the caller's actor (`isolation`), so the producer and its outcome stay in the
    /// caller's isolation domain and need not be `Sendable`.
    private func awaitedOutcome(
        _ kind: ProducerOutcome<Value, Error>.Kind,
        isolation: isolated (any Actor)?
    ) async -> ProducerOutcome<Value, Error> {
        let resumer = Locked<CheckedContinuation<Void, Never>?>(nil)
        let waiter = OutcomeWaiter<Value, Error>(kind) {
            resumer.withLock { $0.take() }?.resume()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                resumer.withLock { $0 = continuation }
                waiter.start(self)
            }
        } onCancel: {
            waiter.cancel()
        }
        return waiter.outcome
    }

    /// The first value, awaited without blocking a thread: `success` with it, `failure` if the
    /// producer fails first, `nil` if it ends (or the task is cancelled) without a value. The
    /// start is stopped after the first value, and when the awaiting task is cancelled.
    ///
    /// The async form of `first()`. It has its own name because an `async` overload of `first()`
    /// would be chosen by the compiler in every async function, changing what existing calls to
    /// the blocking form do; the same goes for `awaitSingle()`, `awaitLast()` and
    /// `awaitCompletion()`.
    ///
    /// - Parameter isolation: The caller's actor, filled in by `#isolation`; leave it out. The
    ///   producer starts there and its outcome stays in that isolation domain, so neither needs to
    ///   be `Sendable`.
    /// - Returns: `success` with the first value, `failure` if the producer fails before sending
    ///   one, or `nil` if it completes or is interrupted without a value. Cancelling the task
    ///   interrupts the producer.
    public func awaitFirst(isolation: isolated (any Actor)? = #isolation) async -> Result<Value, Error>? {
        await awaitedOutcome(.first, isolation: isolation).result
    }

    /// The only value, awaited without blocking a thread: `nil` if there is none or more than
    /// one, `failure` if the producer fails first. The async form of `single()`.
    ///
    /// - Parameter isolation: The caller's actor, filled in by `#isolation`; leave it out. The
    ///   producer starts there and its outcome stays in that isolation domain, so neither needs to
    ///   be `Sendable`.
    /// - Returns: `success` with the only value, `nil` if the producer sends none or more than one,
    ///   or `failure` if it fails before a second value. Cancelling the task interrupts the
    ///   producer.
    public func awaitSingle(isolation: isolated (any Actor)? = #isolation) async -> Result<Value, Error>? {
        await awaitedOutcome(.single, isolation: isolation).result
    }

    /// The last value, awaited without blocking a thread: `failure` if the producer fails, `nil`
    /// if it completes without a value, is interrupted or the task is cancelled. The async form
    /// of `last()`.
    ///
    /// - Parameter isolation: The caller's actor, filled in by `#isolation`; leave it out. The
    ///   producer starts there and its outcome stays in that isolation domain, so neither needs to
    ///   be `Sendable`.
    /// - Returns: `success` with the last value, `failure` if the producer fails, or `nil` if it
    ///   completes without a value or is interrupted. Cancelling the task interrupts the producer.
    public func awaitLast(isolation: isolated (any Actor)? = #isolation) async -> Result<Value, Error>? {
        await awaitedOutcome(.last, isolation: isolation).result
    }

    /// The end of the producer, awaited without blocking a thread: `failure` if it fails,
    /// otherwise `success` (also when it is interrupted or the task is cancelled). The async form
    /// of `wait()`.
    ///
    /// - Parameter isolation: The caller's actor, filled in by `#isolation`; leave it out. The
    ///   producer starts there and its outcome stays in that isolation domain, so neither needs to
    ///   be `Sendable`.
    /// - Returns: `failure` if the producer fails, otherwise `success`, also when it is interrupted
    ///   or the task is cancelled.
    public func awaitCompletion(isolation: isolated (any Actor)? = #isolation) async -> Result<(), Error> {
        await awaitedOutcome(.completion, isolation: isolation).completion
    }
}
