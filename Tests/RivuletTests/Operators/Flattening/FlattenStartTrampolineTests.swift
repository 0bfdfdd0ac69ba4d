import Dispatch
import Foundation
import Testing

@testable import Rivulet
import RivuletContracts

/// The trampoline that starts inner streams outside the flattening's mailbox: its lock-free slot
/// (one thread decides a start, then runs it) and its locked list (other threads' starts, or a
/// thread's further starts) must keep each thread's starts in order, run them iteratively, and
/// never lose one, whatever threads do at once.
@Suite(.checksLiveObjects) struct FlattenStartTrampolineTests {
    /// Counts how deeply inner starts nest on the current test's thread.
    final class Depth: @unchecked Sendable {
        // @unchecked Sendable: used only by the one thread that runs the test.
        var current = 0
        var deepest = 0
    }

    @Test func theResourcesSlotIsTheirFirstStoredProperty() {
        let mailbox = Mailbox<Int> { _ in }
        let resources = FlattenResources(mailbox, outerEndsFirst: false)
        expectSameMemory(resources, \.slotStorage, resources.slot)
        resources.dispose()
        #expect(resources.slotStorage.value == FlattenResources<Int>.closedSlot)
    }

    @Test(
        "an inner stream that sends the next outer value from its start: the next start waits for it",
        arguments: [FlattenStrategy.concat, .latest, .merge])
    func reentrantStartsRunIteratively(strategy: FlattenStrategy) {
        let (outer, input) = Signal<Int, TestError>.pipe()
        let depth = Depth()
        let recorder = EventRecorder<Int, TestError>()
        let last = 500
        outer.flatMap(strategy) { value in
            SignalProducer<Int, TestError> { observer, _ in
                depth.current += 1
                depth.deepest = max(depth.deepest, depth.current)
                observer.send(value: value)
                // The next inner stream is decided here, inside this one's start, on this thread.
                if value < last { input.send(value: value + 1) }
                observer.sendCompleted()
                depth.current -= 1
            }
        }.observe(recorder.observer)
        input.send(value: 0)
        input.sendCompleted()
        #expect(depth.deepest == 1, "an inner stream was started from inside another's start")
        #expect(recorder.values == Array(0...last))
        #expect(recorder.events.last == .completed)
        #expect(recorder.terminalCount == 1)
    }

    @Test(
        "an outer value sent from inside an inner start starts right after it, before the next outer value",
        .observerKeepsWhatItObserves)
    func startsDecidedTogetherKeepTheirOrder() {
        let (outer, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        outer.flatMap(.merge) { value in
            SignalProducer<Int, TestError> { observer, _ in
                observer.send(value: value)
                // Decided while this start runs (this thread's trampoline is busy): it starts when
                // this one has returned, before the outer value this thread sends next.
                if value % 3 == 0 { input.send(value: value + 1_000) }
                observer.sendCompleted()
            }
        }.observe(recorder.observer)
        for value in 0..<30 { input.send(value: value) }
        var expected: [Int] = []
        for value in 0..<30 {
            expected.append(value)
            if value % 3 == 0 { expected.append(value + 1_000) }
        }
        #expect(recorder.values == expected)
    }
}

@Suite(.checksLiveObjects) struct FlattenStartTrampolineStressTests {
    @Test(
        "synchronous inners decided on 8 threads at once: each thread's inners run in its order, none overlap",
        arguments: [FlattenStrategy.latest, .merge, .concat, .throttle])
    func synchronousInnersFromManyThreads(strategy: FlattenStrategy) {
        let (outer, input) = Signal<Int, TestError>.pipe()
        let detector = OverlapDetector()
        let recorder = EventRecorder<Int, TestError>()
        let started = Locked(0)
        outer.flatMap(strategy) { value -> SignalProducer<Int, TestError> in
            SignalProducer { observer, _ in
                started.withLock { $0 += 1 }
                for offset in 0..<3 { observer.send(value: value * 10 + offset) }
                observer.sendCompleted()
            }
        }.observe { event in
            detector.enter()
            recorder.record(event)
            detector.leave()
        }
        let perThread = 400
        let finished = withWatchdog(seconds: 300, "outer senders") {
            runConcurrently(8) { thread in
                for index in 0..<perThread { input.send(value: thread * 100_000 + index) }
            }
        }
        input.sendCompleted()
        #expect(finished)
        #expect(detector.overlapCount == 0)
        let values = recorder.values
        for thread in 0..<8 {
            let own = values.filter { $0 / 1_000_000 == thread }
            // A thread's inners start in the order it sent them, and each sends in order.
            #expect(own == own.sorted(), "thread \(thread)'s inner values arrived out of order")
        }
        if case .concurrent = strategy.kind {
            // `.merge` and `.concat` start every inner stream, and each sends all its values.
            #expect(values.count == 8 * perThread * 3)
            #expect(started.withLock { $0 } == 8 * perThread)
        }
        #expect(recorder.terminalCount == 1)
        #expect(recorder.events.last == .completed)
    }

    @Test(
        "disposal racing inner starts on 4 threads: every inner start that began has ended",
        arguments: [FlattenStrategy.latest, .merge])
    func disposalRacingInnerStarts(strategy: FlattenStrategy) {
        for round in 0..<20 {
            let (outer, input) = Signal<Int, TestError>.pipe()
            let counts = Locked((started: 0, ended: 0))
            let recorder = EventRecorder<Int, TestError>()
            // Inner streams that never end on their own: only a replacement or the disposal ends them.
            let disposable = SignalProducer(outer).flatMap(strategy) { value in
                SignalProducer<Int, TestError> { observer, lifetime in
                    counts.withLock { $0.started += 1 }
                    lifetime.observeEnded { counts.withLock { $0.ended += 1 } }
                    observer.send(value: value)
                }
            }.start(recorder.observer)
            let finished = withWatchdog(seconds: 300, "senders and disposal, round \(round)") {
                runConcurrently(5) { thread in
                    if thread == 4 {
                        usleep(UInt32(200 * (round % 5)))
                        disposable.dispose()
                    } else {
                        for index in 0..<200 { input.send(value: thread * 1_000 + index) }
                    }
                }
            }
            #expect(finished)
            let (started, ended) = counts.withLock { $0 }
            #expect(started == ended, "an inner start outlived the flattened stream (S5)")
            #expect(recorder.events.last == .interrupted)
            #expect(recorder.terminalCount == 1)
        }
    }

    @Test("an inner stream started on another thread while the outer delivers on this one")
    func innerSendingFromAnotherThreadWhileTheOuterDelivers() {
        let (outer, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        let detector = OverlapDetector()
        // Each inner stream delivers from a thread of its own, while this thread's next outer
        // value starts (and replaces it with) the next one.
        outer.flatMap(.latest) { value in
            SignalProducer<Int, TestError> { observer, _ in
                Thread {
                    observer.send(value: value)
                    observer.sendCompleted()
                }.start()
            }
        }.observe { event in
            detector.enter()
            recorder.record(event)
            detector.leave()
        }
        let finished = withWatchdog(seconds: 300, "outer sender") {
            for value in 0..<500 { input.send(value: value) }
        }
        #expect(finished)
        #expect(detector.overlapCount == 0)
        let values = recorder.values
        #expect(values == values.sorted(), "a replaced inner delivered after a newer one")
        #expect(recorder.terminalCount == 0)
    }
}
