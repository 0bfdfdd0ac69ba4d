import Dispatch

/// The shared heart of a `Signal`: its delivery state behind a lock, and the code that runs a
/// delivery turn. Input observers and observer attachments refer to it; the public `Signal`
/// object only tells it when it becomes unreachable (S4).
@usableFromInline
struct SignalCore<Value, Error: Swift.Error>: Sendable {
    @usableFromInline typealias Event = Signal<Value, Error>.Event
    @usableFromInline typealias State = DeliveryState<Value, Error>

    @usableFromInline let state: Locked<State>

    @inlinable
    init(resources: Lifetime.Token?) {
        state = Locked(State(resources: resources))
    }

    @inlinable
    func isSame(as other: SignalCore) -> Bool {
        state.storage === other.state.storage
    }

    // MARK: Sending

    /// Sends `event` to every observer, serially (E5), on this thread (E7), queueing it if this
    /// thread is already delivering on this signal (E6).
    @inlinable
    func send(_ event: Event) {
        let thread = ThreadID.current
        let first: State.Step
        switch state.withLock({ $0.send(event, on: thread) }) {
        case .ignore, .queued:
            return
        case let .deliver(observers):
            first = .deliver(event, observers)
        case let .terminate(observers, resources):
            first = .terminate(event, observers, resources)
        case let .wait(turnstile):
            turnstile.wait()
            first = state.withLock { $0.resumeAfterWaiting(with: event, on: thread) }
        }
        runTurn(from: first, on: thread)
    }

    /// Runs the delivery turn this thread holds until it is over or handed to a waiting thread.
    /// Observers run here, with no lock held (O7).
    @inlinable
    func runTurn(from first: State.Step, on thread: ThreadID) {
        var step = first
        while true {
            switch step {
            case let .deliver(event, observers):
                for attachment in observers {
                    attachment.deliver(event)
                }
            case let .terminate(event, observers, resources):
                for attachment in observers {
                    attachment.deliver(event)
                }
                // S5: the observers are released when `observers` goes out of scope, after the
                // terminal event; then the generator's resources are disposed of.
                resources?.dispose()
            case let .handOver(turnstile):
                turnstile.signal()
                return
            case .done:
                return
            }
            step = state.withLock { $0.nextStep(on: thread) }
        }
    }

    // MARK: Observers

    /// Attaches `observer`; if the signal has terminated, sends it `interrupted` at once (S3).
    func observe(_ observer: Signal<Value, Error>.Observer) -> Disposable? {
        let attachment = ObserverAttachment(observer: observer, core: self)
        guard state.withLock({ $0.add(attachment) }) else {
            attachment.markDetached()
            observer.send(.interrupted)
            return nil
        }
        return attachment
    }

    func detach(_ attachment: ObserverAttachment<Value, Error>) {
        let removal = state.withLock { $0.remove(attachment) }
        removal.silentDisposal?.resources?.dispose()
        // `removal` (the attachment, any discarded events) is released here, after the lock.
    }

    /// The public `Signal` object is gone: if nobody observes, stop silently (S4).
    func signalDidDeinitialize() {
        let disposal = state.withLock { $0.signalBecameUnreachable() }
        disposal?.resources?.dispose()
    }
}
