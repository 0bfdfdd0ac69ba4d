/// The lifetime of an object or of a stream: it ends once, and everything attached to it is
/// disposed of then.
///
/// Observe the end with `observeEnded(_:)`, or tie a disposable to it with `+=`. Attaching to a
/// lifetime that has already ended disposes of the attachment at once.
public final class Lifetime: Sendable {
    private let disposables: CompositeDisposable

    /// Whether the lifetime has ended.
    public var hasEnded: Bool { disposables.isDisposed }

    /// A lifetime that ends when `disposables` is disposed of.
    public init(_ disposables: CompositeDisposable) {
        self.disposables = disposables
    }

    /// A lifetime that ends when `token` is deinitialized (or disposed of).
    public convenience init(_ token: Token) {
        self.init(token.disposables)
    }

    /// Runs `action` when the lifetime ends, or at once if it has already ended.
    ///
    /// Observations run in the order they were added, on the thread that ends the lifetime.
    ///
    /// - Returns: A disposable that cancels the observation, or `nil` if the lifetime had ended.
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        disposables.add(action)
    }

    /// Disposes of `disposable` when `lifetime` ends.
    @discardableResult
    public static func += (lifetime: Lifetime, disposable: Disposable?) -> Disposable? {
        lifetime.disposables.add(disposable)
    }

    /// A new lifetime together with the token that ends it when the token deinitializes.
    public static func make() -> (lifetime: Lifetime, token: Token) {
        let token = Token()
        return (Lifetime(token), token)
    }

    /// A lifetime that has already ended.
    public static let empty: Lifetime = {
        let disposables = CompositeDisposable()
        disposables.dispose()
        return Lifetime(disposables)
    }()

    /// Ends its lifetime when deinitialized. Keep it in a property of the owning object.
    public final class Token: Sendable {
        fileprivate let disposables = CompositeDisposable()

        public init() {}

        /// Ends the lifetime now rather than at deinitialization.
        public func dispose() {
            disposables.dispose()
        }

        deinit {
            disposables.dispose()
        }
    }
}

extension Lifetime {
    /// A signal that completes when the lifetime ends (at once if it has already ended).
    ///
    /// If the signal is disposed of first (S4), its observation of the lifetime is removed.
    public var ended: Signal<Never, Never> {
        let observation = SerialDisposable()
        let (signal, input) = Signal<Never, Never>.pipe(disposable: observation)
        // The observation holds `input`, so the signal is not interrupted while it waits.
        observation.inner = observeEnded { input.sendCompleted() }
        return signal
    }
}
