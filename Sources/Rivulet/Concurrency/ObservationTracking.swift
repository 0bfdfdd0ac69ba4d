// Tracking an expression over `@Observable` models as a producer or a property.
//
// `withObservationTracking(_:onChange:)` is the only public tool: it runs an expression, records
// which observable properties it read, and, once the expression has returned, arms a one-shot
// `onChange` for them. `onChange` fires in the first mutation's `willSet`, on the mutating thread,
// before the new value is written. Three consequences shape the engine below:
//
// 1. The new value cannot be read inside `onChange`: the write has not happened yet. `onChange`
//    only asks for a *round* (an evaluation followed by a delivery) on the tracker's own serial
//    queue, never on the mutating thread. A round reads the model after the mutation's write if
//    the model makes each mutation atomic with respect to reads (see "What is guaranteed").
//    For models isolated to the main actor, rounds run on the main actor instead, in a task: it
//    runs after the current turn, so after the setter that reported the change has returned.
// 2. Arming happens only after the expression has returned, so a mutation landing between the
//    expression's read of a property and the arming would go unnoticed. A round on the queue
//    therefore evaluates twice: the first evaluation arms the tracking, the second, which reads
//    every property only after the first tracking is armed, gives the value and arms again. Any
//    mutation is then either seen by the second read or reported by one of the two trackings.
//    (On the main actor, nothing can change the models between the read and the arming, so one
//    evaluation is enough.)
// 3. Each tracking fires once and then is gone; the round it asks for re-arms it. Requests that
//    arrive while a round is queued are merged into it (coalescing: one new value per change, or
//    fewer for changes in quick succession, always ending with the latest state); a request that
//    arrives while a round runs asks for one more round after it. A request from a tracking armed
//    before the latest round began is ignored: that round's own trackings were armed before its
//    value was read, so the change is either in its value or reported by them. (Without this,
//    the second tracking of a round, firing for the same mutation after the next round has begun,
//    would ask for a needless extra round.)
//
// Rounds never overlap (the `phase` below admits one at a time), so values are delivered
// serially and in order: the first round on the starting thread (or queued like the others), the
// later ones on the queue or the main actor.
//
// What is guaranteed: the last value delivered is the expression's value over the latest state,
// provided that (a) every mutation of a tracked property is atomic with respect to the
// expression's reads of it, so a read never falls between a mutation's `willSet` and its write,
// and (b) the expression reads the same properties every time (for an expression whose set of
// properties changes, a mutation of a newly read property that races the round reading it for
// the first time can be missed until the next change). A `Sendable` model that holds its lock
// across the registrar's whole `withMutation` (announcement and write) keeps (a); so does any
// model whose mutations and reads are serialised by the caller, and a model isolated to the main
// actor, tracked on the main actor, keeps both.

import Dispatch
import Observation

/// The state machine of one tracking: at most one round runs at a time, and change requests made
/// meanwhile are remembered. Every transition runs under `ObservationTracker.state`'s lock and
/// returns what to do after it is released.
private struct ObservationTrackingState<Value> {
    enum Phase {
        /// Armed and waiting for a change.
        case idle
        /// A round is queued and has not started yet; further changes merge into it.
        case scheduled
        /// A round is running; `changedMeanwhile` says whether another must follow it.
        case evaluating(changedMeanwhile: Bool)
        /// Disposed of: nothing runs any more.
        case disposed
    }

    /// The first round is queued from the start (or run at once by `start()`).
    var phase: Phase = .scheduled
    /// The number of the latest round begun; a tracking remembers the round that armed it.
    var round = 0
    /// The expression and where its values go; both are dropped on disposal so that what they
    /// capture is released.
    var expression: (@Sendable () -> Value)?
    var deliver: (@Sendable (Value) -> Void)?

    /// A property tracked by the tracking armed in round `armedIn` is about to change.
    ///
    /// - Returns: Whether the caller must queue a round.
    mutating func changed(armedIn: Int) -> Bool {
        guard armedIn == round else { return false }
        switch phase {
        case .idle:
            phase = .scheduled
            return true
        case .scheduled, .disposed, .evaluating(changedMeanwhile: true):
            return false
        case .evaluating(changedMeanwhile: false):
            phase = .evaluating(changedMeanwhile: true)
            return false
        }
    }

    /// A queued round starts (the first one too).
    ///
    /// - Returns: The round's number, the expression and the delivery, or `nil` if the tracking
    ///   was disposed of.
    mutating func beginRound() -> (Int, @Sendable () -> Value, @Sendable (Value) -> Void)? {
        guard case .scheduled = phase, let expression, let deliver else { return nil }
        phase = .evaluating(changedMeanwhile: false)
        round += 1
        return (round, expression, deliver)
    }

    /// A round has delivered its value.
    ///
    /// - Returns: Whether the caller must queue another round.
    mutating func endRound() -> Bool {
        switch phase {
        case .evaluating(changedMeanwhile: true):
            phase = .scheduled
            return true
        case .evaluating(changedMeanwhile: false):
            phase = .idle
            return false
        case .idle, .scheduled, .disposed:
            return false
        }
    }

    /// - Returns: The closures to release after the lock.
    mutating func dispose() -> (Any?, Any?) {
        phase = .disposed
        defer {
            expression = nil
            deliver = nil
        }
        return (expression, deliver)
    }
}

/// Follows an expression over `@Observable` models: evaluates it in rounds, re-arming the
/// observation tracking in each, and hands each round's value to `deliver`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
final class ObservationTracker<Value: Sendable>: Sendable {
    /// Where rounds run.
    enum RoundExecutor {
        /// On a serial queue private to the tracker. The models are read from there while other
        /// threads may change them, so each round evaluates twice (consequence 2 above).
        case privateQueue(DispatchQueue)
        /// On the main actor, which the models are isolated to: nothing changes them while a round
        /// runs, so one evaluation is enough, and a hop to a later turn of the main actor comes
        /// after the setter that reported the change has returned.
        case mainActor
    }

    private let state: Locked<ObservationTrackingState<Value>>
    private let executor: RoundExecutor

    /// A tracker whose rounds run on a serial queue of its own.
    init(_ expression: @escaping @Sendable () -> Value, deliver: @escaping @Sendable (Value) -> Void) {
        state = Locked(ObservationTrackingState(expression: expression, deliver: deliver))
        executor = .privateQueue(DispatchQueue(label: "Rivulet.ObservationTracker"))
    }

    /// A tracker whose rounds run on the main actor.
    init(mainActor expression: @escaping @MainActor @Sendable () -> Value, deliver: @escaping @Sendable (Value) -> Void) {
        // Only rounds on the main actor call it (`start()` from main-actor code, `schedule()`
        // through a main-actor task), where `assumeIsolated` holds.
        let onMainActor: @Sendable () -> Value = { MainActor.assumeIsolated { expression() } }
        state = Locked(ObservationTrackingState(expression: onMainActor, deliver: deliver))
        executor = .mainActor
    }

    /// Runs the first round on the calling thread: evaluates, arms, and delivers the current value.
    /// A main-actor tracker must be started on the main actor.
    func start() {
        runRound()
    }

    /// Queues the first round, like a later one.
    func startLater() {
        schedule()
    }

    /// Stops tracking: no round starts after this returns, and the expression and delivery are
    /// released. A round already running finishes, and its delivery still happens.
    func dispose() {
        let released = state.withLock { $0.dispose() }
        withExtendedLifetime(released) {}
    }

    /// Runs the queued round, if the tracking was not disposed of meanwhile. The trackings it arms
    /// remember its number (see `changed(armedIn:)`).
    private func runRound() {
        guard let (round, expression, deliver) = state.withLock({ $0.beginRound() }) else { return }
        if case .privateQueue = executor {
            // Arm first, then read: the second evaluation reads each property only after the
            // first tracking covers it (consequence 2 at the top of this file).
            _ = withObservationTracking(expression, onChange: changeHandler(round))
        }
        deliver(withObservationTracking(expression, onChange: changeHandler(round)))
        if state.withLock({ $0.endRound() }) { schedule() }
    }

    /// The `onChange` of a tracking armed in `round`. It holds the tracker weakly: the model's
    /// registrar keeps an unfired handler as long as the model lives, and that must not keep the
    /// tracking (and the expression, which captures the model) alive.
    private func changeHandler(_ round: Int) -> @Sendable () -> Void {
        { [weak self] in
            guard let self else { return }
            if state.withLock({ $0.changed(armedIn: round) }) { schedule() }
        }
    }

    private func schedule() {
        switch executor {
        case let .privateQueue(queue):
            queue.async { [self] in runRound() }
        case .mainActor:
            Task { @MainActor [self] in runRound() }
        }
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension SignalProducer where Error == Never, Value: Sendable {
    /// A producer of the value of `expression`, an expression that reads `@Observable` models,
    /// and of each new value it takes when they change.
    ///
    /// Each start evaluates `expression` on the starting thread and sends its value at once; then,
    /// after every change of a property the expression read, it evaluates the expression again and
    /// sends the new value. The producer never completes on its own; disposing of the start stops
    /// the tracking and releases `expression`, which is not evaluated again (an evaluation already
    /// running finishes, and its value is not sent).
    ///
    /// Threads and timing: the observation fires as a mutation begins (`willSet`), before the new
    /// value is written, so the new value is evaluated afterwards, on a serial queue private to the
    /// start, and sent from there. Values are sent one at a time and in order. Mutations in quick
    /// succession may give one value carrying the latest state; the last value sent is always the
    /// expression over the latest state, provided that each mutation is atomic with respect to the
    /// expression's reads (a thread-safe model holds its lock across the registrar's whole
    /// `withMutation`), and that the expression reads the same properties each time. Values are not
    /// compared: use `skipRepeats()` to drop equal ones.
    ///
    /// `expression` runs on the starting thread and on the queue, and may run more than once per
    /// value; keep it free of side effects. Models it captures must be `Sendable`; for models
    /// isolated to the main actor, use `init(trackingOnMainActor:)`.
    ///
    /// - Parameter expression: Reads the models and computes the value.
    @_disfavoredOverload
    public init(tracking expression: @escaping @Sendable () -> Value) {
        // Disfavoured, as is `init(trackingOnMainActor:)`: an unlabelled trailing closure matches
        // a labelled closure parameter too, and `SignalProducer<Int, Never> { 9 }` must keep
        // meaning ReactiveSwift's `init(_ action:)` (one value, then completion).
        self.init { observer, lifetime in
            let tracker = ObservationTracker(expression) { value in observer.send(value: value) }
            lifetime.observeEnded { tracker.dispose() }
            tracker.start()
        }
    }

    /// A producer of the value of `expression`, an expression that reads `@Observable` models
    /// isolated to the main actor, and of each new value it takes when they change.
    ///
    /// Everything happens on the main actor: each start queues a first evaluation there, which
    /// sends the current value, and each change of a property the expression read queues another
    /// one, which runs after the code that made the change has finished its turn on the main actor
    /// and sends the new value. Changes made in the same turn give one value, with the state they
    /// leave. Values are sent on the main actor, one at a time and in order; the producer never
    /// completes on its own, and disposing of the start stops the tracking and releases
    /// `expression`.
    ///
    /// The first value is not sent during `start`, even on the main actor; for a value at once, use
    /// `Property(trackingOnMainActor:)` from the main actor.
    ///
    /// - Parameter expression: Reads the models and computes the value, on the main actor.
    @_disfavoredOverload
    public init(trackingOnMainActor expression: @escaping @MainActor @Sendable () -> Value) {
        self.init { observer, lifetime in
            let tracker = ObservationTracker(mainActor: expression) { value in observer.send(value: value) }
            lifetime.observeEnded { tracker.dispose() }
            tracker.startLater()
        }
    }

    /// As `init(trackingOnMainActor:)`, but the first value is evaluated and sent during `start`,
    /// which must therefore run on the main actor (`Property(trackingOnMainActor:)` starts it once,
    /// from its main-actor initialiser).
    init(trackingOnMainActorStartingNow expression: @escaping @MainActor @Sendable () -> Value) {
        self.init { observer, lifetime in
            let tracker = ObservationTracker(mainActor: expression) { value in observer.send(value: value) }
            lifetime.observeEnded { tracker.dispose() }
            tracker.start()
        }
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Property where Value: Sendable {
    /// A read-only property whose value is the value of `expression`, an expression that reads
    /// `@Observable` models, following their changes.
    ///
    /// The property evaluates `expression` now, on the calling thread, for its first value, and
    /// then follows it as `SignalProducer(tracking:)` does: each change of a property the expression
    /// read gives a new value, evaluated and set after the mutation on a serial queue private to
    /// this property, and emitted there. The tracking lasts as long as the property, and ends (the
    /// expression is released) when it is deinitialized.
    ///
    /// - Parameter expression: Reads the models and computes the value.
    public convenience init(tracking expression: @escaping @Sendable () -> Value) {
        self.init(composing: SignalProducer(tracking: expression), rank: 0)
    }

    /// A read-only property whose value is the value of `expression`, an expression that reads
    /// `@Observable` models isolated to the main actor, following their changes.
    ///
    /// The property evaluates `expression` now for its first value. After each change of a
    /// property the expression read, it evaluates the expression again on the main actor, once the
    /// code that made the change has finished its turn there, and sets and emits the new value on
    /// the main actor (changes made in the same turn give one new value). The tracking lasts as
    /// long as the property, and ends when it is deinitialized.
    ///
    /// - Parameter expression: Reads the models and computes the value, on the main actor.
    @MainActor
    public convenience init(trackingOnMainActor expression: @escaping @MainActor @Sendable () -> Value) {
        self.init(composing: SignalProducer(trackingOnMainActorStartingNow: expression), rank: 0)
    }
}
