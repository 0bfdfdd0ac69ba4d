import Synchronization

/// A disposable that disposes of a group of disposables together.
///
/// Adding to a composite that is already disposed of disposes of the addition at once.
/// Members are disposed of in the order they were added, outside the internal lock.
public final class CompositeDisposable: Disposable {
    private struct State {
        /// `nil` once the composite is disposed of.
        var members: [(key: UInt64, disposable: Disposable)]? = []
        var nextKey: UInt64 = 0
    }

    private let state: Locked<State>
    /// Mirrors `state.members == nil` so that `isDisposed` (which producers check before every
    /// element of a sequence) costs one atomic load instead of a lock round-trip.
    private let disposed = Synchronization.Atomic<Bool>(false)

    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// An empty composite.
    public init() {
        state = Locked(State())
    }

    /// A composite holding `disposables`.
    public convenience init<S: Sequence>(_ disposables: S) where S.Element == Disposable {
        self.init()
        for disposable in disposables { add(disposable) }
    }

    /// A composite holding the non-`nil` members of `disposables`.
    public convenience init<S: Sequence>(_ disposables: S) where S.Element == Disposable? {
        self.init(disposables.lazy.compactMap { $0 })
    }

    /// Adds `disposable`; the returned handle removes it again without disposing of it.
    ///
    /// - Returns: `nil` if `disposable` is `nil` or the composite is already disposed of (in which
    ///   case `disposable` has just been disposed of).
    @discardableResult
    public func add(_ disposable: Disposable?) -> Disposable? {
        guard let disposable else { return nil }
        let key: UInt64? = state.withLock { state in
            guard state.members != nil else { return nil }
            let key = state.nextKey
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
    private final class MemberHandle: Disposable {
        private weak let composite: CompositeDisposable?
        private let key: UInt64
        private let removed = Synchronization.Atomic<Bool>(false)

        init(composite: CompositeDisposable, key: UInt64) {
            self.composite = composite
            self.key = key
        }

        var isDisposed: Bool { removed.load(ordering: .acquiring) }

        func dispose() {
            guard !removed.exchange(true, ordering: .acquiringAndReleasing) else { return }
            composite?.remove(key)
        }
    }

    /// Adds an action to run when the composite is disposed of.
    @discardableResult
    public func add(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        add(AnyDisposable(action))
    }

    public func dispose() {
        let members = state.withLock { state in
            defer { state.members = nil }
            disposed.store(true, ordering: .releasing)
            return state.members
        }
        members?.forEach { $0.disposable.dispose() }
    }

    private func remove(_ key: UInt64) {
        // The removed member is returned so that its last release happens outside the lock.
        let removed: Disposable? = state.withLock { state in
            guard let index = state.members?.firstIndex(where: { $0.key == key }) else { return nil }
            return state.members!.remove(at: index).disposable
        }
        _ = removed
    }
}

extension CompositeDisposable {
    /// Adds `disposable` to `composite`; see `add(_:)`.
    @discardableResult
    public static func += (composite: CompositeDisposable, disposable: Disposable?) -> Disposable? {
        composite.add(disposable)
    }

    /// Adds `action` to `composite`; see `add(_:)`.
    @discardableResult
    public static func += (composite: CompositeDisposable, action: @escaping @Sendable () -> Void) -> Disposable? {
        composite.add(action)
    }
}
