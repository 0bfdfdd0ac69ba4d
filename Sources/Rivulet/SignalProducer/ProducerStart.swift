#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One start of a producer by `start(_:)` or a `startWith…` method: the output of the start's
/// fused chain, the observer it delivers to, the start's resources (its lifetime's composite) and
/// what `start` returns, in one object.
///
/// Nobody can observe such a start's signal, so it needs no signal core: its output has exactly
/// one observer, attached before any event, and the events reaching it are serial (every sink of
/// a fused chain is called serially, see `EventSink`) except one: the interruption of a disposal
/// that nothing in the chain delivers (no interruption entry, or its source had already ended). The
/// output is therefore a *turn word* (`CompositeDisposable.startTurn`):
///
/// - `0`: alive, nobody delivering.
/// - a thread's identity, plus `pendingInterruptionBit` (a disposal asked for the interruption)
///   and `queuedBit` (that thread sent events from inside its own delivery, kept in `queued`):
///   that thread is delivering. ThreadIDs leave the two lowest bits free.
/// - `endedBit` or `endedByInterruption` (no thread): a terminal event was accepted; nothing more
///   is delivered.
///
/// A value claims the turn with one compare-and-swap and gives it back with another (no lock,
/// E5, E7). A terminal event ends the word, then is delivered; the observer is released after it,
/// then the resources are disposed of (S5). A disposal while a thread delivers sets
/// `pendingInterruptionBit`, and that thread delivers `interrupted` after its event (E6), as a
/// signal core does with a terminal event sent during a turn. No lock is held while an observer
/// runs or is released (O7).
@usableFromInline
final class ProducerStart<Value, Error: Swift.Error>: CompositeDisposable, @unchecked Sendable {
    // @unchecked Sendable: the observer's closures and `queued` are read and written only by the
    // thread that holds the turn (claimed through `startTurn`'s atomic operations, which order
    // one owner's writes before the next owner's reads), and the superclass protects its own state.
    @usableFromInline typealias Event = Signal<Value, Error>.Event

    // The three are `@exclusivity(unchecked)`: only the turn's owner touches them, so a run-time
    // exclusivity check (a call into the runtime per access) could never fail.

    /// What the observer runs for every event (an observer made from a closure, or an input), or
    /// `nil` once released.
    @exclusivity(unchecked) @usableFromInline var eventAction: Signal<Value, Error>.Observer.Action?
    /// What `startWithValues` runs for each value (exactly one of the two is set until the end).
    @exclusivity(unchecked) @usableFromInline var valueAction: ((Value) -> Void)?
    /// Events sent by the turn's owner from inside its own delivery, delivered after it (E6). No
    /// fused chain does that (each stage's source queues them itself); kept for safety.
    @exclusivity(unchecked) @usableFromInline var queued: ContiguousArray<Event> = []

    /// The owner has events in `queued`.
    @inlinable static var queuedBit: UInt { 0b10 }
    /// A disposal asked for `interrupted` while a thread delivered.
    @inlinable static var pendingInterruptionBit: UInt { 0b01 }
    /// The word after a completion or failure was accepted.
    @inlinable static var endedBit: UInt { 0b01 }
    /// The word after an interruption was accepted.
    @inlinable static var endedByInterruption: UInt { 0b11 }

    /// Whether `word` says a terminal event was accepted.
    @inlinable
    static func isEnded(_ word: UInt) -> Bool { word != 0 && word & ~0b11 == 0 }

    let liveObject = LiveObjectTracker<LiveObjectTag.ProducerStart>()

    @inlinable
    init(eventAction: Signal<Value, Error>.Observer.Action?, valueAction: ((Value) -> Void)?) {
        self.eventAction = eventAction
        self.valueAction = valueAction
        super.init(leadingWithInterruption: ())
    }

    // MARK: Events from the chain

    /// Delivers `event` to the observer, serially (E5), on this thread (E7); after a terminal
    /// event, drops it (E1).
    @inlinable
    func send(_ event: Event) {
        let thread = ThreadID.current.rawValue
        if case .value = event, startTurn.compareExchangeAcquiring(expected: 0, desired: thread).exchanged {
            deliver(event)
            if startTurn.compareExchangeReleasing(expected: thread, desired: 0).exchanged { return }
            finishTurn(on: thread)
            return
        }
        sendSlowly(event, on: thread)
    }

    /// Runs the observer for `event`; only the turn's owner calls it.
    @inlinable @inline(__always)
    func deliver(_ event: Event) {
        if let eventAction {
            eventAction(event)
        } else if case let .value(value) = event, let valueAction {
            valueAction(value)
        }
    }

    /// A terminal event, an event after the end, or an event that finds the turn held.
    @inlinable @inline(never)
    func sendSlowly(_ event: Event, on thread: UInt) {
        var word = startTurn.loadAcquiring()
        while true {
            if Self.isEnded(word) {
                if !event.isInterruption {
                    SignalAudit.eventDroppedAfterTerminal(
                        event, afterInterruption: word == Self.endedByInterruption, by: self)
                }
                return
            }
            if word == 0 {
                let desired = event.isTerminating ? Self.ending(with: event) : thread
                let (exchanged, original) = startTurn.compareExchangeAcquiring(expected: 0, desired: desired)
                if !exchanged {
                    word = original
                    continue
                }
                if event.isTerminating {
                    terminate(with: event)
                } else {
                    deliver(event)
                    finishTurn(on: thread)
                }
                return
            }
            if word & ~0b11 == thread {
                // Sent from inside this thread's own delivery: after it (E6).
                queued.append(event)
                let (exchanged, original) = startTurn.compareExchangeAcquiringAndReleasing(
                    expected: word, desired: word | Self.queuedBit)
                if exchanged { return }
                // Only a disposal's `pendingInterruptionBit` can have changed the word meanwhile.
                queued.removeLast()
                word = original
                continue
            }
            // Another thread delivers: a fused chain's sinks are called serially, so this is only
            // the moment that thread takes to give the turn back. Wait for it.
            sched_yield()
            word = startTurn.loadAcquiring()
        }
    }

    /// The owner has delivered an event and could not give the turn back at once: deliver what
    /// was queued meanwhile, then a pending interruption, then give the turn back.
    @inlinable @inline(never)
    func finishTurn(on thread: UInt) {
        var word = startTurn.loadAcquiring()
        while true {
            if word & Self.queuedBit != 0 {
                let (exchanged, original) = startTurn.compareExchangeAcquiringAndReleasing(
                    expected: word, desired: word & ~Self.queuedBit)
                if !exchanged {
                    word = original
                    continue
                }
                var events = ContiguousArray<Event>()
                swap(&events, &queued)
                for (index, event) in events.enumerated() where event.isTerminating {
                    for value in events[..<index] { deliver(value) }
                    startTurn.storeReleasing(Self.ending(with: event))
                    terminate(with: event)
                    for dropped in events[(index + 1)...] where !dropped.isInterruption {
                        SignalAudit.eventDroppedAfterTerminal(
                            dropped, afterInterruption: event.isInterruption, by: self)
                    }
                    return
                }
                for event in events { deliver(event) }
                word = startTurn.loadAcquiring()
                continue
            }
            if word & Self.pendingInterruptionBit != 0 {
                // Nobody else changes an owned word but to set the two bits, both set already.
                startTurn.storeReleasing(Self.endedByInterruption)
                terminate(with: .interrupted)
                return
            }
            let (exchanged, original) = startTurn.compareExchangeReleasing(expected: word, desired: 0)
            if exchanged { return }
            word = original
        }
    }

    /// The word that records the acceptance of the terminal `event`.
    @inlinable
    static func ending(with event: Event) -> UInt {
        event.isInterruption ? endedByInterruption : endedBit
    }

    /// Delivers the accepted terminal `event`, releases the observer, then disposes of the
    /// resources (S5). The word is already ended, so nothing else is delivered meanwhile.
    @inlinable
    func terminate(with event: Event) {
        SignalAudit.terminalAccepted(by: self)
        deliver(event)
        // S5: the observer (and what its closures capture) goes first, outside any lock (O7).
        eventAction = nil
        valueAction = nil
        queued = []
        SignalAudit.terminalDelivered(by: self)
        _ = disposeAfterLeadingInterruption()
    }

    // MARK: Disposal

    /// Ends the start (P4): the start's interruption entry, if any, puts `interrupted` into the
    /// chain, then the lifetime ends; if nothing is on its way down the chain and no stage
    /// delivers it on a scheduler, the output is interrupted here. After the output has accepted a
    /// terminal event, it disposes of the resources itself once the observer has it.
    @usableFromInline
    override func dispose() {
        if Self.isEnded(startTurn.loadAcquiring()) { return }
        if disposeAfterLeadingInterruption() { interruptOutput() }
    }

    /// Delivers `interrupted` now if nobody delivers, or has the delivering thread deliver it
    /// after its event.
    @usableFromInline
    func interruptOutput() {
        var word = startTurn.loadAcquiring()
        while !Self.isEnded(word) {
            if word == 0 {
                let (exchanged, original) = startTurn.compareExchangeAcquiring(
                    expected: 0, desired: Self.endedByInterruption)
                if exchanged {
                    terminate(with: .interrupted)
                    return
                }
                word = original
                continue
            }
            if word & Self.pendingInterruptionBit != 0 { return }
            let (exchanged, original) = startTurn.compareExchangeAcquiringAndReleasing(
                expected: word, desired: word | Self.pendingInterruptionBit)
            if exchanged { return }
            word = original
        }
    }
}
