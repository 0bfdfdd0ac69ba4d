import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// What `observe` returns, and what keeping it does and does not keep alive (S5 and the leak
/// rules of the brief).
@Suite(.checksLiveObjects) struct ObservationHandleTests {
    /// Observes `signal` with a closure that captures a watched object; returns the watch and the
    /// disposable, which the caller keeps.
    static func observe(
        _ signal: Signal<Int, Never>,
        _ attach: (Signal<Int, Never>, Tracked) -> Disposable?
    ) -> (watched: WeakBox<Tracked>, kept: Disposable?) {
        let captured = Tracked()
        return (WeakBox(captured), attach(signal, captured))
    }

    @Test("A disposable kept after the terminal event does not keep the observer's closure (S5)")
    func keptDisposableDoesNotKeepTheObserverAfterTermination_S5() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (watched, kept) = Self.observe(signal) { signal, captured in signal.observeValues { _ in _ = captured } }
        #expect(watched.object != nil, "attached: the signal keeps the closure")
        input.sendCompleted()
        #expect(watched.object == nil, "terminated: the closure is released though the disposable is kept")
        #expect(kept != nil)
    }

    @Test("A disposed of disposable does not keep the observer's closure")
    func disposedDisposableDoesNotKeepTheObserver() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (watched, kept) = Self.observe(signal) { signal, captured in signal.observe { _ in _ = captured } }
        kept?.dispose()
        #expect(watched.object == nil)
        #expect(kept?.isDisposed == true)
        withExtendedLifetime(input) {}
    }

    @Test("A cycle through a kept disposable is broken by the terminal event (S5)")
    func retainCycleThroughAKeptDisposableIsBrokenByTermination_S5() {
        final class Owner: Sendable {
            let bag = Locked<[Disposable]>([])
            let received = Counter()
        }
        let (signal, input) = Signal<Int, Never>.pipe()
        let watched = WeakBox<Owner>(nil)
        do {
            let owner = Owner()
            watched.object = owner
            // The owner keeps the disposable, the closure keeps the owner: a cycle until the end.
            if let disposable = signal.observeValues({ _ in owner.received.increment() }) {
                owner.bag.withLock { $0.append(disposable) }
            }
        }
        input.send(value: 1)
        #expect(watched.object?.received.value == 1, "the owner lives while the signal can still send")
        input.sendCompleted()
        #expect(watched.object == nil, "the terminal event breaks the cycle")
    }

    @Test("Dropping a disposable without disposing of it leaves the observer attached")
    func droppedDisposableLeavesTheObserverAttached() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let received = Counter()
        _ = signal.observeValues { _ in received.increment() }
        input.send(value: 1)
        input.send(value: 2)
        #expect(received.value == 2)
    }

    @Test("A million observe and dispose cycles release every observer and do not grow memory")
    func aMillionObserveDisposeCyclesLeaveNothingBehind() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let released = Counter()
        let cycles = 1_000_000
        let rounds = CycleRounds(cycles: cycles) {
            let captured = CountsDeinit(released)
            signal.observeValues { _ in _ = captured }?.dispose()
        } afterRound: { round in
            #expect(released.value == round * cycles, "every observer's closure was released")
            #expect(signal.core.observerCount == 0)
        }
        rounds.expectFlat()
        withExtendedLifetime(input) {}
    }
}
