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
    init(resources: (any Disposable)?) {
        state = Locked(State(resources: resources))
    }

    // MARK: Sending

    /// Sends `event` to every observer, serially (E5), on this thread (E7), queueing it if this
    /// thread is already delivering on this signal (E6).
    ///
    /// Observers run here, with no lock held (O7). The uncontended path takes the lock twice:
    /// once to claim the turn and snapshot the observers, once to give the turn back.
    @inlinable
    func send(_ event: Event) {
        let thread = ThreadID.current
        var turn = State.Turn(event: event)
        var action = state.withLock { $0.send(on: thread, turn: &turn) }
        if action == .wait {
            turn.turnstile.unsafelyUnwrapped.wait()
            turn.turnstile = nil
            action = state.withLock { $0.resumeAfterWaiting(on: thread, turn: &turn) }
        }
        while true {
            switch action {
            case .done:
                return
            case .deliver:
                deliver(turn.event.unsafelyUnwrapped, to: turn.observers.unsafelyUnwrapped)
            case .terminate:
                deliver(turn.event.unsafelyUnwrapped, to: turn.observers.unsafelyUnwrapped)
                // S5: release the observers after the terminal event, then dispose of resources.
                turn.observers = nil
                turn.resources?.dispose()
                turn.resources = nil
            case .handOver:
                turn.turnstile.unsafelyUnwrapped.signal()
                return
            case .wait:
                preconditionFailure("Rivulet: a thread already holding the delivery turn was told to wait")
            }
            // Let go of the delivered event and the snapshot before taking the lock again.
            turn.event = nil
            turn.observers = nil
            action = state.withLock { $0.nextStep(on: thread, turn: &turn) }
        }
    }

    @inlinable
    func deliver(_ event: Event, to observers: State.Observers) {
        // Indexing borrows each attachment from the snapshot (which keeps them alive) instead of
        // retaining and releasing it, as a `for … in` iterator would.
        var index = observers.startIndex
        while index < observers.endIndex {
            observers[index].deliver(event)
            index += 1
        }
    }

    // MARK: Observers

    /// Attaches `observer`; if the signal has terminated, sends it `interrupted` at once (S3).
    @inlinable
    func observe(_ observer: Signal<Value, Error>.Observer) -> Disposable? {
        if observer.inputOf == nil {
            // A closure observer: keep its closure only.
            return observe(action: observer.action)
        }
        // The input of another signal: the attachment keeps it (and so that signal's input) alive.
        return observe(action: { observer.send($0) })
    }

    /// Attaches an observer that runs `action`; if the signal has terminated, runs it with
    /// `interrupted` at once (S3).
    @inlinable
    func observe(action: @escaping Signal<Value, Error>.Observer.Action) -> Disposable? {
        let attachment = ObserverAttachment(action: action, core: self)
        guard state.withLock({ $0.add(attachment) }) else {
            attachment.markDetached()
            action(.interrupted)
            return nil
        }
        return attachment
    }

    @inlinable
    func detach(_ attachment: ObserverAttachment<Value, Error>) {
        let removal = state.withLock { $0.remove(attachment) }
        removal.silentDisposal?.resources?.dispose()
        // `removal` (the attachment, any discarded events) is released here, after the lock.
    }

    /// The public `Signal` object is gone, or a producer's start never made one: if nobody
    /// observes, stop silently (S4).
    @inlinable
    func signalDidDeinitialize() {
        let disposal = state.withLock { $0.signalBecameUnreachable() }
        disposal?.resources?.dispose()
    }
}

extension SignalCore {
    /// Whether the signal has accepted a terminal event or been disposed of: nothing more can be sent.
    @usableFromInline
    var hasTerminated: Bool {
        state.withLock { state in
            if case .alive = state.lifecycle { return false }
            return true
        }
    }
}
