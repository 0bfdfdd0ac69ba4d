import Dispatch
import Testing
@testable import Rivulet
import RivuletContracts

/// An upstream driven by hand: counts its starts and the ends of their lifetimes, and exposes the
/// input of the latest start.
final class DrivenSource: @unchecked Sendable {
    // @unchecked Sendable: `input` is a `Locked`; the counters are thread-safe.
    let starts = Counter()
    let ends = Counter()
    private let input = Locked<Signal<Int, TestError>.Observer?>(nil)

    var producer: SignalProducer<Int, TestError> {
        SignalProducer { [self] observer, lifetime in
            starts.increment()
            input.withLock { $0 = observer }
            lifetime.observeEnded { [ends] in ends.increment() }
        }
    }

    func send(_ event: Signal<Int, TestError>.Event) {
        input.withLock { $0 }?.send(event)
    }
}

@Suite(.checksLiveObjects) struct ReplayLazilyTests {
    @Test func nothingStartsUntilTheFirstStart_P1() {
        let source = DrivenSource()
        let replayed = source.producer.replayLazily(upTo: 1)
        #expect(source.starts.value == 0)
        let start = replayed.start()
        #expect(source.starts.value == 1)
        start.dispose()
    }

    @Test func startsShareOneUpstreamStartAndReplayTheLatestValues() {
        let source = DrivenSource()
        let replayed = source.producer.replayLazily(upTo: 2)
        let first = EventRecorder<Int, TestError>()
        replayed.start(first.observer)
        source.send(.value(1))
        source.send(.value(2))
        source.send(.value(3))
        let second = EventRecorder<Int, TestError>()
        replayed.start(second.observer)
        #expect(second.events == [.value(2), .value(3)])
        source.send(.value(4))
        source.send(.completed)
        #expect(first.events == [.value(1), .value(2), .value(3), .value(4), .completed])
        #expect(second.events == [.value(2), .value(3), .value(4), .completed])
        #expect(source.starts.value == 1)
    }

    @Test func laterStartsGetTheReplayAndTheTerminalEvent_E2() {
        let source = CountingSource<Int, TestError>([[.value(1), .value(2), .value(3), .failed(TestError(9))]])
        let replayed = source.producer.replayLazily(upTo: 2)
        let first = EventRecorder<Int, TestError>()
        replayed.start(first.observer)
        let late = EventRecorder<Int, TestError>()
        replayed.start(late.observer)
        #expect(first.events == [.value(1), .value(2), .value(3), .failed(TestError(9))])
        #expect(late.events == [.value(2), .value(3), .failed(TestError(9))])
        #expect(source.starts.value == 1)
        // The upstream's lifetime ended when it failed.
        #expect(source.ends.value == 1)
    }

    @Test func capacityZeroReplaysOnlyTheTerminalEvent() {
        let source = DrivenSource()
        let replayed = source.producer.replayLazily(upTo: 0)
        let first = EventRecorder<Int, TestError>()
        replayed.start(first.observer)
        source.send(.value(1))
        let second = EventRecorder<Int, TestError>()
        replayed.start(second.observer)
        source.send(.value(2))
        source.send(.interrupted)
        let third = EventRecorder<Int, TestError>()
        replayed.start(third.observer)
        #expect(first.events == [.value(1), .value(2), .interrupted])
        #expect(second.events == [.value(2), .interrupted])
        #expect(third.events == [.interrupted])
    }

    @Test func unlimitedCapacityReplaysEverything() {
        let replayed = SignalProducer<Int, TestError>(1...100).replayLazily(upTo: .max)
        replayed.start()
        let late = EventRecorder<Int, TestError>()
        replayed.start(late.observer)
        #expect(late.values == Array(1...100))
        #expect(late.events.last == .completed)
    }

    @Test func ringBufferKeepsTheLatestInOrder() {
        var buffer = ReplayBuffer<Int>(capacity: 3)
        for value in 1...7 { buffer.append(value) }
        #expect(Array(buffer.values) == [5, 6, 7])
        var empty = ReplayBuffer<Int>(capacity: 0)
        empty.append(1)
        #expect(empty.values.isEmpty)
    }

    @Test(.leavesAStartRunning) func disposingOneStartLeavesTheOthersAndTheUpstreamRunning() {
        let source = DrivenSource()
        let replayed = source.producer.replayLazily(upTo: 1)
        let first = EventRecorder<Int, TestError>()
        let second = EventRecorder<Int, TestError>()
        let firstStart = replayed.start(first.observer)
        replayed.start(second.observer)
        source.send(.value(1))
        firstStart.dispose()
        source.send(.value(2))
        #expect(first.events == [.value(1), .interrupted])
        #expect(second.events == [.value(1), .value(2)])
        #expect(source.ends.value == 0)
    }

    @Test func theUpstreamEndsWhenTheProducerAndEveryStartAreGone() {
        let source = DrivenSource()
        var replayed: SignalProducer<Int, TestError>? = source.producer.replayLazily(upTo: 1)
        let start = replayed?.start()
        // The producer is gone, but a start still runs: the upstream keeps running.
        replayed = nil
        source.send(.value(1))
        #expect(source.ends.value == 0)
        start?.dispose()
        #expect(source.ends.value == 1)

        let other = DrivenSource()
        var again: SignalProducer<Int, TestError>? = other.producer.replayLazily(upTo: 1)
        again?.start().dispose()
        // Every start is gone, but the producer is still there: the upstream keeps running.
        #expect(other.ends.value == 0)
        again = nil
        #expect(other.ends.value == 1)
    }

    @Test func observersAndValuesAreReleasedWhenEverythingIsGone_S5() {
        let observerObject = WeakBox<Tracked>(nil)
        let valueObject = WeakBox<Tracked>(nil)
        let source = DrivenSource()
        var replayed: SignalProducer<Tracked, TestError>? = source.producer.map { Tracked($0) }.replayLazily(upTo: 1)
        var start: Disposable?
        do {
            let object = Tracked()
            observerObject.object = object
            start = replayed?.startWithValues { value in
                _ = object
                valueObject.object = value
            }
        }
        source.send(.value(1))
        // The start runs: its observer and the buffered value are kept.
        #expect(observerObject.object != nil)
        #expect(valueObject.object != nil)
        start?.dispose()
        #expect(observerObject.object == nil)
        replayed = nil
        #expect(valueObject.object == nil)
        #expect(source.ends.value == 1)
    }

    @Test func aTerminatedUpstreamReleasesTheObserversOfItsStarts_S5() {
        let observerObject = WeakBox<Tracked>(nil)
        let source = DrivenSource()
        let replayed = source.producer.replayLazily(upTo: 1)
        do {
            let object = Tracked()
            observerObject.object = object
            replayed.startWithValues { _ in _ = object }
        }
        source.send(.value(1))
        #expect(observerObject.object != nil)
        source.send(.completed)
        #expect(observerObject.object == nil)
        withExtendedLifetime(replayed) {}
    }

    @Test(.leavesAStartRunning) func aStartFromInsideAnObserverGetsTheReplayAfterTheCurrentEvent_E6() {
        let source = DrivenSource()
        let replayed = source.producer.replayLazily(upTo: 1)
        let order = Locked<[String]>([])
        let inner = EventRecorder<Int, TestError>()
        replayed.startWithValues { value in
            order.withLock { $0.append("outer \(value)") }
            if value == 1 {
                replayed.start { event in
                    if let value = event.value { order.withLock { $0.append("inner \(value)") } }
                    inner.record(event)
                }
            }
        }
        source.send(.value(1))
        source.send(.value(2))
        #expect(order.withLock { $0 } == ["outer 1", "inner 1", "outer 2", "inner 2"])
    }
}

@Suite(.checksLiveObjects) struct ReplayLazilyStressTests {
    @Test func concurrentStartsWhileValuesFlowSeeAnUnbrokenTail() {
        let count = 2_000
        let source = DrivenSource()
        let replayed = source.producer.replayLazily(upTo: 3)
        let recorders = (0..<8).map { _ in EventRecorder<Int, TestError>() }
        let detectors = (0..<8).map { _ in OverlapDetector() }
        let sent = Locked(0)
        // The first start starts the upstream; then thread 8 sends while the others start.
        replayed.startWithValues { _ in }
        runConcurrently(9) { index in
            if index == 8 {
                for value in 0..<count {
                    source.send(.value(value))
                    sent.withLock { $0 += 1 }
                }
                source.send(.completed)
            } else {
                // Start while values flow: start number i waits until about i/8 of them are sent.
                while sent.withLock({ $0 }) < index * count / 8 { _ = ThreadID.current }
                let recorder = recorders[index]
                let detector = detectors[index]
                replayed.start { event in
                    detector.enter()
                    recorder.record(event)
                    detector.leave()
                }
            }
        }
        for (recorder, detector) in zip(recorders, detectors) {
            let values = recorder.values
            #expect(recorder.terminalCount == 1)
            #expect(recorder.events.last == .completed)
            #expect(detector.overlapCount == 0)
            // Whenever it started, a start sees consecutive values up to the last one.
            #expect(values.last == count - 1)
            #expect(values.count >= 3)
            #expect(zip(values, values.dropFirst()).allSatisfy { $1 == $0 + 1 })
        }
        #expect(source.starts.value == 1)
    }
}
