/// A disposable that disposes of a group of disposables together.
///
/// Adding to a composite that is already disposed of disposes of the addition at once.
/// Members are disposed of in the order they were added, outside the internal lock.
///
/// Not `open`: only Rivulet subclasses it, with the object a producer's start returns
/// (`ProducerStart`), which is that start's resources too.
public class CompositeDisposable: Disposable, @unchecked Sendable {
    // @unchecked Sendable: `state` is a `LockStorage` of `Sendable` state, published once through
    // `stateWord`, and `atomicsStorage` is never accessed after `init` but through the atomic
    // operations of `startTurn`, `stateWord` and `disposed`.
    private struct State {
        /// `nil` once the composite is disposed of, or the members still to dispose of while a
        /// producer start's end is deferred (`endIsDeferredFlag`). A producer start's leading
        /// interruption, if any, is first, under `leadingKey`.
        var members: [(key: UInt64, disposable: Disposable)]? = []
        /// The next key in the low bits, and a producer start's flags in the top three (one word,
        /// so that a composite is no bigger for them).
        var nextKey: UInt64 = 0
    }

    /// `nextKey`'s flag: the composite is a producer start's resources, which may lead with an
    /// interruption (see `setLeadingInterruption`).
    private static var acceptsLeadingInterruptionFlag: UInt64 { 1 << 63 }
    /// `nextKey`'s flag: a stage of the start delivers on a scheduler, and so delivers the
    /// interruption itself, there, when the start is disposed of.
    private static var hasAsynchronousStageFlag: UInt64 { 1 << 62 }
    /// `nextKey`'s flag: such a stage has received the interruption and will deliver it later.
    private static var interruptionIsHeldFlag: UInt64 { 1 << 61 }
    /// `nextKey`'s flag: the leading interruption was queued behind the event its source is
    /// delivering on this thread, so the members wait for it (see `deferEnd`).
    private static var endIsDeferredFlag: UInt64 { 1 << 60 }
    /// `nextKey`'s flag: the leading interruption asked for `endIsDeferredFlag` while it ran.
    private static var deferralRequestedFlag: UInt64 { 1 << 59 }
    /// The bits of `nextKey` that count keys.
    private static var keyMask: UInt64 { (1 << 59) - 1 }
    /// The key of the leading interruption, which no member reaches.
    private static var leadingKey: UInt64 { keyMask }

    /// The memory of `startTurn`, `stateWord` and `disposed`: the first stored property, never
    /// read or written directly after `init` (see AtomicWord.swift).
    @usableFromInline var atomicsStorage = CompositeAtomics()
    /// Whether this composite is a producer start's resources, which accept a leading
    /// interruption (see `setLeadingInterruption`).
    private let isStartResources: Bool
    /// Mirrors `state.members == nil` so that `isDisposed` (which producers check before every
    /// element of a sequence) costs one atomic load instead of a lock round-trip.
    private var disposed: AtomicFlag {
        AtomicFlag(atomics.advanced(by: CompositeAtomics.disposedOffset).assumingMemoryBound(to: AtomicFlagStorage.self))
    }
    /// The delivery turn of a producer start's output, when this composite is the `ProducerStart`
    /// of a start (see there); unused, and 0, otherwise. Kept here because an atomic must be in the
    /// first stored property of a class with no superclass.
    @inlinable
    final var startTurn: AtomicWord {
        AtomicWord(_getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: AtomicWordStorage.self))
    }
    /// The locked state, made on first use: 0 while there is none and the composite is not
    /// disposed of, `disposedWithoutState` once disposed of before it was needed, otherwise the
    /// address of the `LockStorage`, retained by hand. A composite that nothing is ever added to
    /// (a producer start of a sequence, a value, …) so costs one allocation, not two.
    private var stateWord: AtomicWord {
        AtomicWord(atomics.advanced(by: CompositeAtomics.stateOffset).assumingMemoryBound(to: AtomicWordStorage.self))
    }
    /// `stateWord` for a composite disposed of before it had a locked state.
    private static var disposedWithoutState: UInt { 1 }
    /// The address of `atomicsStorage`.
    private var atomics: UnsafeMutableRawPointer { _getUnsafePointerToStoredProperties(self) }

    /// Inlinable, and so without a call: a sequence producer reads it before every element.
    @inlinable
    public final var isDisposed: Bool {
        AtomicFlag(
            _getUnsafePointerToStoredProperties(self).advanced(by: CompositeAtomics.disposedOffset)
                .assumingMemoryBound(to: AtomicFlagStorage.self)
        ).loadAcquiring()
    }

    /// The locked state, made now if there is none yet.
    private var state: LockStorage<State> {
        let bits = stateWord.loadAcquiring()
        if bits > Self.disposedWithoutState, let pointer = UnsafeRawPointer(bitPattern: bits) {
            return Unmanaged<LockStorage<State>>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeState(seeing: bits)
    }

    /// Makes the locked state and publishes it in `stateWord`, unless another thread did first.
    @inline(never)
    private final func makeState(seeing seen: UInt) -> LockStorage<State> {
        var expected = seen
        while true {
            let storage = LockStorage.make(
                State(
                    members: expected == Self.disposedWithoutState ? nil : [],
                    nextKey: isStartResources ? Self.acceptsLeadingInterruptionFlag : 0))
            let retained = Unmanaged.passRetained(storage)
            let (exchanged, original) = stateWord.compareExchangeAcquiringAndReleasing(
                expected: expected, desired: UInt(bitPattern: retained.toOpaque()))
            if exchanged { return storage }
            // Another thread published one, or disposed of the composite meanwhile. Ours holds
            // no member, so it goes at once.
            retained.release()
            if original > Self.disposedWithoutState, let pointer = UnsafeRawPointer(bitPattern: original) {
                return Unmanaged<LockStorage<State>>.fromOpaque(pointer).takeUnretainedValue()
            }
            expected = original
        }
    }

    /// An empty composite.
    public init() {
        isStartResources = false
    }

    /// The resources of a producer's start: an empty composite that accepts a leading
    /// interruption.
    @usableFromInline
    init(leadingWithInterruption: Void) {
        isStartResources = true
    }

    deinit {
        let bits = stateWord.loadAcquiring()
        if bits > Self.disposedWithoutState, let pointer = UnsafeRawPointer(bitPattern: bits) {
            Unmanaged<LockStorage<State>>.fromOpaque(pointer).release()
        }
    }

    /// A composite holding `disposables`.
    ///
    /// - Parameter disposables: The members, disposed of with the composite.
    public convenience init<S: Sequence>(_ disposables: S) where S.Element == Disposable {
        self.init()
        for disposable in disposables { add(disposable) }
    }

    /// A composite holding the non-`nil` members of `disposables`.
    ///
    /// - Parameter disposables: The members, disposed of with the composite; `nil`s are skipped.
    public convenience init<S: Sequence>(_ disposables: S) where S.Element == Disposable? {
        self.init(disposables.lazy.compactMap { $0 })
    }

    /// Adds `disposable`; the returned handle removes it again without disposing of it.
    ///
    /// - Parameter disposable: The member to add; disposed of with the composite, or at once if the
    ///   composite has been disposed of.
    /// - Returns: `nil` if `disposable` is `nil` or the composite is already disposed of (in which
    ///   case `disposable` has just been disposed of).
    @discardableResult
    public final func add(_ disposable: Disposable?) -> Disposable? {
        guard let disposable else { return nil }
        let key: UInt64? = state.withLock { state in
            guard state.members != nil, state.nextKey & Self.endIsDeferredFlag == 0 else { return nil }
            let key = state.nextKey & Self.keyMask
            state.nextKey += 1
            state.members!.append((key, disposable))
            return key
        }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return MemberHandle(composite: self, key: key)
    }

    /// What `add` returns: removes its member from the composite without disposing of it. One
    /// allocation, where a closure in an `AnyDisposable` would take two.
    final class MemberHandle: Disposable, @unchecked Sendable {
        // @unchecked Sendable: `removedStorage` is never accessed after `init` but through
        // `removed`'s atomic operations, and the other stored properties are immutable and
        // `Sendable`.

        /// The memory of `removed`: the first stored property, never read or written directly
        /// after `init` (see AtomicWord.swift).
        var removedStorage = AtomicFlag.storage(false)
        private weak let composite: CompositeDisposable?
        private let key: UInt64
        private var removed: AtomicFlag { AtomicFlag(firstStoredPropertyOf: self) }

        init(composite: CompositeDisposable, key: UInt64) {
            self.composite = composite
            self.key = key
        }

        var isDisposed: Bool { removed.loadAcquiring() }

        func dispose() {
            guard !removed.exchangeAcquiringAndReleasing(true) else { return }
            composite?.remove(key)
        }
    }

    /// Adds an action to run when the composite is disposed of.
    ///
    /// - Parameter action: Run once, when the composite is disposed of (at once if it has been).
    /// - Returns: A disposable that removes the action without running it, or `nil` if the
    ///   composite had already been disposed of (the action has then run).
    @discardableResult
    public final func add(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        add(AnyDisposable(action))
    }

    /// Disposes of the members, the leading interruption first (see
    /// `disposeAfterLeadingInterruption()`). A producer start's `ProducerStart` overrides it to
    /// interrupt its output too.
    public func dispose() {
        _ = disposeAfterLeadingInterruption()
    }

    /// Makes `interruption` the first thing to run when this composite is disposed of, before every
    /// member, replacing the one set before (a producer start's fused chain is built from its
    /// output up, so the stage nearest the source sets it last). Only a producer start's resources
    /// accept one (`init(leadingWithInterruption:)`).
    ///
    /// - Parameter asynchronous: Whether the stage setting it delivers on a scheduler (and so
    ///   delivers the interruption there, whichever entry runs).
    /// - Returns: `false` if the composite does not accept one or is already disposed of; then
    ///   `interruption` is not kept and will not run.
    final func setLeadingInterruption(
        _ interruption: @escaping @Sendable () -> Bool,
        asynchronous: Bool
    ) -> Bool {
        let leading = LeadingInterruption(interruption)
        let replaced: Disposable?? = state.withLock { state in
            guard state.nextKey & Self.acceptsLeadingInterruptionFlag != 0, state.members != nil,
                state.nextKey & Self.endIsDeferredFlag == 0
            else { return .none }
            if asynchronous { state.nextKey |= Self.hasAsynchronousStageFlag }
            if state.members!.first?.key == Self.leadingKey {
                defer { state.members![0].disposable = leading }
                return .some(state.members![0].disposable)
            }
            state.members!.insert((Self.leadingKey, leading), at: 0)
            return .some(nil)
        }
        // The replaced interruption (and the stage it captures) is released here, after the lock.
        return replaced != nil
    }

    /// Whether this composite accepts a leading interruption (it is a producer start's resources).
    final var acceptsLeadingInterruption: Bool { isStartResources }

    /// Records that a stage delivering on a scheduler has received the interruption and will
    /// deliver it later (the stages below it wait for it).
    final func holdInterruption() {
        state.withLock { $0.nextKey |= Self.interruptionIsHeldFlag }
    }

    /// Whether a stage delivering on a scheduler has received the interruption.
    final var isInterruptionHeld: Bool {
        // No locked state yet: nothing has set the flag.
        guard stateWord.loadAcquiring() > Self.disposedWithoutState else { return false }
        return state.withLock { $0.nextKey & Self.interruptionIsHeldFlag != 0 }
    }

    /// Disposes of the composite: the leading interruption first, then the members in order.
    ///
    /// If the leading interruption was queued behind an event its source is delivering on this
    /// thread (`deferEnd`), the members wait: the next `dispose()`, which the start's output core
    /// or the source makes once the interruption has gone down the chain, disposes of them. The
    /// lifetime thus ends after the interruption has reached the observer, as in ReactiveSwift.
    ///
    /// - Returns: Whether the caller must interrupt the start's output itself: this call disposed
    ///   of the composite, and neither the leading interruption is on its way down the chain nor
    ///   a stage of the start delivers it on a scheduler.
    @usableFromInline
    final func disposeAfterLeadingInterruption() -> Bool {
        if stateWord.loadAcquiring() == 0 {
            // Nothing was ever added and no leading interruption set: no locked state to make.
            // The flag goes first; if another thread makes the state meanwhile, the locked path
            // below takes its members.
            disposed.storeReleasing(true)
            if stateWord.compareExchangeAcquiringAndReleasing(expected: 0, desired: Self.disposedWithoutState).exchanged {
                return true
            }
        }
        // No stage can join once `members` is `nil` or the end is deferred, so the flags are final.
        let (taken, flags) = state.withLock { state in
            defer {
                state.members = nil
                state.nextKey &= ~Self.endIsDeferredFlag
            }
            disposed.storeReleasing(true)
            return (state.members, state.nextKey)
        }
        guard let members = taken else { return false }
        if flags & Self.endIsDeferredFlag != 0 {
            // The deferred end: the interruption has come through.
            for (_, disposable) in members { disposable.dispose() }
            return false
        }
        var interruptionIsOnItsWay = false
        var index = members.startIndex
        if let (key, disposable) = members.first, key == Self.leadingKey, let leading = disposable as? LeadingInterruption {
            interruptionIsOnItsWay = leading.interrupt()
            index += 1
            let deferred: Bool = state.withLock { state in
                guard state.nextKey & Self.deferralRequestedFlag != 0 else { return false }
                state.nextKey &= ~Self.deferralRequestedFlag
                state.nextKey |= Self.endIsDeferredFlag
                state.members = Array(members[index...])
                return true
            }
            if deferred { return false }
        }
        while index < members.endIndex {
            members[index].disposable.dispose()
            index += 1
        }
        return !interruptionIsOnItsWay && flags & Self.hasAsynchronousStageFlag == 0
    }

    /// Called by the leading interruption while it runs: it has queued the interruption behind the
    /// event its source is delivering on this very thread, so the members must wait for the next
    /// `dispose()` instead of being disposed of now.
    ///
    /// Only a thread that holds the source's delivery turn calls this, and only that thread can
    /// deliver the queued interruption (after this disposal returns), so the deferred members are
    /// in place before anyone can ask for them.
    final func deferEnd() {
        state.withLock { $0.nextKey |= Self.deferralRequestedFlag }
    }

    /// A producer start's leading interruption, kept as the composite's first member.
    private final class LeadingInterruption: Disposable {
        let interrupt: @Sendable () -> Bool

        init(_ interrupt: @escaping @Sendable () -> Bool) {
            self.interrupt = interrupt
        }

        var isDisposed: Bool { false }

        func dispose() {
            _ = interrupt()
        }
    }

    private final func remove(_ key: UInt64) {
        // The removed member is returned so that its last release happens outside the lock.
        let removed: Disposable? = state.withLock { state in
            guard let index = state.members?.firstIndex(where: { $0.key == key }) else { return nil }
            return state.members!.remove(at: index).disposable
        }
        _ = removed
    }
}

/// The atomics of a `CompositeDisposable`, its first stored property: `startTurn`, `stateWord`
/// and `disposed`, in this order (`AtomicLayoutTests` checks the offsets).
@usableFromInline
struct CompositeAtomics {
    @usableFromInline var turn = AtomicWordStorage(0)
    @usableFromInline var state = AtomicWordStorage(0)
    @usableFromInline var disposed = AtomicFlagStorage(false)

    @usableFromInline
    init() {}

    /// The offset of `state`.
    @inlinable
    static var stateOffset: Int { MemoryLayout<AtomicWordStorage>.stride }

    /// The offset of `disposed`.
    @inlinable
    static var disposedOffset: Int { 2 * MemoryLayout<AtomicWordStorage>.stride }
}

extension CompositeDisposable {
    /// Adds `disposable` to `composite`; see `add(_:)`.
    ///
    /// - Parameters:
    ///   - composite: The composite to add to.
    ///   - disposable: The member to add.
    /// - Returns: A disposable that removes the member without disposing of it, or `nil`; see
    ///   `add(_:)`.
    @discardableResult
    public static func += (composite: CompositeDisposable, disposable: Disposable?) -> Disposable? {
        composite.add(disposable)
    }

    /// Adds `action` to `composite`; see `add(_:)`.
    ///
    /// - Parameters:
    ///   - composite: The composite to add to.
    ///   - action: Run once, when the composite is disposed of.
    /// - Returns: A disposable that removes the action without running it, or `nil`; see `add(_:)`.
    @discardableResult
    public static func += (composite: CompositeDisposable, action: @escaping @Sendable () -> Void) -> Disposable? {
        composite.add(action)
    }
}
