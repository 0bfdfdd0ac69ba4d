/// The lifetime of an object or of a stream: it ends once, and everything attached to it is
/// disposed of then.
///
/// Observe the end with `observeEnded(_:)`, or tie a disposable to it with `+=`. Attaching to a
/// lifetime that has already ended disposes of the attachment at once.
public final class Lifetime: Sendable {
    @usableFromInline let disposables: CompositeDisposable

    /// Whether the lifetime has ended.
    @inlinable
    public var hasEnded: Bool { disposables.isDisposed }

    /// A lifetime that ends when `disposables` is disposed of.
    ///
    /// - Parameter disposables: The composite whose disposal ends the lifetime.
    public init(_ disposables: CompositeDisposable) {
        self.disposables = disposables
    }

    /// A lifetime that ends when `token` is deinitialized (or disposed of).
    ///
    /// - Parameter token: The token whose deinitialization or disposal ends the lifetime; not
    ///   retained.
    public convenience init(_ token: Token) {
        self.init(token.disposables)
    }

    /// Runs `action` when the lifetime ends, or at once if it has already ended.
    ///
    /// Observations run in the order they were added, on the thread that ends the lifetime.
    ///
    /// - Parameter action: Run once when the lifetime ends, on the thread that ends it.
    /// - Returns: A disposable that cancels the observation, or `nil` if the lifetime had ended.
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        disposables.add(action)
    }

    /// Disposes of `disposable` when `lifetime` ends.
    ///
    /// - Parameters:
    ///   - lifetime: The lifetime whose end disposes of `disposable`.
    ///   - disposable: The disposable; disposed of at once if the lifetime has ended.
    /// - Returns: A disposable that removes `disposable` without disposing of it, or `nil` if the
    ///   lifetime had ended or `disposable` is `nil`.
    @discardableResult
    public static func += (lifetime: Lifetime, disposable: Disposable?) -> Disposable? {
        lifetime.disposables.add(disposable)
    }

    /// Makes `interruption` where a disposal of this producer start interrupts its fused chain:
    /// it runs first when the lifetime ends, before everything observing the end (issue 16).
    ///
    /// Every source or stage that can send an event into the chain serially sets it, as the chain
    /// is built from its output up; the last one set (the one nearest the source) is the one that
    /// runs, and the interruption flows down from there through every stage, as in ReactiveSwift.
    ///
    /// - Returns: `false` if this is not a producer start's lifetime (a signal's, a token's, an
    ///   inner stream's) or it has already ended; `interruption` will then never run.
    ///
    /// `interruption` returns whether the interruption is on its way down the chain (`false` when
    /// its source has already ended, so that nothing will come from there). A stage that delivers
    /// on a scheduler passes `asynchronous`: when the start is disposed of it delivers
    /// `interrupted` there itself. Otherwise, if nothing is on its way, the start's output is
    /// interrupted directly.
    @usableFromInline
    func setInterruptionEntry(
        asynchronous: Bool = false,
        _ interruption: @escaping @Sendable () -> Bool
    ) -> Bool {
        disposables.setLeadingInterruption(interruption, asynchronous: asynchronous)
    }

    /// Whether this is a producer start's lifetime (whose disposal interrupts its fused chain).
    @usableFromInline
    var isProducerStart: Bool { disposables.acceptsLeadingInterruption }

    /// A stage that delivers on a scheduler has received the interruption of this producer start
    /// and will deliver it there: the stages below wait for it instead of ending at once.
    @usableFromInline
    func holdInterruption() {
        disposables.holdInterruption()
    }

    /// Called by an interruption entry that has queued the interruption behind the event its
    /// source is delivering on this thread: the rest of the lifetime ends once the interruption
    /// has come down the chain (the start's output ends it, or the entry calls `endDeferred()`),
    /// as ReactiveSwift ends a start's lifetime after its terminal event reached the observers.
    @usableFromInline
    func deferEnd() {
        disposables.deferEnd()
    }

    /// Ends what `deferEnd()` left waiting (nothing if the start's output has already done so).
    @usableFromInline
    func endDeferred() {
        // Not `dispose()`: a `ProducerStart` overrides that to do nothing once its output has
        // ended, and here the output may well have ended before the interruption came through.
        _ = disposables.disposeAfterLeadingInterruption()
    }

    /// Whether a stage that delivers on a scheduler holds this start's interruption.
    @usableFromInline
    var isInterruptionHeld: Bool { disposables.isInterruptionHeld }

    /// A new lifetime together with the token that ends it when the token deinitializes.
    ///
    /// - Returns: The lifetime and its token; keep the token in the owning object.
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

        /// A token whose lifetime (`Lifetime.init(_:)`) is alive until the token is disposed
        /// of or deinitialized.
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
