/// A disposable that disposes of its inner disposable when it is deinitialized.
///
/// Keep one in a property to tie a subscription to the owner's lifetime.
public final class ScopedDisposable<Inner: Disposable>: Disposable {
    /// The disposable to dispose of on deinitialization.
    public let inner: Inner

    /// Whether the inner disposable has been disposed of.
    public var isDisposed: Bool { inner.isDisposed }

    /// Wraps `disposable`, to be disposed of when this object deinitializes.
    ///
    /// - Parameter disposable: The disposable to dispose of on deinitialization.
    public init(_ disposable: Inner) {
        inner = disposable
    }

    deinit {
        inner.dispose()
    }

    /// Disposes of the inner disposable now, before deinitialization.
    public func dispose() {
        inner.dispose()
    }
}

extension ScopedDisposable where Inner == AnyDisposable {
    /// Wraps any disposable, to be disposed of when this object deinitializes.
    ///
    /// - Parameter disposable: The disposable to dispose of on deinitialization.
    public convenience init(_ disposable: Disposable) {
        self.init(AnyDisposable(disposable))
    }
}

extension ScopedDisposable where Inner == CompositeDisposable {
    /// Adds `disposable` to the inner composite; see `CompositeDisposable.add(_:)`.
    ///
    /// - Parameters:
    ///   - scoped: The scoped composite to add to.
    ///   - disposable: The member to add.
    /// - Returns: A disposable that removes the member without disposing of it, or `nil`; see
    ///   `CompositeDisposable.add(_:)`.
    @discardableResult
    public static func += (scoped: ScopedDisposable<CompositeDisposable>, disposable: Disposable?) -> Disposable? {
        scoped.inner.add(disposable)
    }

    /// Adds `action` to the inner composite; see `CompositeDisposable.add(_:)`.
    ///
    /// - Parameters:
    ///   - scoped: The scoped composite to add to.
    ///   - action: Run once, when the composite is disposed of.
    /// - Returns: A disposable that removes the action without running it, or `nil`; see
    ///   `CompositeDisposable.add(_:)`.
    @discardableResult
    public static func += (scoped: ScopedDisposable<CompositeDisposable>, action: @escaping @Sendable () -> Void) -> Disposable? {
        scoped.inner.add(action)
    }
}

extension ScopedDisposable where Inner == SerialDisposable {
    /// The inner serial disposable's current disposable. Setting it disposes of the one it held,
    /// as `SerialDisposable.inner` does.
    public var inner: Disposable? {
        get { inner.inner }
        set { inner.inner = newValue }
    }
}
