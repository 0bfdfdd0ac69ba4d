import Synchronization

// MARK: - The flattening stage (one implementation for signals and producers)

/// An input of a flattening: an event of the outer stream, or of inner stream `id`.
@usableFromInline
enum FlattenInput<Outer, Value, Error: Swift.Error> {
    case outer(Signal<Outer, Error>.Event)
    case inner(FlattenInnerID, Signal<Value, Error>.Event)
}

/// Runs one flattening: the outer stream and every inner stream send into one `SerialInbox`, so
/// the state machine sees one input at a time whatever threads send (E5), and no lock is held
/// while user closures run or events go downstream (O7). Inner streams are started after the
/// inbox's turn, by the thread that decided to start them (`FlattenPendingStarts`).
///
/// Each inner stream runs with its own lifetime, ended when the inner stream ends, is replaced or
/// loses a race, or when the flattened stream ends (P4).
@usableFromInline
final class FlattenRun<Outer, Value, Error: Swift.Error> {
    @usableFromInline typealias Input = FlattenInput<Outer, Value, Error>
    @usableFromInline typealias Inner = SignalProducer<Value, Error>

    // `machine` and `running` are touched only by the inbox's handler, one input at a time: the
    // inbox excludes overlapping access, so the runtime's exclusivity checks are turned off.
    @exclusivity(unchecked) @usableFromInline var machine: FlattenStateMachine<Inner>
    /// The lifetimes of the running inner streams, and their handles in the flattened lifetime.
    @exclusivity(unchecked) @usableFromInline var running = FlattenInnerMap<(disposables: CompositeDisposable, handle: Disposable?)>()
    @usableFromInline let downstream: EventSink<Value, Error>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let makeInner: (Outer) -> Inner
    @usableFromInline var inbox: SerialInbox<Input>?
    @usableFromInline let pendingStarts: FlattenPendingStarts

    @inlinable
    init(
        _ strategy: FlattenStrategy,
        _ downstream: @escaping EventSink<Value, Error>,
        _ lifetime: Lifetime,
        _ makeInner: @escaping (Outer) -> Inner
    ) {
        machine = FlattenStateMachine(strategy.kind)
        pendingStarts = FlattenPendingStarts()
        self.downstream = downstream
        self.lifetime = lifetime
        self.makeInner = makeInner
    }

    /// Starts a flattening that sends into `downstream`, and returns the sink for the outer stream.
    ///
    /// The inbox holds the run (and so the user's closure) until the flattened stream ends or
    /// `lifetime` ends; then it is closed and lets everything go.
    @inlinable
    static func start(
        _ strategy: FlattenStrategy,
        downstream: @escaping EventSink<Value, Error>,
        lifetime: Lifetime,
        makeInner: @escaping (Outer) -> Inner
    ) -> EventSink<Outer, Error> {
        let run = FlattenRun(strategy, downstream, lifetime, makeInner)
        let inbox = SerialInbox<Input> { input in run.handle(input) }
        run.inbox = inbox
        lifetime.observeEnded { inbox.close() }
        let pendingStarts = run.pendingStarts
        return { event in
            inbox.send(.outer(event))
            pendingStarts.runAll()
        }
    }

    @inlinable func handle(_ input: Input) {
        switch input {
        case .outer where !machine.acceptsOuter:
            // After the flattened stream's end, or after the outer stream's own terminal event (E1).
            return
        case let .outer(.value(outer)):
            perform(machine.outerValue(makeInner(outer)))
        case .outer(.completed):
            perform(machine.outerCompleted())
        case let .outer(.failed(error)):
            if machine.terminate() { finish(.failed(error)) }
        case .outer(.interrupted):
            if machine.terminate() { finish(.interrupted) }
        case let .inner(id, .value(value)):
            let actions = machine.innerValue(id)
            perform(actions, value: value)
        case let .inner(id, .failed(error)):
            release(id)
            if machine.innerFailed(id) { finish(.failed(error)) }
        case let .inner(id, .completed):
            release(id)
            perform(machine.innerCompleted(id))
        case let .inner(id, .interrupted):
            release(id)
            perform(machine.innerInterrupted(id))
        }
    }

    @inlinable func perform(_ actions: FlattenStateMachine<Inner>.Actions, value: Value? = nil) {
        actions.cancel.forEach { release($0) }
        if actions.forwardValue, let value { downstream(.value(value)) }
        if let (id, inner) = actions.start { start(inner, id: id) }
        if actions.complete { finish(.completed) }
    }

    /// Gives inner stream `id` its lifetime now, and has it started once this thread has left
    /// the inbox (see `FlattenPendingStarts`).
    @inlinable func start(_ inner: Inner, id: FlattenInnerID) {
        guard let inbox else { return }
        // A lifetime over a plain composite, itself a member of the flattened lifetime: three
        // allocations, where a `Lifetime.make()` token wrapped in an `AnyDisposable` took six.
        let innerDisposables = CompositeDisposable()
        let innerLifetime = Lifetime(innerDisposables)
        let handle = lifetime += innerDisposables
        running.append(id, (innerDisposables, handle))
        let pendingStarts = self.pendingStarts
        pendingStarts.add {
            // The flattened stream may have ended, or replaced this inner stream, meanwhile.
            guard !innerLifetime.hasEnded else { return }
            inner.startInstance({ event in
                inbox.send(.inner(id, event))
                pendingStarts.runAll()
            }, innerLifetime)
        }
    }

    /// Ends inner stream `id`'s lifetime, disposing of its work, and forgets it.
    @inlinable func release(_ id: FlattenInnerID) {
        guard let entry = running.remove(id) else { return }
        entry.handle?.dispose()
        entry.disposables.dispose()
    }

    @inlinable func finish(_ event: Signal<Value, Error>.Event) {
        downstream(event)
        // Sending a terminal event ends `lifetime`, which disposes of every inner stream. Close
        // the inbox in any case, so that the run and the user's closures are let go.
        inbox?.close()
    }
}

/// The inner streams a flattening has decided to start, started by the deciding thread once it
/// has left the inbox: every send into the inbox is followed by `runAll()`.
///
/// An inner stream started while the inbox's turn is held would have everything it sends
/// synchronously queued until its start returns: its values would reach downstream only after
/// it has finished, and nothing downstream (say `take(first:)`) could stop it, even if it never
/// ends. Started outside the turn, it delivers each value as it sends it (E7) and stops as soon
/// as the result is disposed of (P4).
@usableFromInline
final class FlattenPendingStarts {
    @usableFromInline
    struct State {
        @usableFromInline var starts = FIFOQueue<() -> Void>()
        /// Threads inside `runAll`: a nested call leaves its work to the loop below it, so that a
        /// chain of synchronous inner streams (`.concat`) starts iteratively, never recursively.
        @usableFromInline var runners: [ThreadID] = []

        @inlinable
        init() {}
    }

    // Both guard `State`; `count` lets every send skip the lock when nothing waits.
    @usableFromInline let state = Locked(State())
    @usableFromInline let count = Atomic<Int>(0)

    @inlinable
    init() {}

    /// Queues `start`; the caller runs `runAll()` after leaving the inbox.
    @inlinable
    func add(_ start: @escaping () -> Void) {
        state.withLock { $0.starts.append(start) }
        count.wrappingAdd(1, ordering: .releasing)
    }

    /// Runs the queued starts in order, unless this thread is already running them further up.
    @inlinable
    func runAll() {
        guard count.load(ordering: .acquiring) > 0 else { return }
        let thread = ThreadID.current
        let isNewRunner = state.withLock { state -> Bool in
            if state.runners.contains(thread) { return false }
            state.runners.append(thread)
            return true
        }
        guard isNewRunner else { return }
        while let start = next(on: thread) {
            start()
        }
    }

    @inlinable func next(on thread: ThreadID) -> (() -> Void)? {
        let start = state.withLock { state -> (() -> Void)? in
            if let start = state.starts.popFirst() { return start }
            state.runners.removeAll { $0 == thread }
            return nil
        }
        if start != nil { count.wrappingSubtract(1, ordering: .relaxed) }
        return start
    }
}

/// The flattening stage behind every `flatten` and `flatMap` overload.
@inlinable
func flattenStage<Outer, OuterError, Value, Error>(
    _ strategy: FlattenStrategy,
    promotingOuter promote: @escaping (OuterError) -> Error,
    _ makeInner: @escaping (Outer) -> SignalProducer<Value, Error>
) -> EventTransform<Outer, OuterError, Value, Error> {
    { downstream, lifetime in
        let sink = FlattenRun.start(strategy, downstream: downstream, lifetime: lifetime, makeInner: makeInner)
        return { event in sink(event.mapError(promote)) }
    }
}

/// The flattening stage for an outer stream whose error type is the flattened one.
@inlinable
func flattenStage<Outer, Value, Error>(
    _ strategy: FlattenStrategy,
    _ makeInner: @escaping (Outer) -> SignalProducer<Value, Error>
) -> EventTransform<Outer, Error, Value, Error> {
    { downstream, lifetime in
        FlattenRun.start(strategy, downstream: downstream, lifetime: lifetime, makeInner: makeInner)
    }
}

/// Turns an impossible failure into any error type.
@inlinable
func flattenNever<E>(_ never: Never) -> E {}

extension SignalProducer where Error == Never {
    /// This producer, typed as able to fail with `F` (it never does).
    @inlinable
    func flattenPromoted<F>(_: F.Type = F.self) -> SignalProducer<Value, F> {
        .fused({ downstream, lifetime in
            self.startInstance({ event in downstream(event.mapError(flattenNever)) }, lifetime)
        })
    }
}

// MARK: - flatten

extension Signal where Value: SignalProducerConvertible, Error == Value.Error {
    /// A signal of the values of the inner streams this signal sends, combined by `strategy`.
    ///
    /// A failure of this signal or of a running inner stream fails the result at once (E2).
    /// An interrupted inner stream is treated as completed.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Error> {
        flatMapEvent(flattenStage(strategy) { $0.producer })
    }
}

extension Signal where Value: SignalProducerConvertible, Error == Never {
    /// A signal of the values of the inner streams this signal sends, combined by `strategy`.
    ///
    /// A failure of a running inner stream fails the result at once (E2).
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Value.Error> {
        flatMapEvent(flattenStage(strategy, promotingOuter: flattenNever) { $0.producer })
    }
}

extension Signal where Value: SignalProducerConvertible, Error == Never, Value.Error == Never {
    /// A signal of the values of the inner streams this signal sends, combined by `strategy`.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Never> {
        flatMapEvent(flattenStage(strategy) { $0.producer })
    }
}

extension Signal where Value: SignalProducerConvertible, Value.Error == Never {
    /// A signal of the values of the inner streams this signal sends, combined by `strategy`.
    ///
    /// A failure of this signal fails the result at once (E2).
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Error> {
        flatMapEvent(flattenStage(strategy) { $0.producer.flattenPromoted() })
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Error == Value.Error {
    /// A producer of the values of the inner streams this producer sends, combined by `strategy`.
    ///
    /// A failure of this producer or of a running inner stream fails the result at once (E2).
    /// An interrupted inner stream is treated as completed.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Error> {
        flatMapEvent(flattenStage(strategy) { $0.producer })
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Error == Never {
    /// A producer of the values of the inner streams this producer sends, combined by `strategy`.
    ///
    /// A failure of a running inner stream fails the result at once (E2).
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Value.Error> {
        flatMapEvent(flattenStage(strategy, promotingOuter: flattenNever) { $0.producer })
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Error == Never, Value.Error == Never {
    /// A producer of the values of the inner streams this producer sends, combined by `strategy`.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Never> {
        flatMapEvent(flattenStage(strategy) { $0.producer })
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Value.Error == Never {
    /// A producer of the values of the inner streams this producer sends, combined by `strategy`.
    ///
    /// A failure of this producer fails the result at once (E2).
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Error> {
        flatMapEvent(flattenStage(strategy) { $0.producer.flattenPromoted() })
    }
}

// MARK: - flatMap

extension Signal {
    /// Maps each value to a producer and flattens the producers by `strategy`.
    ///
    /// `transform` runs for every value, as it arrives, even if `strategy` then ignores or
    /// queues the producer. A failure of this signal or of a running inner producer fails the
    /// result at once (E2).
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> SignalProducer<U, Error>
    ) -> Signal<U, Error> {
        flatMapEvent(flattenStage(strategy, transform))
    }

    /// Maps each value to a stream (signal, producer, property, …) and flattens the streams by
    /// `strategy`; see `flatMap(_:_:)`.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Error> where Inner.Error == Error {
        flatMapEvent(flattenStage(strategy) { transform($0).producer })
    }

    /// Maps each value to a producer that cannot fail and flattens the producers by `strategy`.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> SignalProducer<U, Never>
    ) -> Signal<U, Error> {
        flatMapEvent(flattenStage(strategy) { transform($0).flattenPromoted() })
    }

    /// Maps each value to a stream that cannot fail and flattens the streams by `strategy`.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Error> where Inner.Error == Never {
        flatMapEvent(flattenStage(strategy) { transform($0).producer.flattenPromoted() })
    }
}

extension Signal where Error == Never {
    /// Maps each value to a producer and flattens the producers by `strategy`; the result fails
    /// when a running inner producer fails.
    @inlinable
    public func flatMap<U, F>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> SignalProducer<U, F>
    ) -> Signal<U, F> {
        flatMapEvent(flattenStage(strategy, promotingOuter: flattenNever, transform))
    }

    /// Maps each value to a stream and flattens the streams by `strategy`; the result fails when
    /// a running inner stream fails.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Inner.Error> {
        flatMapEvent(flattenStage(strategy, promotingOuter: flattenNever) { transform($0).producer })
    }

    /// Maps each value to a producer that cannot fail and flattens the producers by `strategy`.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> SignalProducer<U, Never>
    ) -> Signal<U, Never> {
        flatMapEvent(flattenStage(strategy, transform))
    }

    /// Maps each value to a stream that cannot fail and flattens the streams by `strategy`.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Never> where Inner.Error == Never {
        flatMapEvent(flattenStage(strategy) { transform($0).producer })
    }
}

extension SignalProducer {
    /// Maps each value to a producer and flattens the producers by `strategy`.
    ///
    /// `transform` runs for every value, as it arrives, even if `strategy` then ignores or
    /// queues the producer. A failure of this producer or of a running inner producer fails the
    /// result at once (E2).
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> SignalProducer<U, Error>
    ) -> SignalProducer<U, Error> {
        flatMapEvent(flattenStage(strategy, transform))
    }

    /// Maps each value to a stream (signal, producer, property, …) and flattens the streams by
    /// `strategy`; see `flatMap(_:_:)`.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Error> where Inner.Error == Error {
        flatMapEvent(flattenStage(strategy) { transform($0).producer })
    }

    /// Maps each value to a producer that cannot fail and flattens the producers by `strategy`.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> SignalProducer<U, Never>
    ) -> SignalProducer<U, Error> {
        flatMapEvent(flattenStage(strategy) { transform($0).flattenPromoted() })
    }

    /// Maps each value to a stream that cannot fail and flattens the streams by `strategy`.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Error> where Inner.Error == Never {
        flatMapEvent(flattenStage(strategy) { transform($0).producer.flattenPromoted() })
    }
}

extension SignalProducer where Error == Never {
    /// Maps each value to a producer and flattens the producers by `strategy`; the result fails
    /// when a running inner producer fails.
    @inlinable
    public func flatMap<U, F>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> SignalProducer<U, F>
    ) -> SignalProducer<U, F> {
        flatMapEvent(flattenStage(strategy, promotingOuter: flattenNever, transform))
    }

    /// Maps each value to a stream and flattens the streams by `strategy`; the result fails when
    /// a running inner stream fails.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Inner.Error> {
        flatMapEvent(flattenStage(strategy, promotingOuter: flattenNever) { transform($0).producer })
    }

    /// Maps each value to a producer that cannot fail and flattens the producers by `strategy`.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> SignalProducer<U, Never>
    ) -> SignalProducer<U, Never> {
        flatMapEvent(flattenStage(strategy, transform))
    }

    /// Maps each value to a stream that cannot fail and flattens the streams by `strategy`.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Never> where Inner.Error == Never {
        flatMapEvent(flattenStage(strategy) { transform($0).producer })
    }
}
