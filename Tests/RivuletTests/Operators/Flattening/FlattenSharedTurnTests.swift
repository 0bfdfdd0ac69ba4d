import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// A flattened `Signal` shares the turn of its flattening's mailbox, whose handler is its only
/// sender: it behaves exactly like a signal with a turn of its own, observer changes included.
@Suite(.checksLiveObjects) struct FlattenSharedTurnTests {
    typealias IntSignal = Signal<Int, TestError>
    typealias IntProducer = SignalProducer<Int, TestError>

    @Test("A flattened signal, and a stage below it, share the mailbox's turn")
    func flattenedSignalSharesTheMailboxsTurn() {
        let (outer, _) = IntSignal.pipe()
        let flattened = outer.flatMap(.latest) { IntProducer(value: $0) }
        let mapped = flattened.map { $0 + 1 }
        let host = flattened.core.sharedTurnHost
        #expect(host != nil)
        #expect(host !== outer.core.storage)
        #expect(mapped.core.sharedTurnHost.map { $0 === host } == true)
    }

    @Test(
        "Inner values and the terminal event reach the flattened signal's observers in order",
        arguments: [
            FlattenStrategy.merge, .concat, .latest,
        ])
    func eventsFlowThroughTheFlattenedSignal(strategy: FlattenStrategy) {
        let (outer, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        let below = EventRecorder<Int, TestError>()
        let flattened = outer.flatMap(strategy) { IntProducer([$0, $0 * 10]) }
        flattened.observe(recorder.observer)
        flattened.map { -$0 }.observe(below.observer)
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(10), .value(2), .value(20), .completed])
        #expect(below.events == [.value(-1), .value(-10), .value(-2), .value(-20), .completed])
    }

    @Test("An observer attached from another thread while an inner value is delivered joins between two inputs")
    func attachFromAnotherThreadWhileTheMailboxTurnIsHeld() {
        let (outer, input) = IntSignal.pipe()
        let flattened = outer.flatMap(.merge) { IntProducer(value: $0) }
        let late = EventRecorder<Int, TestError>()
        DeliveryHolder(1, on: flattened).whileHeld(sentBy: { input.send(value: 1) }) {
            // The sender holds the mailbox's turn, blocked inside the flattened signal's delivery.
            flattened.observe(late.observer)
            #expect(flattened.core.observerCount == 2)
        }
        input.send(value: 2)
        input.sendCompleted()
        #expect(late.values == [2])
        #expect(late.terminalCount == 1)
    }

    @Test("An observer detached from another thread while an inner value is delivered receives nothing more")
    func detachFromAnotherThreadWhileTheMailboxTurnIsHeld() {
        let (outer, input) = IntSignal.pipe()
        let flattened = outer.flatMap(.concat) { IntProducer(value: $0) }
        let holder = DeliveryHolder(1, on: flattened)
        let tracked = WeakBox<Tracked>(nil)
        let received = Locked<[Int]>([])
        let disposable: Disposable? = {
            let object = Tracked()
            tracked.object = object
            return flattened.observeValues { value in withExtendedLifetime(object) { received.withLock { $0.append(value) } } }
        }()
        holder.whileHeld(sentBy: { input.send(value: 1) }) { disposable?.dispose() }
        input.send(value: 2)
        // Detached before its turn in the current event: it receives nothing, and its closure is
        // released once the mailbox's owner has applied the change.
        #expect(received.withLock { $0 }.isEmpty)
        #expect(tracked.object == nil)
        #expect(flattened.core.observerCount == 1)
    }

    @Test("An observer that disposes of itself inside the flattened delivery receives nothing more")
    func selfDisposalInsideTheMailboxsTurn() {
        let (outer, input) = IntSignal.pipe()
        let flattened = outer.flatMap(.latest) { IntProducer([$0, $0 + 1]) }
        let received = Locked<[Int]>([])
        let disposable = Locked<Disposable?>(nil)
        disposable.withLock {
            $0 = flattened.observeValues { value in
                received.withLock { $0.append(value) }
                disposable.withLock { $0 }?.dispose()
            }
        }
        let second = EventRecorder<Int, TestError>()
        flattened.observe(second.observer)
        input.send(value: 1)
        #expect(received.withLock { $0 } == [1])
        #expect(second.values == [1, 2])
        #expect(flattened.core.observerCount == 1)
    }

    @Test("A flattened signal that nobody observes or keeps stops silently and leaves its outer signal")
    func abandonedFlattenedSignalLeavesItsOuterSignal() {
        let (outer, input) = IntSignal.pipe()
        let innerEnded = Locked(0)
        do {
            let flattened = outer.flatMap(.merge) { value in
                IntProducer.never.on(disposed: { innerEnded.withLock { $0 += 1 } })
            }
            input.send(value: 1)
            #expect(outer.core.observerCount == 1)
            _ = flattened
        }
        #expect(outer.core.observerCount == 0)
        #expect(innerEnded.withLock { $0 } == 1)
    }

    @Test("Observers of a flattened signal attached and detached from other threads during sends see events one at a time")
    func observerChurnDuringConcurrentInnerValues() async {
        let (outer, input) = IntSignal.pipe()
        let flattened = outer.flatMap(.merge) { IntProducer([$0, $0, $0]) }
        let overlap = OverlapDetector()
        let steady = EventRecorder<Int, TestError>()
        flattened.observe(steady.observer)
        flattened.observeValues { _ in
            overlap.enter()
            overlap.leave()
        }
        let senders = 3
        let valuesPerSender = 300
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for value in 0..<valuesPerSender { input.send(value: sender * 1_000 + value) }
                }
            }
            group.addTask {
                for _ in 0..<300 {
                    let disposable = flattened.observeValues { _ in
                        overlap.enter()
                        overlap.leave()
                    }
                    disposable?.dispose()
                }
            }
        }
        input.sendCompleted()
        #expect(overlap.overlapCount == 0)
        #expect(steady.values.count == senders * valuesPerSender * 3)
        #expect(steady.terminalCount == 1)
        #expect(flattened.core.observerCount == 0, "the terminal event released every observer")
    }
}
