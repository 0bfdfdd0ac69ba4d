import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct SignalProducerTests {
    @Test func nothingHappensUntilStart_P1() {
        let starts = Counter()
        let producer = SignalProducer<Int, Never> { observer, _ in
            starts.increment()
            observer.send(value: 1)
            observer.sendCompleted()
        }
        let mapped = producer.map { $0 + 1 }.filter { _ in true }
        #expect(starts.value == 0)
        let recorder = EventRecorder<Int, Never>()
        mapped.start(recorder.observer)
        #expect(starts.value == 1)
        #expect(recorder.events == [.value(2), .completed])
    }

    @Test func eachStartIsIndependent_P2() {
        let starts = Counter()
        let producer = SignalProducer<Int, Never> { observer, _ in
            observer.send(value: starts.increment())
            observer.sendCompleted()
        }
        let first = EventRecorder<Int, Never>()
        let second = EventRecorder<Int, Never>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(first.events == [.value(1), .completed])
        #expect(second.events == [.value(2), .completed])
    }

    @Test func disposingAStartInterruptsItAndEndsItsLifetime_P4() {
        let ended = Counter()
        let input = Locked<Signal<Int, Never>.Observer?>(nil)
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            input.withLock { $0 = observer }
            lifetime.observeEnded { ended.increment() }
        }
        let recorder = EventRecorder<Int, Never>()
        let disposable = producer.map { $0 * 2 }.start(recorder.observer)
        input.withLock { $0 }?.send(value: 1)
        disposable.dispose()
        input.withLock { $0 }?.send(value: 2)
        #expect(recorder.events == [.value(2), .interrupted])
        #expect(ended.value == 1)
        #expect(disposable.isDisposed)
    }

    @Test func terminatingEndsTheLifetime() {
        let ended = Counter()
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { ended.increment() }
            observer.sendCompleted()
        }
        let disposable = producer.start()
        #expect(ended.value == 1)
        #expect(disposable.isDisposed)
    }

    @Test func droppingTheStartHandlersObserverLeavesTheStartRunningUntilDisposed() {
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer<Int, Never> { observer, _ in observer.send(value: 1) }
            .start(recorder.observer)
        #expect(recorder.events == [.value(1)])
        disposable.dispose()
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func valueSequenceResultAndErrorInitialisers() {
        func record<E>(_ producer: SignalProducer<Int, E>) -> [Signal<Int, E>.Event] {
            let recorder = EventRecorder<Int, E>()
            producer.start(recorder.observer)
            return recorder.events
        }
        #expect(record(SignalProducer<Int, Never>(value: 3)) == [.value(3), .completed])
        #expect(record(SignalProducer<Int, Never>([1, 2])) == [.value(1), .value(2), .completed])
        #expect(record(SignalProducer<Int, Never>(values: 1, 2, 3)) == [.value(1), .value(2), .value(3), .completed])
        #expect(record(SignalProducer<Int, Never>(values: [4])) == [.value(4), .completed])
        #expect(record(SignalProducer<Int, TestError>(error: TestError(2))) == [.failed(TestError(2))])
        #expect(record(SignalProducer<Int, TestError>(result: .success(5))) == [.value(5), .completed])
        #expect(record(Result<Int, TestError>.failure(TestError(3)).producer) == [.failed(TestError(3))])
        #expect(record(SignalProducer<Int, Never>.empty) == [.completed])
        #expect(record(SignalProducer<Int, Never> { 9 }) == [.value(9), .completed])
        #expect(record(SignalProducer<Int, TestError> { .failure(TestError(4)) }) == [.failed(TestError(4))])
    }

    @Test func throwingActionFailsWithTheThrownError() {
        let recorder = EventRecorder<Int, Swift.Error>()
        SignalProducer<Int, Swift.Error> { throw TestError(8) }.start(recorder.observer)
        #expect(recorder.events.count == 1)
        #expect(recorder.events.first?.error as? TestError == TestError(8))
    }

    @Test func neverSendsNothingUntilDisposed() {
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer<Int, Never>.never.start(recorder.observer)
        #expect(recorder.events.isEmpty)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposingDuringASequenceStopsTheIteration() {
        let seen = Locked<[Int]>([])
        SignalProducer<Int, Never>(1...1_000).startWithSignal { signal, interrupter in
            signal.observeValues { value in
                seen.withLock { $0.append(value) }
                if value == 3 { interrupter.dispose() }
            }
        }
        #expect(seen.withLock { $0 } == [1, 2, 3])
    }

    @Test func signalProducerObservesFromTheStart() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let producer = signal.producer
        input.send(value: 1)
        let recorder = EventRecorder<Int, Never>()
        let disposable = producer.start(recorder.observer)
        input.send(value: 2)
        disposable.dispose()
        input.send(value: 3)
        #expect(recorder.events == [.value(2), .interrupted])
    }

    @Test func startWithSignalHandsOutTheSignalBeforeAnyEvent() {
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>(values: [1, 2]).startWithSignal { signal, _ in
            signal.observe(recorder.observer)
        }
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func interruptingInsideStartWithSignalNeverStartsTheWork() {
        let starts = Counter()
        let producer = SignalProducer<Int, Never> { _, _ in starts.increment() }
        let recorder = EventRecorder<Int, Never>()
        producer.startWithSignal { signal, interrupter in
            signal.observe(recorder.observer)
            interrupter.dispose()
        }
        #expect(starts.value == 0)
        #expect(recorder.events == [.interrupted])
    }

    @Test func startWithSignalStartsTheWorkEvenIfTheSignalIsNeitherObservedNorKept() {
        let starts = Counter()
        let added = AnyDisposable()
        let producer = SignalProducer<Int, Never> { _, lifetime in
            starts.increment()
            lifetime += added
        }
        producer.startWithSignal { _, _ in }
        #expect(starts.value == 1)
        #expect(added.isDisposed, "the unobserved signal is released after the start, which ends it (S4)")
    }

    @Test func releasingAStartHandlersObserverDoesNotEndTheStart() {
        let added = AnyDisposable()
        let kept = Locked<Signal<Int, Never>.Observer?>(nil)
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            lifetime += added
            kept.withLock { $0 = observer }
        }
        let recorder = EventRecorder<Int, Never>()
        let disposable = producer.start(recorder.observer)
        kept.withLock { $0 = nil }
        #expect(!added.isDisposed, "as in ReactiveSwift, only disposal or a terminal event ends a start")
        #expect(recorder.events.isEmpty)
        disposable.dispose()
        #expect(added.isDisposed)
        #expect(recorder.events == [.interrupted])
        _ = kept
    }

    @Test func startFamilyRoutesEachKindOfEvent() {
        let values = Locked<[Int]>([])
        let results = Locked<[Result<Int, TestError>]>([])
        let completed = Counter()
        let failed = Locked<[TestError]>([])
        let interrupted = Counter()
        let source = SignalProducer<Int, TestError>(values: [1, 2])
        source.startWithValues { value in values.withLock { $0.append(value) } }
        source.startWithResult { result in results.withLock { $0.append(result) } }
        source.startWithCompleted { completed.increment() }
        SignalProducer<Int, TestError>(error: TestError(1)).startWithFailed { error in failed.withLock { $0.append(error) } }
        SignalProducer<Int, TestError>.never.startWithInterrupted { interrupted.increment() }.dispose()
        #expect(values.withLock { $0 } == [1, 2])
        #expect(results.withLock { $0 }.map { try? $0.get() } == [1, 2])
        #expect(completed.value == 1)
        #expect(failed.withLock { $0 } == [TestError(1)])
        #expect(interrupted.value == 1)
    }

    @Test func fusedChainAppliesItsStagesInOrder() {
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>(values: [1, 2, 3, 4])
            .map { $0 + 1 }.filter { $0 > 2 }.map { $0 * 2 }
            .start(recorder.observer)
        #expect(recorder.events == [.value(6), .value(8), .value(10), .completed])
    }

    @Test func liftAppliesASignalOperatorPerStart_P3() {
        let starts = Counter()
        let producer = SignalProducer<Int, Never> { observer, _ in
            observer.send(value: starts.increment())
            observer.sendCompleted()
        }
        let lifted = producer.lift { $0.map { $0 * 100 } }
        let recorder = EventRecorder<Int, Never>(streams: 2)
        lifted.start(recorder.observer)
        lifted.start(recorder.observer)
        #expect(recorder.events == [.value(100), .completed, .value(200), .completed])
    }

    @Test func binaryLiftStartsTheArgumentFirst() {
        let order = Locked<[String]>([])
        let left = SignalProducer<Int, Never> { observer, _ in
            order.withLock { $0.append("left") }
            observer.send(value: 1)
            observer.sendCompleted()
        }
        let right = SignalProducer<Int, Never> { observer, _ in
            order.withLock { $0.append("right") }
            observer.send(value: 2)
            observer.sendCompleted()
        }
        let combine: (Signal<Int, Never>) -> (Signal<Int, Never>) -> Signal<Int, Never> = { a in
            { b in
                Signal { output, lifetime in
                    lifetime += b.observeValues { output.send(value: $0) }
                    lifetime += a.observe { output.send($0) }
                }
            }
        }
        let recorder = EventRecorder<Int, Never>()
        left.lift(combine)(right).start(recorder.observer)
        #expect(order.withLock { $0 } == ["right", "left"])
        #expect(recorder.events == [.value(2), .value(1), .completed])
    }

    @Test func disposingALiftedStartInterruptsTheUpstream() {
        let ended = Counter()
        let producer = SignalProducer<Int, Never> { _, lifetime in
            lifetime.observeEnded { ended.increment() }
        }
        let recorder = EventRecorder<Int, Never>()
        producer.lift { $0.map { $0 } }.start(recorder.observer).dispose()
        #expect(ended.value == 1)
        #expect(recorder.events == [.interrupted])
    }
}
