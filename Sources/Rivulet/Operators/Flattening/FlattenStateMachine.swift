/// Names one inner stream within one flattening, in the order the inner streams were started.
@usableFromInline
typealias FlattenInnerID = UInt64

/// What a flattening must do after an input, in this order: dispose of the inner streams the
/// machine cancelled (`cancels`, taken with `takeCancelled()`), forward the
/// value (for an inner value), start inner stream `start`, then complete if `complete` or
/// interrupt if `interrupt`.
///
/// Not nested in the generic `FlattenStateMachine`, and holding no inner stream and no list: every
/// input makes one, and code specialised in a client module destroys a bound generic struct
/// through its type metadata (a metadata look-up and a value-witness call per input), where this
/// plain struct of flags and an ID is copied and dropped for free. The inner stream to start is the outer value's, or the one
/// that waited (`startsWaitingInner`, which the caller takes with `takeStartingInner()`).
@usableFromInline
struct FlattenActions {
    /// Whether inner streams are to be disposed of (replaced by `.latest`, or losers of a
    /// `.race`): the caller takes their IDs with `takeCancelled()`.
    @usableFromInline var cancels = false
    /// Whether the inner value that was the input is forwarded.
    @usableFromInline var forwardValue = false
    /// The ID of an inner stream to start: the outer value's inner stream, or the one that waited.
    @usableFromInline var start: FlattenInnerID?
    /// Whether the inner stream to start is one that waited for a free slot.
    @usableFromInline var startsWaitingInner = false
    /// Whether the flattened stream completes now.
    @usableFromInline var complete = false
    /// Whether the flattened stream is interrupted now (the inner stream that `.race` or
    /// `.throttle` forwards was interrupted).
    @usableFromInline var interrupt = false

    @inlinable
    init() {}
}

/// The decisions of `flatten(_:)`, free of threads, closures and disposables.
///
/// The flattening's mailbox feeds it one input at a time (outer value, inner value, inner end, …);
/// each method updates the state and returns what the caller must do: start an inner stream,
/// dispose of some, forward the value, or end the flattened stream. Inner streams are tracked by
/// ID, so events from an inner stream that was replaced, lost a race or already ended are
/// recognised as stale and dropped.
@usableFromInline
struct FlattenStateMachine<Inner> {
    @usableFromInline typealias Actions = FlattenActions

    @usableFromInline
    let kind: FlattenStrategy.Kind
    /// The inner streams whose events are forwarded: all running ones for `.concurrent`, the
    /// newest for `.latest`, the contenders (or the winner) for `.race`, the running one for `.throttle`.
    @usableFromInline var running = FlattenInnerMap<Void>()
    /// Inner streams waiting for a free slot (`.concurrent` only), oldest first.
    @usableFromInline var waiting = FIFOQueue<Inner>()
    /// The waiting inner stream that the last actions start (`startsWaitingInner`).
    @usableFromInline var startingInner: Inner?
    /// The inner streams that the last actions dispose of (`cancels`).
    @usableFromInline var cancelled = FlattenInnerIDList()
    @usableFromInline var waitingCount = 0
    /// The inner stream that won the race (`.race` only).
    @usableFromInline var winner: FlattenInnerID?
    @usableFromInline var outerHasCompleted = false
    /// Whether the flattened stream has ended: every later input is ignored (E1).
    @usableFromInline var hasTerminated = false
    @usableFromInline var nextID: FlattenInnerID = 0

    @inlinable
    init(_ kind: FlattenStrategy.Kind) {
        self.kind = kind
    }

    // MARK: Outer stream

    /// Whether events of the outer stream are still acted on: not after the flattened stream has
    /// ended, nor after the outer stream's own completion (a hand-written upstream may break E1).
    @usableFromInline
    var acceptsOuter: Bool { !hasTerminated && !outerHasCompleted }

    /// The outer stream sent an inner stream.
    @inlinable
    mutating func outerValue(_ inner: Inner) -> Actions {
        var actions = Actions()
        guard acceptsOuter else { return actions }
        switch kind {
        case let .concurrent(limit):
            if UInt(running.count) < limit {
                actions.start = startInner()
            } else {
                waiting.append(inner)
                waitingCount += 1
            }
        case .latest:
            cancelRunning(&actions)
            actions.start = startInner()
        case .race:
            if winner == nil { actions.start = startInner() }
        case .throttle:
            if running.isEmpty { actions.start = startInner() }
        }
        return actions
    }

    /// The outer stream completed.
    @inlinable
    mutating func outerCompleted() -> Actions {
        var actions = Actions()
        guard acceptsOuter else { return actions }
        outerHasCompleted = true
        completeIfDone(&actions)
        return actions
    }

    /// The outer stream failed or was interrupted, or the flattened stream must end for another
    /// reason. Returns whether the caller forwards the terminal event (`false` if already ended).
    @inlinable
    mutating func terminate() -> Bool {
        guard !hasTerminated else { return false }
        hasTerminated = true
        running.removeAll()
        // Let go of the waiting inner streams; the caller releases them when it drops the machine.
        _ = waiting.removeAll()
        waitingCount = 0
        return true
    }

    // MARK: Inner streams

    /// Whether a value of inner stream `id` is forwarded with nothing else to do: the stream is
    /// running and no race is undecided. Saves building (and destroying) `Actions` per value.
    @inlinable @inline(__always)
    func forwardsValueAtOnce(from id: FlattenInnerID) -> Bool {
        guard !hasTerminated, running.contains(id) else { return false }
        if case .race = kind, winner == nil { return false }
        return true
    }

    /// Inner stream `id` sent a value.
    @inlinable
    mutating func innerValue(_ id: FlattenInnerID) -> Actions {
        var actions = Actions()
        guard !hasTerminated, running.contains(id) else { return actions }
        if case .race = kind, winner == nil {
            declareWinner(id, &actions)
        }
        actions.forwardValue = true
        return actions
    }

    /// Inner stream `id` failed. Returns whether the failure ends the flattened stream (E2);
    /// a stale inner stream's failure is ignored.
    @inlinable
    mutating func innerFailed(_ id: FlattenInnerID) -> Bool {
        guard !hasTerminated, running.contains(id) else { return false }
        return terminate()
    }

    /// Inner stream `id` completed.
    @inlinable
    mutating func innerCompleted(_ id: FlattenInnerID) -> Actions {
        var actions = Actions()
        guard !hasTerminated, running.contains(id) else { return actions }
        if case .race = kind, winner == nil {
            // Completing is the first event: this inner stream wins, with nothing to forward.
            declareWinner(id, &actions)
        }
        innerEnded(id, &actions)
        return actions
    }

    /// Inner stream `id` was interrupted. Under `.concurrent` and `.latest` it stops and the
    /// flattening goes on as if it had completed (E4). Under `.race` and `.throttle`, whose output
    /// is one inner stream's events, the interruption is forwarded, as in ReactiveSwift: a race's
    /// first event wins it, whatever the event.
    @inlinable
    mutating func innerInterrupted(_ id: FlattenInnerID) -> Actions {
        var actions = Actions()
        guard !hasTerminated, running.contains(id) else { return actions }
        switch kind {
        case .race, .throttle:
            if case .race = kind, winner == nil { declareWinner(id, &actions) }
            actions.interrupt = terminate()
        case .concurrent, .latest:
            innerEnded(id, &actions)
        }
        return actions
    }

    // MARK: Helpers

    @inlinable mutating func startInner() -> FlattenInnerID {
        let id = nextID
        nextID += 1
        running.append(id, ())
        return id
    }

    /// Stops forwarding every running inner stream, which the caller disposes of.
    @inlinable mutating func cancelRunning(_ actions: inout Actions) {
        guard !running.isEmpty else { return }
        cancelled = running.ids
        actions.cancels = true
        running.removeAll()
    }

    /// Takes the inner streams that the last actions dispose of (`cancels`).
    @inlinable mutating func takeCancelled() -> FlattenInnerIDList {
        defer { cancelled = FlattenInnerIDList() }
        return cancelled
    }

    /// Takes the waiting inner stream that the last actions start (`startsWaitingInner`).
    @inlinable mutating func takeStartingInner() -> Inner? {
        defer { startingInner = nil }
        return startingInner
    }

    @inlinable mutating func declareWinner(_ id: FlattenInnerID, _ actions: inout Actions) {
        winner = id
        running.remove(id)
        cancelRunning(&actions)
        running.append(id, ())
    }

    @inlinable mutating func innerEnded(_ id: FlattenInnerID, _ actions: inout Actions) {
        running.remove(id)
        if case let .concurrent(limit) = kind, UInt(running.count) < limit, let next = waiting.popFirst() {
            waitingCount -= 1
            startingInner = next
            actions.startsWaitingInner = true
            actions.start = startInner()
        }
        completeIfDone(&actions)
    }

    @inlinable mutating func completeIfDone(_ actions: inout Actions) {
        guard outerHasCompleted, running.isEmpty, waitingCount == 0 else { return }
        hasTerminated = true
        actions.complete = true
    }
}
