import Dispatch

/// A serializer with a handler: the inputs of a multi-source stage (combineLatest, flatten,
/// debounce, …) go in from any thread, and the handler sees them one at a time, so the stage's
/// state machine needs no lock of its own and the handler runs with no lock held (O7).
///
/// It follows the rules of `MailboxQueue` (who holds the turn, what is queued, who waits); each
/// send says who waits with a `MailboxPolicy`, defaulting to the one the mailbox was made with. An
/// uncontended input takes no lock: one compare-and-swap claims the turn, one gives it back.
@usableFromInline
struct Mailbox<Input>: @unchecked Sendable {
    // @unchecked Sendable: every field of `storage`'s state is changed only under its lock, except
    // that the turn's owner calls the handler without it, which is safe by `MailboxStorage`'s
    // argument (the handler is only removed under the lock by the owner, or when nobody owns the
    // turn). Inputs cross threads only through the lock (queued) or stay on their sender's thread.
    @usableFromInline typealias State = MailboxHandlerState<Input>

    @usableFromInline let storage: MailboxStorage<State>
    @usableFromInline let policy: MailboxPolicy

    /// A mailbox that runs `handle` for each input until it is closed; `policy` says who waits
    /// when an input arrives while another thread is handling one.
    @inlinable
    init(policy: MailboxPolicy = .waitForTurn, _ handle: @escaping (Input) -> Void) {
        storage = MailboxStorage.make(State(handler: MailboxHandler(handle)))
        self.policy = policy
    }

    /// A mailbox whose handler is installed later, with `install(_:)`, before any input is sent:
    /// for a handler that needs the mailbox first (a signal sharing its turn, see
    /// `SignalCore.init(sharingTurnOf:resources:)`).
    @inlinable
    init(policy: MailboxPolicy = .waitForTurn) {
        storage = MailboxStorage.make(State(handler: nil))
        self.policy = policy
    }

    /// Installs the handler of a mailbox made without one. Called once, before any input is sent.
    @inlinable
    func install(_ handle: @escaping (Input) -> Void) {
        let handler = MailboxHandler(handle)
        storage.withLock { state in
            precondition(
                state.handler == nil && state.closing == nil,
                "Rivulet: Mailbox.install: the handler is installed once, into a mailbox made without one and not closed (internal error)"
            )
            state.handler = .passRetained(handler)
        }
    }

    /// Handles `input` after every input accepted before it, following the mailbox's policy.
    @inlinable
    func send(_ input: Input) {
        send(input, policy: policy)
    }

    /// Handles `input` after every input accepted before it, following `policy`.
    @inlinable
    func send(_ input: Input, policy: MailboxPolicy) {
        let thread = ThreadID.current
        if storage.claimTurnIfIdle(thread) {
            handleAsOwner(input)
            if storage.releaseTurnIfUncontended(thread) { return }
            finishTurn(on: thread)
            return
        }
        sendTakingTheLock(input, on: thread, policy: policy)
    }

    /// Whether `thread` holds the turn: it is running the handler, or sending from inside it.
    ///
    /// Only `thread` itself can make this true or false (it claims and gives back its own turn), so
    /// the answer is exact when `thread` is the calling thread.
    @inlinable
    func isTurnHeld(by thread: ThreadID) -> Bool {
        storage.isTurnHeld(by: thread)
    }

    /// Stops handling inputs and releases the handler once the turn is over. Inputs sent later are
    /// ignored; `closing` says what happens to those already accepted.
    @usableFromInline
    func close(_ closing: MailboxClosing = .afterAcceptedInputs) {
        var leftovers = storage.withTurnLock { $0.close(closing, owner: $1) }
        // The handler (with what it captures) and dropped inputs are released here, after the lock.
        leftovers.release()
    }

    // MARK: The turn

    /// Runs the handler; only the turn's owner calls this, so the handler is there and is read
    /// without the lock and without a retain (see `MailboxStorage`).
    @inlinable @inline(__always)
    func handleAsOwner(_ input: Input) {
        storage.withUnsafeMutablePointerToHeader { state in
            guard let handler = state.pointee.handler else { return }
            handler._withUnsafeGuaranteedRef { $0.handle(input) }
        }
    }

    @inlinable @inline(never)
    func sendTakingTheLock(_ input: Input, on thread: ThreadID, policy: MailboxPolicy) {
        let submission = storage.withTurnLock { state, owner -> MailboxQueue<Input>.Submission? in
            guard state.closing == nil else { return nil }
            return state.queue.submit(input, on: thread, owner: &owner, policy: policy)
        }
        switch submission {
        case nil, .queued?:
            return
        case .handleNow?:
            handleAsOwner(input)
        case let .mustWait(turnstile)?:
            DeadlockDiagnostics.wait(
                on: turnstile, for: { "the mailbox of an operator's stage (\(Input.self)) \(storage.addressForDiagnostics)" },
                owner: { storage.turnOwnerForDiagnostics })
            let accepted = storage.withTurnLock { state, owner -> Bool in
                state.queue.resumeAfterWaiting(on: thread, owner: &owner)
                return state.closing != .discardingAcceptedInputs
            }
            if accepted { handleAsOwner(input) }
        }
        finishTurn(on: thread)
    }

    /// The owner handles what was queued meanwhile, then hands the turn over or gives it back.
    @inlinable @inline(never)
    func finishTurn(on thread: ThreadID) {
        while true {
            var leftovers = MailboxHandlerState<Input>.Leftovers()
            let step = storage.withTurnLock { $0.step(on: thread, owner: &$1, leftovers: &leftovers) }
            leftovers.release()
            switch step {
            case let .handle(input):
                handleAsOwner(input)
            case let .handOver(turnstile):
                turnstile.signal()
                return
            case .idle:
                return
            }
        }
    }
}

/// How closing a mailbox treats the inputs it has already accepted.
@usableFromInline
enum MailboxClosing: Sendable {
    /// Inputs already accepted (queued, or sent by a thread now waiting for the turn) are still
    /// handled, in order; only later ones are ignored.
    case afterAcceptedInputs
    /// Only the input being handled finishes; the accepted ones are dropped.
    case discardingAcceptedInputs
}

/// A mailbox's handler, in a class so that the owner calls it through a `let` without retaining it.
@usableFromInline
final class MailboxHandler<Input> {
    @usableFromInline let handle: (Input) -> Void

    @inlinable
    init(_ handle: @escaping (Input) -> Void) {
        self.handle = handle
    }
}

/// A `Mailbox`'s state machine: the turn's queue, the handler, and whether it is closing.
@usableFromInline
struct MailboxHandlerState<Input>: MailboxGuardedState {
    @usableFromInline var queue = MailboxQueue<Input>()
    /// Retained by hand (the state owns that +1), so that the owner reads it with a plain load.
    /// Read by the turn's owner without the lock; removed only under the lock, by the owner going
    /// idle or by `close` when nobody holds the turn.
    @usableFromInline var handler: Unmanaged<MailboxHandler<Input>>?
    @usableFromInline var closing: MailboxClosing?
    /// Signals sharing this mailbox's turn whose observer changes wait for the turn's owner (see
    /// `SharedTurnMember`): it applies them between two inputs, in `step`.
    @usableFromInline var membersNeedingOwner: ContiguousArray<any SharedTurnMember> = []

    @inlinable
    init(handler: MailboxHandler<Input>?) {
        self.handler = handler.map { .passRetained($0) }
    }

    @inlinable
    var needsSlowPath: Bool { closing != nil || queue.needsOwnerAttention || !membersNeedingOwner.isEmpty }

    @inlinable
    mutating func prepareForDeallocation() {
        handler?.release()
        handler = nil
    }

    /// What a transition let go of, released by the caller after the lock.
    @usableFromInline
    struct Leftovers {
        @usableFromInline var handler: Unmanaged<MailboxHandler<Input>>?
        @usableFromInline var inputs: ContiguousArray<Input?> = []
        @usableFromInline var members: ContiguousArray<any SharedTurnMember> = []
        @usableFromInline var appliedMembers: ContiguousArray<SharedTurnRelease> = []

        @inlinable
        init() {}

        @inlinable
        mutating func release() {
            if !inputs.isEmpty { inputs = [] }
            if !appliedMembers.isEmpty {
                for applied in appliedMembers { applied.release() }
                appliedMembers = []
                members = []
            }
            if let handler {
                self.handler = nil
                handler.release()
            }
        }
    }

    /// The owner is done with an input: the next step of its turn, given how the mailbox closes.
    @inlinable
    mutating func step(on thread: ThreadID, owner: inout TurnOwner, leftovers: inout Leftovers) -> MailboxQueue<Input>.Step {
        if !membersNeedingOwner.isEmpty {
            // Between two inputs: no member is delivering, so their lists may change now. The
            // members themselves go with the leftovers, released after the lock.
            swap(&leftovers.members, &membersNeedingOwner)
            for member in leftovers.members { leftovers.appliedMembers.append(member.applyPendingChangesForHost()) }
        }
        // Nothing is queued after a close (`send` refuses it), and discarding emptied the queue
        // when it closed, so the queue's own step is all there is to do.
        let step = queue.next(on: thread, owner: &owner)
        if case .idle = step, closing != nil {
            swap(&leftovers.handler, &handler)
        }
        return step
    }

    @inlinable
    mutating func close(_ mode: MailboxClosing, owner: TurnOwner) -> Leftovers {
        var leftovers = Leftovers()
        if closing != .discardingAcceptedInputs { closing = mode }
        if closing == .discardingAcceptedInputs {
            leftovers.inputs = queue.removeAllQueued()
        }
        if owner == .none {
            // Nobody holds the turn, so nobody can be reading the handler: let it go now.
            swap(&leftovers.handler, &handler)
        }
        return leftovers
    }
}

extension MailboxHandlerState: SharedTurnHostState {
    @inlinable
    mutating func recordMemberNeedingOwner(_ member: any SharedTurnMember) {
        membersNeedingOwner.append(member)
    }
}
