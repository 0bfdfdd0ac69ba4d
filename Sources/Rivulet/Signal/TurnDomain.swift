import Dispatch
import Synchronization

/// Turn domains: derived signals that share their upstream's delivery turn.
///
/// A signal made by a synchronous operator (`map`, `filter`, …) is only ever sent to from inside
/// its upstream's delivery: its events are already serial (E5), on the sending thread (E7), and
/// never recursive (E6) because the upstream's turn makes them so. Such a signal joins its
/// upstream's *turn domain*: it has its own observers, lifecycle and resources, but no turn of its
/// own. It uses the domain root's turn word and lock, so a value through eight operators claims
/// one turn (two compare-and-swaps) instead of nine.
///
/// The rules, on top of `SignalStorage`'s:
/// - A member's observer list is written only by the domain's turn owner holding the lock, or by
///   a lock holder that found no owner; so the owner reads it without the lock.
/// - A send to a member from the thread that owns the domain's turn is delivered at once, with no
///   lock and no atomic read-modify-write. A send from any other thread runs inside the domain's
///   turn, waiting for it if needed; a terminal event from another thread never waits (recorded
///   and delivered by the owner, as for a root).
/// - Observer changes made while the domain's turn is held wait in the member's state; the member
///   registers with the root (`waitingMembers`), which sets the slow-path bit, and the owner
///   applies them between two of the root's events, as for its own observers.
@usableFromInline
final class TurnDomainLink: @unchecked Sendable {
    // @unchecked Sendable: both properties are immutable; `sync` points into `root`'s storage,
    // which this link keeps alive, and is only used through its atomic word and its lock.
    /// The domain's root; kept alive by the link, so that `sync` stays valid.
    @usableFromInline let root: any TurnDomainRoot
    @usableFromInline let sync: UnsafeMutablePointer<SignalSynchronization>

    @inlinable
    init(root: any TurnDomainRoot, sync: UnsafeMutablePointer<SignalSynchronization>) {
        self.root = root
        self.sync = sync
    }
}

/// The root of a turn domain: a signal with a turn of its own.
@usableFromInline
protocol TurnDomainRoot: AnyObject {
    /// Runs `body` while this thread holds the domain's delivery turn, waiting for the turn if
    /// another thread holds it, then finishes the turn.
    func runInTurn(_ body: () -> Void)
}

/// A member of a turn domain, as its root sees it.
@usableFromInline
protocol TurnDomainMember: AnyObject {
    /// Called by the domain's turn owner with the domain's lock held: applies the member's waiting
    /// observer changes and terminal event, and returns what must run after the lock is released
    /// (delivering a terminal event, releasing detached observers, disposing of resources).
    func settleWhileOwningTurn() -> (() -> Void)?
}

extension SignalStorage: TurnDomainRoot, TurnDomainMember {
    /// The link a member of this signal's domain uses: this signal's own, if it is a member
    /// itself (a domain has one root), or a new link to this signal.
    @inlinable
    func linkForNewMember() -> TurnDomainLink {
        withUnsafeMutablePointerToElements { own in
            own.pointee.domain ?? TurnDomainLink(root: self, sync: own)
        }
    }

    @inlinable
    var isDomainMember: Bool {
        withUnsafeMutablePointerToElements { $0.pointee.domain != nil }
    }

    @usableFromInline
    func runInTurn(_ body: () -> Void) {
        SignalCore(storage: self).runInTurn(body)
    }

    /// A member's transition under the domain's lock. The member registers with the root when it
    /// leaves work for the turn's owner, and the turn word is stored back as it was, with the
    /// slow-path bit added if any member waits.
    @inlinable
    func withMemberLock<Result>(
        _ state: UnsafeMutablePointer<State>,
        _ sync: UnsafeMutablePointer<SignalSynchronization>,
        _ body: (inout State, TurnOwner) -> Result
    ) -> Result {
        PlatformLocking.lock(&sync.pointee.lock)
        defer { PlatformLocking.unlock(&sync.pointee.lock) }
        let (owner, previous) = Self.freezeTurnWord(sync)
        let result = body(&state.pointee, owner)
        if state.pointee.needsSettling, !state.pointee.isWaitingForSettlement {
            state.pointee.isWaitingForSettlement = true
            sync.pointee.waitingMembers.append(self)
        }
        let waiting = sync.pointee.waitingMembers.isEmpty ? 0 : Self.slowPathBit
        sync.pointee.turnWord.store(previous | waiting, ordering: .releasing)
        return result
    }

    @usableFromInline
    func settleWhileOwningTurn() -> (() -> Void)? {
        var turn = withUnsafeMutablePointerToHeader { $0.pointee.settle() }
        guard turn.hasWork else { return nil }
        return {
            SignalCore(storage: self).finishTerminalDelivery(&turn)
            SignalCore<Value, Error>.releaseOutsideLock(&turn)
        }
    }
}

extension SignalCore {
    /// `send` for a member of a turn domain.
    @inlinable
    func sendAsMember(_ event: Event) {
        let thread = ThreadID.current
        let ownsTurn = storage.withUnsafeMutablePointerToElements { own in
            // Relaxed: only this thread ever writes its own identity into the word.
            let word = own.pointee.domain.unsafelyUnwrapped.sync.pointee.turnWord.load(ordering: .relaxed)
            return word & ~SignalStorage<Value, Error>.slowPathBit == thread.rawValue
        }
        if ownsTurn, case .value = event {
            storage.deliverAsTurnOwner(event)
        } else if ownsTurn {
            terminateAsTurnOwner(event)
        } else {
            sendAsMemberFromOutsideTurn(event)
        }
    }

    /// A terminal event sent to a member by the domain's turn owner: delivered at once.
    @usableFromInline
    func terminateAsTurnOwner(_ event: Event) {
        var turn = storage.withTurnLock { state, _ in state.terminateAsTurnOwner(event) }
        finishTerminalDelivery(&turn)
        Self.releaseOutsideLock(&turn)
    }

    @usableFromInline
    func sendAsMemberFromOutsideTurn(_ event: Event) {
        if event.isTerminating {
            // Never waits: if another thread holds the turn, the event is recorded and delivered
            // by that thread.
            let deliverNow = storage.withTurnLock { state, owner in state.acceptTerminal(event, owner: owner) }
            guard deliverNow else { return }
            domainRoot.runInTurn { terminateAsTurnOwner(event) }
        } else {
            domainRoot.runInTurn { storage.deliverAsTurnOwner(event) }
        }
    }

    @usableFromInline
    var domainRoot: any TurnDomainRoot {
        storage.withUnsafeMutablePointerToElements { $0.pointee.domain.unsafelyUnwrapped.root }
    }

    /// Delivers a committed terminal event to the observers taken out of the state, then lets
    /// them go (S5); the caller then disposes of the resources.
    @inlinable
    func finishTerminalDelivery(_ turn: inout State.Turn) {
        guard let observers = turn.observers, let event = turn.event else { return }
        var index = observers.startIndex
        while index < observers.endIndex {
            observers[index].deliver(event)
            index += 1
        }
        turn.event = nil
        turn.observers = nil
    }

    /// Runs `body` while this thread holds the turn (waiting for it if needed), then finishes the
    /// turn: what a member's send from outside the domain's turn does on the root.
    @usableFromInline
    func runInTurn(_ body: () -> Void) {
        let thread = ThreadID.current
        var turn = State.Turn(event: nil)
        if storage.claimTurnIfIdle(thread) {
            body()
            if storage.releaseTurnIfUncontended(thread) { return }
            runTurn(nextStep(on: thread, turn: &turn), on: thread, turn: &turn)
            return
        }
        var action = storage.withTurnLock { $0.claimForWork(on: thread, owner: &$1, turn: &turn) }
        if action == .wait {
            turn.turnstile.unsafelyUnwrapped.wait()
            turn.turnstile = nil
            action = storage.withTurnLock { $0.resumeForWork(on: thread, owner: &$1, turn: &turn) }
        }
        precondition(action == .deliver, "Rivulet: a claimed turn has no work to run (\(action))")
        body()
        runTurn(nextStep(on: thread, turn: &turn), on: thread, turn: &turn)
    }

    /// The root's next step after an event: first settle the members waiting for the turn's
    /// owner, then carry on with the root's own queue.
    @inlinable
    func nextStep(on thread: ThreadID, turn: inout State.Turn) -> State.TurnAction {
        storage.withUnsafeMutablePointers { state, sync in
            SignalStorage.withTurnLock(state, sync) { state, owner in
                if !sync.pointee.waitingMembers.isEmpty {
                    guard owner == TurnOwner(thread) else {
                        preconditionFailure("Rivulet: members settled by a thread that does not hold the turn")
                    }
                    let members = sync.pointee.waitingMembers
                    sync.pointee.waitingMembers = []
                    for member in members {
                        if let work = member.settleWhileOwningTurn() { turn.memberWork.append(work) }
                    }
                    turn.settledMembers = members
                    return .settleMembers
                }
                return state.nextStep(on: thread, owner: &owner, turn: &turn)
            }
        }
    }
}

extension DeliveryState {
    /// Whether a member has work for the domain's turn owner.
    @inlinable
    var needsSettling: Bool {
        if case .terminalPending = lifecycle { return true }
        return !pendingChanges.isEmpty
    }

    /// A member's waiting changes and terminal event, applied by the domain's turn owner.
    @inlinable
    mutating func settle() -> Turn {
        isWaitingForSettlement = false
        var turn = Turn(event: nil)
        applyPendingChanges(into: &turn)
        if case let .terminalPending(event) = lifecycle {
            turn.event = event
            commitTermination(into: &turn)
        }
        return turn
    }

    /// A member's terminal event from the domain's turn owner.
    @inlinable
    mutating func terminateAsTurnOwner(_ event: Event) -> Turn {
        var turn = Turn(event: nil)
        applyPendingChanges(into: &turn)
        switch lifecycle {
        case .alive, .terminalPending:
            turn.event = event
            commitTermination(into: &turn)
        case .terminated:
            break
        }
        return turn
    }

    /// A member's terminal event from outside the domain's turn: `true` if the caller should
    /// deliver it within the turn (nobody holds it), `false` if it was recorded for the owner or
    /// ignored.
    @inlinable
    mutating func acceptTerminal(_ event: Event, owner: TurnOwner) -> Bool {
        guard case .alive = lifecycle else { return false }
        if owner == .none { return true }
        lifecycle = .terminalPending(event)
        return false
    }

    /// The root's turn, claimed for work other than one of its own events.
    @inlinable
    mutating func claimForWork(on thread: ThreadID, owner: inout TurnOwner, turn: inout Turn) -> TurnAction {
        switch owner {
        case .none:
            owner = TurnOwner(thread)
            return .deliver
        case TurnOwner(thread):
            preconditionFailure("Rivulet: a thread holding the domain's turn asked for it again")
        default:
            waiters += 1
            if turnstile == nil { turnstile = DispatchSemaphore(value: 0) }
            turn.turnstile = turnstile
            return .wait
        }
    }

    @inlinable
    mutating func resumeForWork(on thread: ThreadID, owner: inout TurnOwner, turn: inout Turn) -> TurnAction {
        guard owner == .handingOver else {
            preconditionFailure("Rivulet: a thread woke for a delivery turn that was not handed over (\(owner.rawValue))")
        }
        owner = TurnOwner(thread)
        applyPendingChanges(into: &turn)
        return .deliver
    }
}
