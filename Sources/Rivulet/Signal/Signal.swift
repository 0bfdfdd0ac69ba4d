/// A hot stream of events: values over time, then at most one terminal event.
///
/// A signal is already running when you get it: its generator ran at creation (S1). Observing it
/// has no side effects (S2): every observer sees the same events in the same order from the
/// moment it attaches (S3). Events are delivered one at a time whatever threads send them (E5),
/// synchronously on the sending thread (E7); a value sent from inside an observer is queued and
/// delivered right after the current event, never recursively and never deadlocking (E6).
///
/// A signal lives while it is reachable or observed; when neither, it stops silently and disposes
/// of its resources (S4). A terminal event releases the observers and disposes of the resources (S5).
public final class Signal<Value, Error: Swift.Error> {
    @usableFromInline let core: SignalCore<Value, Error>

    /// Creates a signal and runs `generator` at once (S1) with the signal's input observer and
    /// the lifetime of its resources, which ends when the signal terminates or is disposed of.
    ///
    /// Events sent before `init` returns reach no observer: none can be attached yet.
    ///
    /// - Parameter generator: Run once, now, on the calling thread, with the signal's input
    ///   observer and lifetime.
    public init(_ generator: (sending Observer, Lifetime) -> Void) {
        let resources = CompositeDisposable()
        core = SignalCore(resources: resources)
        core.registerTeardownCode()
        generator(Observer(core: core), Lifetime(resources))
    }

    deinit {
        // The deinit of a generic class is never specialised: the signal is told it is
        // unreachable through code registered where its types were known (see
        // `SpecializedTeardown`). Nothing here names a type made of `Value` and `Error`: LLVM
        // would hoist the look-up of its metadata to the top.
        let storage = Unmanaged.passUnretained(core.storage).toOpaque()
        if let slot = SpecializedTeardown.slot(for: SpecializedTeardown.key(ofStorage: storage)) {
            slot.pointee.code.unsafelyUnwrapped.abandon(storage)
        } else {
            Self.abandonGenerically(storage)
        }
    }

    /// Tells the signal whose storage is `storage` that its `Signal` object is gone, for a pair of
    /// types that found no slot in `SpecializedTeardown`: through generic code, out of line.
    @usableFromInline @inline(never)
    static func abandonGenerically(_ storage: UnsafeMutableRawPointer) {
        SignalCore<Value, Error>(storage: Unmanaged.fromOpaque(storage).takeUnretainedValue()).signalDidDeinitialize()
    }

    /// A signal together with its input observer.
    ///
    /// - Parameters:
    ///   - disposable: Disposed of when the signal terminates or is disposed of.
    ///
    /// - Returns: The signal (`output`) and the observer that sends into it (`input`).
    public static func pipe(disposable: Disposable? = nil) -> (output: Signal, input: Observer) {
        // No lifetime object: the disposable itself is the signal's resources.
        let core = SignalCore<Value, Error>(resources: disposable)
        return (Signal(core: core), Observer(core: core))
    }

    @inlinable
    init(core: SignalCore<Value, Error>) {
        self.core = core
        core.registerTeardownCode()
    }

    /// A signal that never sends any event.
    public static var never: Signal {
        Signal { input, lifetime in
            // The resources keep the input alive, so the signal is not interrupted when the
            // generator returns; they are released when the signal is disposed of (S4).
            // The closure only retains the input and never sends on it, so the input reaches no
            // other thread through it.
            let retained = UncheckedTransfer(input)
            lifetime += AnyDisposable { _ = retained }
        }
    }

    /// A signal that has already completed: observing it yields `interrupted` (S3).
    public static var empty: Signal {
        let (signal, input) = pipe()
        input.sendCompleted()
        return signal
    }
}

// Sendable only where the values are: a signal of non-Sendable values stays in one isolation
// region, so its values never reach another thread. The stored core is thread-safe.
extension Signal: Sendable where Value: Sendable {}
