/// One `AsyncValues` iteration: the state machine behind a lock, the observation or start that
/// feeds it, and the continuation of the waiting task.
///
/// Events arrive on whatever thread the stream sends from; the task waits in `next`. Everything
/// the machine decides (resuming the task, disposing of the observation, dropping buffered
/// values) happens after the lock is released (O7).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@usableFromInline
final class AsyncValuesStorage<Element: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Machine = AsyncValuesStateMachine<Element, Failure>

    // `Locked` is Sendable only for Sendable state; the machine's state is Sendable values, an
    // error and a checked continuation, all of which may cross threads.
    @usableFromInline let state: Locked<Machine>
    /// The observation or start, disposed of once when the iteration ends.
    @usableFromInline let observation = SerialDisposable()

    @usableFromInline
    init(policy: AsyncValuesBufferingPolicy) {
        state = Locked(Machine(policy: policy))
    }

    /// Keeps what ends the stream's observation or start (disposed of at once if the iteration
    /// has already ended, e.g. a producer that completed during its start).
    @usableFromInline
    func attach(_ disposable: Disposable?) {
        observation.inner = disposable
        let hasEnded = state.withLock { $0.end != nil && $0.buffer.isEmpty }
        if hasEnded { observation.dispose() }
    }

    /// An event of the stream.
    @inlinable
    func receive(_ event: Signal<Element, Failure>.Event) {
        let action: Machine.Action
        switch event {
        case let .value(value): action = state.withLock { $0.receive(value) }
        case let .failed(failure): action = state.withLock { $0.finish(.failed(failure)) }
        case .completed, .interrupted: action = state.withLock { $0.finish(.finished) }
        }
        run(action)
    }

    /// The task cancelled the iteration, or dropped it.
    @inlinable
    func cancel() {
        let (action, dropped) = state.withLock { $0.cancel() }
        // Buffered values (maybe the last references to them) are released here, after the lock.
        _ = dropped
        observation.dispose()
        run(action)
    }

    /// The next outcome for the task: at once if one is ready, otherwise once the stream sends,
    /// ends, or the task is cancelled.
    @inlinable
    func next(isolation actor: isolated (any Actor)?) async -> Result<Element?, Failure> {
        if Task.isCancelled {
            cancel()
        } else if let outcome = state.withLock({ $0.next() }) {
            return outcome
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: actor) { (continuation: Machine.Waiter) in
                run(state.withLock { $0.wait(continuation) })
            }
        } onCancel: {
            cancel()
        }
    }

    @inlinable
    func run(_ action: Machine.Action) {
        switch action {
        case .none: return
        case let .resume(waiter, outcome): waiter.resume(returning: outcome)
        }
    }
}
