/// A signal that shares its host's delivery turn. Shared delivery turns: a signal derived from
/// another by a stage that only ever sends while its upstream delivers (`map`, `filter`, …) runs
/// inside its upstream's delivery turn instead of claiming one of its own.
///
/// Such a *member* signal has exactly one source of events: its stage, which its upstream calls
/// from that upstream's delivery turn. The upstream's turn therefore already serialises the
/// member's events (E5) on the sending thread (E7), and a value sent from inside one of the
/// member's observers reaches the upstream, which queues it (E6). What the member's own turn was
/// for is keeping its observer list still while it is read without a lock; a member gets that
/// from the *host*, the signal at the top of the chain whose turn every member in it shares:
/// - every transition of a member's state runs under the host's lock, with the host's turn word
///   frozen, so it knows whether (and which thread) holds the shared turn;
/// - a change to the observer list made while the shared turn is held waits in the member's
///   `pendingChanges`, and the member in the host's, until the host's owner applies both between
///   two of the host's events. The owner's own changes apply at once when it is not delivering
///   on that member, exactly as with a turn of the member's own.
///
/// So a delivery down a chain of members is one compare-and-swap at the host and then plain
/// calls: no turn word, no thread identity, no lock per stage.
///
/// A host is a signal, or the mailbox of a flattening on a `Signal`: the flattened signal's only
/// sender is the mailbox's handler, so it is a member of the mailbox's turn (and the stages below
/// it too). A value sent from one of its observers reaches the outer signal or an inner stream,
/// and so the mailbox, which queues it (E6). The mailbox's owner applies its members' changes
/// between two inputs (`MailboxHandlerState.step`).
///
/// A member reaches its host through a `SharedTurnHostLink`, whose closures were made where the
/// host's types were known: a call through a protocol instead would run the host's generic code
/// unspecialised, looking up type metadata at every step (5,600 instructions for an observe and
/// dispose on a `map`'s signal, against 1,100 on its upstream).
@usableFromInline
protocol SharedTurnMember: AnyObject {
    /// Applies the changes made to the member while the shared turn was held. Called by the
    /// shared turn's owner, under the host's lock; the result is what the changes let go of, for
    /// the owner to release once the lock is released (O7).
    func applyPendingChangesForHost() -> SharedTurnRelease
}

/// A member's way to its host, shared by every member of one chain below the first: a signal's
/// state keeps one reference (8 bytes, `nil` for a turn of its own) rather than the host in every
/// signal. Its closures run the host's code specialised for the host's types (see above).
@usableFromInline
final class SharedTurnHostLink {
    /// The host: for identity checks (tests).
    @usableFromInline let host: AnyObject
    /// Runs `body` under the host's lock with its turn word frozen, giving it the turn's owner.
    /// When `body` returns `true` (the member now needs the owner: pending changes), the host
    /// records `member`, and its owner applies the member's changes before it gives up the turn.
    @usableFromInline let withTurnLock: (_ member: any SharedTurnMember, _ body: (TurnOwner) -> Bool) -> Void
    /// Runs `body` under the host's lock: reads of a member's state.
    @usableFromInline let withLock: (_ body: () -> Void) -> Void
    /// Whether a thread holds the shared turn (debug checks).
    @usableFromInline let isTurnHeld: (ThreadID) -> Bool

    @inlinable
    init<HostState: SharedTurnHostState>(_ host: MailboxStorage<HostState>) {
        self.host = host
        withTurnLock = { member, body in
            host.withTurnLock { state, owner in
                if body(owner) { state.recordMemberNeedingOwner(member) }
            }
        }
        withLock = { body in host.withLock { _ in body() } }
        isTurnHeld = { host.isTurnHeld(by: $0) }
    }
}

/// What a member's pending changes let go of: released, and disposed of, outside the lock.
@usableFromInline
struct SharedTurnRelease {
    @usableFromInline let release: () -> Void

    @inlinable
    init(_ release: @escaping () -> Void) {
        self.release = release
    }
}

/// A mailbox state whose turn members can share: a signal's, or a `Mailbox`'s whose handler is
/// the only sender of the signal it feeds (a flattening's).
@usableFromInline
protocol SharedTurnHostState: MailboxGuardedState {
    /// Records that `member` has changes for the shared turn's owner to apply. Under the host's
    /// lock, through `withTurnLock`: `needsSlowPath` is then `true` until the owner has applied
    /// them, between two of the host's events.
    mutating func recordMemberNeedingOwner(_ member: any SharedTurnMember)
}

/// A signal's state, which can host members or be one.
@usableFromInline
protocol SharedTurnState: SharedTurnHostState {
    /// See `SharedTurnMember.applyPendingChangesForHost`.
    mutating func applyPendingChangesForHost() -> SharedTurnRelease
}

extension MailboxStorage: SharedTurnMember where State: SharedTurnState {
    @usableFromInline
    func applyPendingChangesForHost() -> SharedTurnRelease {
        withUnsafeMutablePointerToHeader { $0.pointee.applyPendingChangesForHost() }
    }
}
