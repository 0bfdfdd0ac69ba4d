import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct FlatMapErrorTests {
    @Test func failureIsReplacedByTheProducerForIt_P3() {
        expectOperator(
            [.value(1), .failed(TestError(5)), .value(99)] as [Signal<Int, TestError>.Event],
            signal: { $0.flatMapError { SignalProducer<Int, Never>([$0.code * 10, 0]) } },
            producer: { $0.flatMapError { SignalProducer<Int, Never>([$0.code * 10, 0]) } },
            yields: [.value(1), .value(50), .value(0), .completed]
        )
    }

    @Test func completionAndInterruptionAreForwarded_E4_O3() {
        expectOperator(
            [.value(1), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.flatMapError { _ in SignalProducer<Int, Never>(value: 0) } },
            producer: { $0.flatMapError { _ in SignalProducer<Int, Never>(value: 0) } },
            yields: [.value(1), .completed]
        )
        expectOperator(
            [.value(1), .interrupted] as [Signal<Int, TestError>.Event],
            signal: { $0.flatMapError { _ in SignalProducer<Int, Never>(value: 0) } },
            producer: { $0.flatMapError { _ in SignalProducer<Int, Never>(value: 0) } },
            yields: [.value(1), .interrupted]
        )
    }

    @Test func theReplacementsFailureIsForwarded_E2() {
        expectOperator(
            [.failed(TestError(1))] as [Signal<Int, TestError>.Event],
            signal: { $0.flatMapError { SignalProducer<Int, TestError>(error: TestError($0.code + 1)) } },
            producer: { $0.flatMapError { SignalProducer<Int, TestError>(error: TestError($0.code + 1)) } },
            yields: [.failed(TestError(2))]
        )
    }

    @Test func acceptsAnyConvertible() {
        let (replacement, replacementInput) = Signal<Int, Never>.pipe()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, Never>()
        signal.flatMapError { _ in replacement }.observe(recorder.observer)
        input.send(error: TestError())
        replacementInput.send(value: 4)
        replacementInput.sendCompleted()
        #expect(recorder.events == [.value(4), .completed])
    }

    /// As in ReactiveSwift: the failed upstream's start ends once its failure has been handled,
    /// which includes starting the replacement.
    @Test func upstreamEndsOnceTheReplacementHasStarted() {
        let upstreamEnded = Counter()
        let upstream = SignalProducer<Int, TestError> { observer, lifetime in
            lifetime.observeEnded { upstreamEnded.increment() }
            observer.send(error: TestError())
        }
        let endedWhenReplacementStarted = Locked(-1)
        let replacement = SignalProducer<Int, Never> { _, _ in
            endedWhenReplacementStarted.withLock { $0 = upstreamEnded.value }
        }
        let disposable = upstream.flatMapError { _ in replacement }.start()
        #expect(endedWhenReplacementStarted.withLock { $0 } == 0)
        #expect(upstreamEnded.value == 1)
        disposable.dispose()
    }

    @Test(arguments: Via.allCases)
    func disposingStopsTheReplacement_P4(via: Via) {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let replacement = ControlledProducer<Int, Never>()
        let recorder = EventRecorder<Int, Never>()
        let disposable: Disposable? =
            switch via {
            case .signal: signal.flatMapError { _ in replacement.producer }.observe(recorder.observer)
            case .producer: SignalProducer(signal).flatMapError { _ in replacement.producer }.start(recorder.observer)
            }
        input.send(error: TestError())
        #expect(replacement.isRunning)
        disposable?.dispose()
        #expect(replacement.ended == 1)
        replacement.send(value: 1)
        #expect(recorder.values.isEmpty)
    }

    @Test func disposingTheProducerStopsTheUpstream_P4() {
        let upstream = ControlledProducer<Int, TestError>()
        let disposable = upstream.producer.flatMapError { _ in SignalProducer<Int, Never>.empty }.start()
        #expect(upstream.isRunning)
        disposable.dispose()
        #expect(upstream.ended == 1)
    }
}
