extension Signal {
    /// Receives the events of a signal; also the input through which a signal's events are sent.
    ///
    /// An observer made from a closure runs that closure for each event, synchronously on the
    /// sending thread (E7). The input observer handed to a signal's generator (or returned by
    /// `pipe()`) forwards to that signal; when the last reference to it goes away, nobody can send
    /// any more, so the signal is interrupted. The observer handed to a producer's start handler
    /// does not do that: as in ReactiveSwift, the start goes on until it ends or is disposed of.
    public final class Observer: Rivulet.Observer<Value, Error> {

        /// The closure an observer runs for each event.
        public typealias Action = (Event) -> Void

        /// The observer's one word (an observer is 24 bytes): a retained reference, with its
        /// kind in the low bits, which are free since objects are 16-byte aligned. For an input
        /// observer, its signal's storage with `inputBit` set, and `interruptsBit` if releasing
        /// the observer interrupts the signal; otherwise an `ObserverAction` holding the closure.
        @usableFromInline let target: UInt

        /// Set in `target` for the input observer of a signal.
        @inlinable static var inputBit: UInt { 1 }
        /// Set in `target` for an input observer whose last release interrupts its signal.
        @inlinable static var interruptsBit: UInt { 2 }

        /// What `target` refers to, without its kind bits.
        @inlinable
        var targetPointer: UnsafeMutableRawPointer {
            UnsafeMutableRawPointer(bitPattern: target & ~(Self.inputBit | Self.interruptsBit)).unsafelyUnwrapped
        }

        /// What `send` runs, unless this is an input observer (which has no closure: a closure
        /// that does nothing).
        @inlinable
        var action: Action {
            guard target & Self.inputBit == 0 else { return { _ in } }
            return Unmanaged<ObserverAction<Value, Error>>.fromOpaque(targetPointer).takeUnretainedValue().action
        }

        /// The signal this is the input observer of, if it is one.
        @inlinable
        var inputOf: SignalCore<Value, Error>? {
            guard target & Self.inputBit != 0 else { return nil }
            return SignalCore(storage: Unmanaged.fromOpaque(targetPointer).takeUnretainedValue())
        }

        let liveObject = LiveObjectTracker<LiveObjectTag.Observer>()

        /// An observer that runs `action` for every event.
        ///
        /// - Parameter action: Called with each event sent to the observer, on the sending thread.
        @inlinable
        public init(_ action: @escaping @Sendable (Event) -> Void) {
            target = ObserverAction.retainedBits(action)
            super.init()
        }

        /// An observer that runs the given closures for the matching events.
        ///
        /// - Parameters:
        ///   - value: Called with each value.
        ///   - failed: Called with the error of a failure.
        ///   - completed: Called on completion.
        ///   - interrupted: Called on interruption.
        @inlinable
        public convenience init(
            value: (@Sendable (Value) -> Void)? = nil,
            failed: (@Sendable (Error) -> Void)? = nil,
            completed: (@Sendable () -> Void)? = nil,
            interrupted: (@Sendable () -> Void)? = nil
        ) {
            self.init(
                relaying: { event in
                    switch event {
                    case let .value(v): value?(v)
                    case let .failed(error): failed?(error)
                    case .completed: completed?()
                    case .interrupted: interrupted?()
                    }
                }, ())
        }

        /// An observer for Rivulet's own stages, whose closures the stage's delivery turn already
        /// confines (the public initialiser gets the same guarantee from `sending`). The second
        /// parameter keeps a trailing closure from choosing this initialiser.
        @inlinable
        init(relaying action: @escaping Action, _: Void) {
            target = ObserverAction.retainedBits(action)
            super.init()
        }

        /// An observer that runs `action` for each value only. Its closure captures one closure,
        /// not four optional ones: an observer made by `observeValues` costs 64 fewer bytes.
        @inlinable
        static func values(_ action: @escaping (Value) -> Void) -> Observer {
            Observer(relaying: { event in if case let .value(value) = event { action(value) } }, ())
        }

        /// An observer that runs `action` with `.success` for each value and `.failure` for a
        /// failure.
        @inlinable
        static func results(_ action: @escaping (Result<Value, Error>) -> Void) -> Observer {
            Observer(relaying: Event.forwardingResults(to: action), ())
        }

        /// The input observer of a signal. Unless the core was made for a producer's start, the
        /// last reference to it going away interrupts the signal, since nobody can send any more.
        @inlinable
        init(core: SignalCore<Value, Error>) {
            // The flag lives in the core (set once, when it is made) and is copied here, so that a
            // release that does not interrupt reads nothing but this word.
            let interrupts = core.interruptsWhenInputIsReleased
            target =
                UInt(bitPattern: Unmanaged.passRetained(core.storage).toOpaque()) | Self.inputBit
                | (interrupts ? Self.interruptsBit : 0)
            super.init()
            // The code the deinit runs to interrupt the signal was registered by the `Signal`
            // made with this observer (`pipe()`, `Signal.init`), where the types are known: the
            // deinit of a generic class is never specialised (see `SpecializedTeardown`).
        }

        deinit {
            // Nothing here names a type made of `Value` and `Error`: LLVM would hoist the look-up
            // of its metadata to the top, and every release would pay for it.
            let bits = target
            if bits & Self.inputBit == 0 {
                Unmanaged<AnyObject>.fromOpaque(targetPointer).release()
                return
            }
            if bits & Self.interruptsBit != 0 {
                if let slot = SpecializedTeardown.slot(for: SpecializedTeardown.key(ofStorage: targetPointer)) {
                    slot.pointee.code.unsafelyUnwrapped.interrupt(targetPointer)
                } else {
                    Self.interruptGenerically(targetPointer)
                }
            }
            Unmanaged<AnyObject>.fromOpaque(targetPointer).release()
        }

        /// Interrupts the signal whose storage is `storage`, for a pair of types that found no
        /// slot in `SpecializedTeardown`: through generic code, out of line (see `deinit`).
        @usableFromInline @inline(never)
        static func interruptGenerically(_ storage: UnsafeMutableRawPointer) {
            SignalCore<Value, Error>(storage: Unmanaged.fromOpaque(storage).takeUnretainedValue()).send(.interrupted)
        }

        /// Sends `event`: runs the observer's closure, or delivers it on the observer's signal.
        ///
        /// - Parameter event: The event to send; nothing follows a terminal event (E1).
        @inlinable
        public func send(_ event: Event) {
            // Both references are borrowed from `target`, which holds them (no retain per send).
            if target & Self.inputBit != 0 {
                Unmanaged<SignalStorage<Value, Error>>.fromOpaque(targetPointer)._withUnsafeGuaranteedRef {
                    SignalCore(storage: $0).send(event)
                }
            } else {
                Unmanaged<ObserverAction<Value, Error>>.fromOpaque(targetPointer)._withUnsafeGuaranteedRef {
                    $0.action(event)
                }
            }
        }

        /// A closure that sends into this observer, for operator stages. For an input observer it
        /// goes straight to the signal's core and keeps the observer alive (so the signal is
        /// interrupted only when the closure is released, as with `send`).
        ///
        /// The event is rebuilt case by case rather than passed on whole: a stage stores the event
        /// it hands over field by field, and loading it back in one piece defeats the processor's
        /// store forwarding (see Docs/Performance.md).
        @inlinable
        var sink: (Event) -> Void {
            guard let core = inputOf else { return action }
            return { event in
                withExtendedLifetime(self) {
                    switch event {
                    case let .value(value): core.send(.value(value))
                    case let .failed(error): core.send(.failed(error))
                    case .completed: core.send(.completed)
                    case .interrupted: core.send(.interrupted)
                    }
                }
            }
        }

        /// Sends `value`, as `send(value:)` does.
        ///
        /// - Parameter value: The value to send.
        @inlinable
        public override func receive(_ value: Value) {
            send(.value(value))
        }

        /// Sends the terminal event that `termination` stands for.
        ///
        /// - Parameter termination: How the stream ends.
        @inlinable
        public override func terminate(_ termination: Termination<Error>) {
            switch termination {
            case let .failed(error): send(.failed(error))
            case .completed: send(.completed)
            case .interrupted: send(.interrupted)
            }
        }

        /// Sends a value.
        ///
        /// - Parameter value: The value to send; ignored after a terminal event (E1).
        @inlinable
        public func send(value: Value) {
            send(.value(value))
        }

        /// Sends a failure, ending the stream.
        ///
        /// - Parameter error: The error the stream fails with.
        @inlinable
        public func send(error: Error) {
            send(.failed(error))
        }

        /// Sends completion, ending the stream.
        @inlinable
        public func sendCompleted() {
            send(.completed)
        }

        /// Sends interruption, ending the stream.
        @inlinable
        public func sendInterrupted() {
            send(.interrupted)
        }
    }
}

/// The closure of an observer that is not an input observer, kept by `Signal.Observer.target`.
@usableFromInline
final class ObserverAction<Value, Error: Swift.Error> {
    /// A `let`, so that `send` calls it without retaining its context.
    @usableFromInline let action: Signal<Value, Error>.Observer.Action

    @inlinable
    init(_ action: @escaping Signal<Value, Error>.Observer.Action) {
        self.action = action
    }

    /// A new `ObserverAction` for `action`, retained, as `Signal.Observer.target` keeps it.
    @inlinable
    static func retainedBits(_ action: @escaping Signal<Value, Error>.Observer.Action) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(ObserverAction(action)).toOpaque())
    }
}

// @unchecked Sendable: an input observer sends through its core, which is thread-safe (its turn
// word and lock, `SignalStorage`). Any other action is invoked by a signal only while that thread
// holds the signal's delivery turn (claimed through the same turn word), so never concurrently;
// calling `send` on it from several threads at once is the caller's race, exactly as for calling
// the closure itself. Only where the values are `Sendable`: otherwise the compiler keeps the
// instance, its values and its closures in one isolation region.
extension Signal.Observer: @unchecked Sendable where Value: Sendable {}

extension Signal.Event {
    /// An event closure that runs `action` with `.success` for each value and `.failure` for a
    /// failure, and ignores completion and interruption (`observeResult`, `startWithResult`).
    @inlinable
    static func forwardingResults(to action: @escaping (Result<Value, Error>) -> Void) -> (Signal.Event) -> Void {
        { event in
            switch event {
            case let .value(value): action(.success(value))
            case let .failed(error): action(.failure(error))
            case .completed, .interrupted: break
            }
        }
    }
}
