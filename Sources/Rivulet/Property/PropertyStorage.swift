import Dispatch

/// The shared heart of `MutableProperty` and of composed properties: the value and its write
/// turn (`PropertyState`, behind a lock) and the signal core that emits the changes.
///
/// Only the turn's holder sends into `core`, so the core is never contended by writes; the lock
/// is never held while observers or user closures run (O7).
@usableFromInline
final class PropertyStorage<Value>: @unchecked Sendable {
    // @unchecked Sendable: `state` is reached only through its lock (`MailboxStorage.withLock`
    // and `withTurnLock`; the turn word is atomic), and `core` is a signal core, itself
    // serialized by its own mailbox.
    @usableFromInline typealias State = PropertyState<Value>
    @usableFromInline typealias Event = Signal<Value, Never>.Event

    @usableFromInline let state: MailboxStorage<State>
    @usableFromInline let core: SignalCore<Value, Never>

    @inlinable
    init(value: Value?, resources: (any Disposable)? = nil) {
        state = MailboxStorage.make(State(value: value))
        core = SignalCore(resources: resources)
    }

    // MARK: Reading

    /// The current value: the latest write, visible before its change is emitted (R1, R2).
    @inlinable
    var value: Value {
        state.withLock { state in
            guard let value = state.value else {
                preconditionFailure(
                    "Rivulet: a composed property was read before its source sent a value; composition stops at once when the source sends none (internal error)"
                )
            }
            return value
        }
    }

    @inlinable
    var hasValue: Bool {
        state.withLock { $0.value != nil }
    }

    // MARK: Writing

    /// Makes `newValue` the value and emits the change (queued if this thread is already emitting).
    @inlinable
    func set(_ newValue: Value) {
        let thread = ThreadID.current
        var incoming: Value? = newValue
        if state.claimTurnIfIdle(thread) {
            // Uncontended: the turn was claimed without the lock; the lock is taken once, to write.
            let change = state.withLock { $0.write(&incoming, reentrant: false) }
            // Release the displaced value outside the lock.
            incoming = nil
            if let change { core.send(change) }
            if state.releaseTurnIfUncontended(thread) { return }
            finishTurn(emitting: nil, on: thread)
            return
        }
        var claim = MailboxQueue<Event>.Claim.claimed
        var change = state.withTurnLock { state, owner -> Event? in
            claim = state.claim(on: thread, owner: &owner)
            switch claim {
            case .claimed: return state.write(&incoming, reentrant: false)
            case .alreadyHeld: return state.write(&incoming, reentrant: true)
            case .mustWait: return nil
            }
        }
        switch claim {
        case .alreadyHeld:
            return
        case let .mustWait(turnstile):
            DeadlockDiagnostics.wait(
                on: turnstile, for: { "MutableProperty<\(Value.self)> \(state.addressForDiagnostics)" },
                owner: { state.turnOwnerForDiagnostics })
            change = state.withTurnLock { state, owner -> Event? in
                state.resume(on: thread, owner: &owner)
                return state.write(&incoming, reentrant: false)
            }
        case .claimed:
            break
        }
        // Release the displaced value outside the lock.
        incoming = nil
        finishTurn(emitting: change, on: thread)
    }

    /// Ends the property: observers receive `completed` after every change already written.
    @usableFromInline
    func end() {
        withTurn { reentrant in
            ((), state.withTurnLock { state, _ in state.end(reentrant: reentrant) })
        }
    }

    /// Atomically reads, changes and writes the value, then emits the change. Other threads' writes
    /// wait until it is done; a write made inside `action` (on this thread) takes effect at once
    /// and is emitted before the change `action` makes, which is written last.
    @inlinable
    func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        try withTurn { reentrant in
            var working: Value? = value
            let result = try action(&working!)
            let change = state.withTurnLock { state, _ in state.write(&working, reentrant: reentrant) }
            return (result, change)
        }
    }

    /// Runs `action` with the current value while no other thread can change it.
    @inlinable
    func withValue<Result>(_ action: (Value) throws -> Result) rethrows -> Result {
        try withTurn { _ in
            (try action(value), nil)
        }
    }

    // MARK: Observing

    /// Sends the current value to `observer`, then every later change, then `completed` when the
    /// property ends. Nothing is missed or repeated between the two: other writers wait meanwhile,
    /// and an observer attached in the middle of an emission starts from the latest value and
    /// skips the older changes still queued.
    @inlinable
    func observeWithCurrentValue(
        _ observer: Signal<Value, Never>.Observer
    ) -> Disposable? {
        withTurn { _ in
            let (current, queuedValues) = state.withLock { ($0.value!, $0.pendingValues) }
            observer.send(value: current)
            var toSkip = queuedValues
            let attachment = core.observe(
                Signal.Observer(
                    relaying: { event in
                        switch event {
                        case .value where toSkip > 0:
                            toSkip -= 1
                        case .value, .completed:
                            observer.send(event)
                        case .interrupted, .failed:
                            // A property's end is a completion, whatever ended its signal.
                            observer.sendCompleted()
                        }
                    }, ()))
            return (attachment, nil)
        }
    }

    // MARK: The write turn

    /// Runs `body` holding the write turn, then emits what it returns and anything queued meanwhile.
    /// `body` learns whether this thread already held the turn.
    @inlinable
    func withTurn<Result>(_ body: (_ reentrant: Bool) throws -> (Result, Event?)) rethrows -> Result {
        let thread = ThreadID.current
        let claim = state.withTurnLock { $0.claim(on: thread, owner: &$1) }
        switch claim {
        case .alreadyHeld:
            // The outer holder emits whatever `body` queued.
            return try body(true).0
        case let .mustWait(turnstile):
            DeadlockDiagnostics.wait(
                on: turnstile, for: { "MutableProperty<\(Value.self)> \(state.addressForDiagnostics)" },
                owner: { state.turnOwnerForDiagnostics })
            state.withTurnLock { $0.resume(on: thread, owner: &$1) }
        case .claimed:
            break
        }
        let outcome: (Result, Event?)
        do {
            outcome = try body(false)
        } catch {
            finishTurn(emitting: nil, on: thread)
            throw error
        }
        finishTurn(emitting: outcome.1, on: thread)
        return outcome.0
    }

    /// The holder emits `first` (if any) and every change queued meanwhile, then passes the turn on.
    @inlinable
    func finishTurn(emitting first: Event?, on thread: ThreadID) {
        var event = first
        while true {
            if let change = event {
                core.send(change)
                event = nil
            }
            switch state.withTurnLock({ $0.next(on: thread, owner: &$1) }) {
            case let .handle(change):
                event = change
            case let .handOver(turnstile):
                turnstile.signal()
                return
            case .idle:
                return
            }
        }
    }
}
