import Dispatch
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct MutablePropertyTests {
    @Test func theLatestValueIsReadableSynchronously_R1() {
        let property = MutableProperty(1)
        #expect(property.value == 1)
        property.value = 2
        #expect(property.value == 2)
        #expect(property.swap(3) == 2)
        #expect(property.value == 3)
    }

    @Test(.observerKeepsWhatItObserves) func aChangeIsEmittedSynchronouslyAfterItIsVisible_R2() {
        let property = MutableProperty(0)
        let seen = Locked<[(emitted: Int, read: Int)]>([])
        property.signal.observeValues { value in
            let read = property.value
            seen.withLock { $0.append((value, read)) }
        }
        property.value = 5
        // Delivered before the setter returned, and the value was already the new one.
        #expect(seen.withLock { $0 }.map(\.emitted) == [5])
        #expect(seen.withLock { $0 }.map(\.read) == [5])
    }

    @Test(.observerKeepsWhatItObserves) func readingTheValueInsideAnObserverIsAllowed_R3() {
        let property = MutableProperty("a")
        let reads = Locked<[String]>([])
        property.producer.startWithValues { _ in
            let read = property.value
            reads.withLock { $0.append(read) }
        }
        property.value = "b"
        property.modify { $0 += "c" }
        #expect(reads.withLock { $0 } == ["a", "b", "bc"])
    }

    @Test func theSignalSendsChangesOnlyAndTheProducerStartsWithTheCurrentValue() {
        let property = MutableProperty(1)
        let signalRecorder = EventRecorder<Int, Never>()
        let producerRecorder = EventRecorder<Int, Never>()
        property.signal.observe(signalRecorder.observer)
        property.value = 2
        property.producer.start(producerRecorder.observer)
        property.value = 3
        #expect(signalRecorder.values == [2, 3])
        #expect(producerRecorder.values == [2, 3])
    }

    @Test(.observerKeepsWhatItObserves) func settingFromInsideItsOwnObserverIsQueuedAndReadBackAtOnce_E6() {
        // Documented order: the write takes effect at once (later observers of the current change
        // already read the new value); its emission follows the current one, to every observer.
        let property = MutableProperty(0)
        let first = Locked<[Int]>([])
        let second = Locked<[(Int, Int)]>([])
        let readBack = Locked<[Int]>([])
        property.signal.observeValues { value in
            first.withLock { $0.append(value) }
            if value == 1 {
                property.value = 2
                let read = property.value
                readBack.withLock { $0.append(read) }
            }
        }
        property.signal.observeValues { value in
            let read = property.value
            second.withLock { $0.append((value, read)) }
        }
        withWatchdog { property.value = 1 }
        #expect(first.withLock { $0 } == [1, 2])
        #expect(readBack.withLock { $0 } == [2])
        #expect(second.withLock { $0 }.map(\.0) == [1, 2])
        #expect(second.withLock { $0 }.map(\.1) == [2, 2])
        #expect(property.value == 2)
    }

    @Test(.observerKeepsWhatItObserves) func modifyFromInsideItsOwnObserverIsQueuedAndEmitted_E6() {
        // The outer set claims the write turn without the lock; the re-entrant `modify` queues its
        // change, which must make the outer set hand over to the slow path and emit it.
        let property = MutableProperty(0)
        let seen = Locked<[Int]>([])
        property.signal.observeValues { value in
            seen.withLock { $0.append(value) }
            if value == 1 { property.modify { $0 += 10 } }
            if value == 11 { property.modify { $0 += 100 } }
        }
        withWatchdog { property.value = 1 }
        #expect(seen.withLock { $0 } == [1, 11, 111])
        #expect(property.value == 111)
        // And the turn is free again: a later set is emitted normally.
        property.value = 5
        #expect(seen.withLock { $0 } == [1, 11, 111, 5])
    }

    @Test func modifyIsAtomicAndReturnsTheClosureResult() {
        let property = MutableProperty([1, 2])
        let count = property.modify { values -> Int in
            values.append(3)
            return values.count
        }
        #expect(count == 3)
        #expect(property.value == [1, 2, 3])
    }

    @Test func aThrowingModifyLeavesTheValueAndEmitsNothing() {
        let property = MutableProperty(1)
        let recorder = EventRecorder<Int, Never>()
        property.signal.observe(recorder.observer)
        #expect(throws: TestError.self) {
            try property.modify { value in
                value = 99
                throw TestError(1)
            }
        }
        #expect(property.value == 1)
        #expect(recorder.events.isEmpty)
        property.value = 2
        #expect(recorder.values == [2])
    }

    @Test func aWriteInsideModifyIsEmittedBeforeTheModifiedValue() {
        let property = MutableProperty(0)
        let recorder = EventRecorder<Int, Never>()
        property.signal.observe(recorder.observer)
        property.modify { value in
            property.value = 10
            // Reads inside see the latest write, not the value being modified.
            #expect(property.value == 10)
            value += 1
        }
        #expect(recorder.values == [10, 1])
        #expect(property.value == 1)
    }

    @Test func withValueSeesTheCurrentValue() {
        let property = MutableProperty(7)
        #expect(property.withValue { $0 * 2 } == 14)
    }

    @Test(.observerKeepsWhatItObserves) func aProducerStartedDuringAnEmissionStartsFromTheLatestValueWithoutRepeats() {
        let property = MutableProperty(0)
        let late = EventRecorder<Int, Never>()
        property.signal.observeValues { value in
            guard value == 1 else { return }
            property.value = 2
            property.value = 3
            // Started while 1 is being emitted and 2, 3 are queued.
            property.producer.start(late.observer)
        }
        property.value = 1
        property.value = 4
        #expect(late.values == [3, 4])
    }

    @Test func deinitializationCompletesTheSignalAndProducersAndEndsTheLifetime() {
        var property: MutableProperty<Int>? = MutableProperty(1)
        let signalRecorder = EventRecorder<Int, Never>()
        let producerRecorder = EventRecorder<Int, Never>()
        let lifetimeEnded = Counter()
        property!.signal.observe(signalRecorder.observer)
        property!.producer.start(producerRecorder.observer)
        property!.lifetime.observeEnded { lifetimeEnded.increment() }
        let producer = property!.producer
        property!.value = 2
        property = nil
        #expect(signalRecorder.events == [.value(2), .completed])
        #expect(producerRecorder.events == [.value(1), .value(2), .completed])
        #expect(lifetimeEnded.value == 1)
        // A producer kept after the property is gone sends the last value and completes.
        let later = EventRecorder<Int, Never>()
        producer.start(later.observer)
        #expect(later.events == [.value(2), .completed])
    }

    @Test func observersDoNotKeepThePropertyAlive() {
        weak var weakProperty: MutableProperty<Int>?
        var disposable: Disposable?
        do {
            let property = MutableProperty(0)
            weakProperty = property
            disposable = property.producer.startWithValues { _ in }
            property.signal.observeValues { _ in }
        }
        #expect(weakProperty == nil)
        disposable?.dispose()
    }

    @Test func disposingAProducerStartStopsItsObservation_P4() {
        let property = MutableProperty(0)
        let recorder = EventRecorder<Int, Never>()
        let disposable = property.producer.start(recorder.observer)
        property.value = 1
        disposable.dispose()
        property.value = 2
        #expect(recorder.events == [.value(0), .value(1), .interrupted])
    }

    @Test func worksAsAPropertyWrapper() {
        final class Model {
            @MutableProperty var name = "a"
        }
        let model = Model()
        let recorder = EventRecorder<String, Never>()
        model.$name.signal.observe(recorder.observer)
        model.name = "b"
        #expect(model.name == "b")
        #expect(recorder.values == ["b"])
    }
}

@Suite(.checksLiveObjects) struct MutablePropertyStressTests {
    @Test func concurrentModifiesAreAtomicAndEveryObserverSeesTheSameOrderedHistory() {
        let property = MutableProperty(0)
        let first = EventRecorder<Int, Never>()
        let second = EventRecorder<Int, Never>()
        let overlap = OverlapDetector()
        property.signal.observe(first.observer)
        property.signal.observeValues { _ in
            overlap.enter()
            overlap.leave()
        }
        property.signal.observe(second.observer)
        let threads = 8
        let perThread = 500
        withWatchdog {
            runConcurrently(threads) { _ in
                for _ in 0..<perThread { property.modify { $0 += 1 } }
            }
        }
        let total = threads * perThread
        #expect(property.value == total)
        // Increments applied atomically and emitted in the order they were made: 1, 2, …, total.
        #expect(first.values == Array(1...total))
        #expect(second.values == first.values)
        #expect(overlap.overlapCount == 0)
    }

    @Test(.observerKeepsWhatItObserves) func concurrentSettersAndReadersAgreeOnTheLastValue() {
        let property = MutableProperty(-1)
        let recorder = EventRecorder<Int, Never>()
        let visibleBeforeEmission = Counter()
        property.signal.observeValues { value in
            // R2 under contention: nobody else can have written meanwhile.
            if property.value == value { visibleBeforeEmission.increment() }
            recorder.record(.value(value))
        }
        withWatchdog {
            runConcurrently(8) { index in
                for step in 0..<300 {
                    property.value = index * 1000 + step
                    _ = property.value
                }
            }
        }
        #expect(recorder.values.count == 8 * 300)
        #expect(recorder.values.last == property.value)
        #expect(visibleBeforeEmission.value == 8 * 300)
        // Each thread's writes keep their order.
        for index in 0..<8 {
            let own = recorder.values.filter { $0 / 1000 == index }
            #expect(own == own.sorted())
        }
    }

    @Test(.observerKeepsWhatItObserves) func feedbackWritesFromObserversOnManyThreadsNeverDeadlock() {
        let property = MutableProperty(0)
        property.signal.observeValues { value in
            if value % 7 == 0 { property.value = value + 1 }
        }
        let finished = withWatchdog {
            runConcurrently(4) { index in
                for step in 0..<200 { property.value = index * 10_000 + step * 7 }
            }
        }
        #expect(finished)
    }

    @Test func producersStartedWhileOtherThreadsWriteMissNothingAndRepeatNothing() {
        let property = MutableProperty(0)
        let stop = Counter()
        withWatchdog {
            runConcurrently(3) { index in
                if index == 0 {
                    for _ in 0..<2_000 { property.modify { $0 += 1 } }
                    stop.increment()
                } else {
                    while stop.value == 0 {
                        let recorder = EventRecorder<Int, Never>()
                        let disposable = property.producer.start(recorder.observer)
                        for _ in 0..<20 { _ = property.value }
                        disposable.dispose()
                        let values = recorder.values
                        // Consecutive: the current value, then every increment after it.
                        if let first = values.first {
                            #expect(values == Array(first..<(first + values.count)))
                        }
                    }
                }
            }
        }
    }
}
