/// A disposable that holds one inner disposable at a time.
///
/// Setting `inner` disposes of the previous inner disposable. Once the serial disposable is
/// disposed of, it disposes of its inner disposable, and any later assignment is disposed of at once.
public final class SerialDisposable: Disposable {
    private struct State {
        var inner: Disposable?
        var isDisposed = false
    }

    private let state: Locked<State>

    /// Whether the serial disposable itself has been disposed of.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// The current inner disposable. Assigning disposes of the one it replaces; assigning the
    /// current inner again changes nothing.
    public var inner: Disposable? {
        get { state.withLock { $0.inner } }
        set {
            let (replaced, rejected): (Disposable?, Disposable?) = state.withLock { state in
                if state.isDisposed { return (nil, newValue) }
                // Re-assigning the current inner keeps it: nothing is replaced.
                if let newValue, newValue === state.inner { return (nil, nil) }
                defer { state.inner = newValue }
                return (state.inner, nil)
            }
            replaced?.dispose()
            rejected?.dispose()
        }
    }

    /// A serial disposable whose first inner disposable is `disposable`.
    ///
    /// - Parameter disposable: The first inner disposable, if any.
    public init(_ disposable: Disposable? = nil) {
        state = Locked(State(inner: disposable))
    }

    /// Disposes of the current inner disposable, and of every one assigned afterwards as soon as
    /// it is assigned. Calling it again has no effect.
    public func dispose() {
        let inner: Disposable? = state.withLock { state in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.inner = nil }
            return state.inner
        }
        inner?.dispose()
    }
}
