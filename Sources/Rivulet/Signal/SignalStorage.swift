/// A signal core's one allocation: the delivery state in the header, then the turn word and the
/// lock that guard it (see `MailboxStorage`).
///
/// The observer list is written only by the turn's owner while it also holds the lock (or by a
/// lock holder that found no owner, which is the same thing), so the owner may read it without the
/// lock: that is how a delivery runs with no lock and no copy of the list.
@usableFromInline
typealias SignalStorage<Value, Error: Swift.Error> = MailboxStorage<DeliveryState<Value, Error>>

extension DeliveryState: MailboxGuardedState {
    /// Attachments keep the storage alive, so the list is empty when the storage is freed; it is
    /// released regardless, as it holds its first observer by hand.
    @inlinable
    mutating func prepareForDeallocation() {
        _ = observers.takeAll()
    }

    /// A member of a shared turn also lets go of the link to its host, kept in its turn word.
    @inlinable
    mutating func prepareForDeallocation(turnWord: UInt) {
        prepareForDeallocation()
        if isSharedTurnMember, let link = UnsafeRawPointer(bitPattern: turnWord) {
            Unmanaged<SharedTurnHostLink>.fromOpaque(link).release()
        }
    }
}

extension MailboxStorage {
    @inlinable
    static func make<Value, Error>(resources: (any Disposable)?, interruptsWhenInputIsReleased: Bool = true) -> MailboxStorage
    where State == DeliveryState<Value, Error> {
        make(DeliveryState(resources: resources, interruptsWhenInputIsReleased: interruptsWhenInputIsReleased))
    }

    /// `DeliveryState.interruptsWhenInputIsReleased`, read without the lock: it is written only
    /// while the storage is made, before any other thread can see it.
    @inlinable
    func interruptsWhenInputIsReleased<Value, Error>() -> Bool where State == DeliveryState<Value, Error> {
        withUnsafeMutablePointerToHeader { $0.pointee.interruptsWhenInputIsReleased }
    }

    /// Delivers `event` to every attached observer, on the turn's owner, with no lock held (O7).
    ///
    /// Only the turn's owner may call this: nothing changes the observer list while it holds the
    /// turn (changes wait in `pendingChanges`), so the list is read in place, without a copy.
    @inlinable @inline(__always)
    func deliverAsTurnOwner<Value, Error>(_ event: Signal<Value, Error>.Event) where State == DeliveryState<Value, Error> {
        // Plain reads through the pointer, never an `inout` access: Thread Sanitizer treats an
        // `inout` access as a write to the whole state, which would race (on paper) with the lock
        // holders' `inout` access in `withTurnLock`. The fields read here are written only by
        // the turn's owner, so the real memory accesses never race.
        withUnsafeMutablePointerToHeader { state in
            guard let first = state.pointee.observers.first else { return }
            first._withUnsafeGuaranteedRef { $0.deliver(event) }
            if state.pointee.observers.rest.isEmpty { return }
            state.pointee.observers.rest.withUnsafeBufferPointer { ObserverList.deliver(event, toEach: $0) }
        }
    }
}
