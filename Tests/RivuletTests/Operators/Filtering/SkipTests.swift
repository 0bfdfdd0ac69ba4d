import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct SkipTests {
    typealias IntEvent = Signal<Int, TestError>.Event
    typealias TriggerStep = GateStep<Int, TestError, (), Never>

    // MARK: skip(first:)

    @Test func skipFirstDropsTheFirstValues() {
        expectOperator(
            [.value(1), .value(2), .value(3), .value(4), .completed] as [IntEvent],
            signal: { $0.skip(first: 2) },
            producer: { $0.skip(first: 2) },
            yields: [.value(3), .value(4), .completed]
        )
        expectOperator(
            [.value(1), .value(2)] as [IntEvent],
            signal: { $0.skip(first: 0) },
            producer: { $0.skip(first: 0) },
            yields: [.value(1), .value(2)]
        )
    }

    @Test func skipFirstForwardsTerminalEventsWhileSkipping_E2_E4_O3() {
        expectOperator(
            [.value(1), .failed(TestError(1))] as [IntEvent],
            signal: { $0.skip(first: 5) },
            producer: { $0.skip(first: 5) },
            yields: [.failed(TestError(1))]
        )
        expectOperator(
            [.interrupted] as [IntEvent],
            signal: { $0.skip(first: 5) },
            producer: { $0.skip(first: 5) },
            yields: [.interrupted]
        )
        expectOperator(
            [.value(1), .completed] as [IntEvent],
            signal: { $0.skip(first: 5) },
            producer: { $0.skip(first: 5) },
            yields: [.completed]
        )
    }

    @Test func skipFirstCountsPerStart_P2() {
        let producer = SignalProducer<Int, Never>(values: [1, 2, 3]).skip(first: 2)
        let recorder = EventRecorder<Int, Never>(streams: 2)
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        #expect(recorder.events == [.value(3), .completed, .value(3), .completed])
    }

    // MARK: skip(while:)

    @Test func skipWhileDropsUntilThePredicateFailsOnce() {
        let calls = Locked<[Int]>([])
        let received = events(
            of: [.value(1), .value(2), .value(5), .value(1), .value(2), .completed] as [IntEvent],
            through: {
                $0.skip(while: { value in
                    calls.withLock { $0.append(value) }
                    return value < 3
                })
            }
        )
        #expect(received == [.value(5), .value(1), .value(2), .completed])
        // Once open, the predicate is no longer consulted.
        #expect(calls.withLock { $0 } == [1, 2, 5])
        expectOperator(
            [.value(1), .value(2), .value(5), .value(1), .completed] as [IntEvent],
            signal: { $0.skip(while: { $0 < 3 }) },
            producer: { $0.skip(while: { $0 < 3 }) },
            yields: [.value(5), .value(1), .completed]
        )
    }

    @Test func skipWhileForwardsFailureAndInterruption_E2_E4_O3() {
        expectOperator(
            [.value(1), .failed(TestError(4))] as [IntEvent],
            signal: { $0.skip(while: { _ in true }) },
            producer: { $0.skip(while: { _ in true }) },
            yields: [.failed(TestError(4))]
        )
        expectOperator(
            [.value(1), .interrupted] as [IntEvent],
            signal: { $0.skip(while: { _ in true }) },
            producer: { $0.skip(while: { _ in true }) },
            yields: [.interrupted]
        )
    }

    // MARK: skip(until:)

    @Test func skipUntilOpensOnTheTriggersValue() {
        expectGateOperator(
            [
                .main(.value(1)), .main(.value(2)), .other(.value(())), .main(.value(3)),
                .other(.value(())), .main(.value(4)), .main(.completed),
            ] as [TriggerStep],
            signal: { $0.skip(until: $1) },
            producer: { $0.skip(until: $1) },
            yields: [.value(3), .value(4), .completed]
        )
    }

    @Test func skipUntilOpensOnTheTriggersCompletionAndIsInterruptedByItsInterruption() {
        expectGateOperator(
            [.main(.value(1)), .other(.completed), .main(.value(2))] as [TriggerStep],
            signal: { $0.skip(until: $1) },
            producer: { $0.skip(until: $1) },
            yields: [.value(2)]
        )
        // The gate can never open any more (ReactiveSwift interrupts the result too).
        expectGateOperator(
            [.main(.value(1)), .other(.interrupted), .main(.value(2)), .main(.completed)] as [TriggerStep],
            signal: { $0.skip(until: $1) },
            producer: { $0.skip(until: $1) },
            yields: [.interrupted]
        )
        // Once open, the trigger's interruption means nothing.
        expectGateOperator(
            [.other(.value(())), .other(.interrupted), .main(.value(2)), .main(.completed)] as [TriggerStep],
            signal: { $0.skip(until: $1) },
            producer: { $0.skip(until: $1) },
            yields: [.value(2), .completed]
        )
    }

    @Test func skipUntilForwardsTerminalEventsBeforeTheTrigger_E2_E4() {
        expectGateOperator(
            [.main(.value(1)), .main(.failed(TestError(9))), .other(.value(())), .main(.value(2))] as [TriggerStep],
            signal: { $0.skip(until: $1) },
            producer: { $0.skip(until: $1) },
            yields: [.failed(TestError(9))]
        )
        expectGateOperator(
            [.main(.interrupted), .other(.value(()))] as [TriggerStep],
            signal: { $0.skip(until: $1) },
            producer: { $0.skip(until: $1) },
            yields: [.interrupted]
        )
    }

    @Test(.leavesAStartRunning) func theTriggerIsStoppedOnceItHasOpenedTheGate_P4() {
        // As in ReactiveSwift: once open, the gate no longer needs its trigger.
        let source = GateProbe<Int, TestError>()
        let trigger = GateProbe<(), Never>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = source.producer.skip(until: trigger.producer).start(recorder.observer)
        trigger.send(.value(()))
        #expect(trigger.ended == 1)
        #expect(source.ended == 0)
        source.send(.value(1))
        #expect(recorder.values == [1])

        let (signal, input) = Signal<Int, TestError>.pipe()
        let (triggerSignal, triggerInput) = Signal<(), Never>.pipe()
        let triggerReleased = Counter()
        let signalRecorder = EventRecorder<Int, TestError>()
        signal.skip(until: triggerSignal.on(disposed: { triggerReleased.increment() }))
            .observe(signalRecorder.observer)
        triggerInput.send(value: ())
        #expect(triggerReleased.value == 1)
        input.send(value: 2)
        #expect(signalRecorder.values == [2])
        withExtendedLifetime((disposable, triggerInput, input)) {}
    }

    @Test func skipUntilProducerStartsTheTriggerFirst() {
        // A trigger that fires synchronously opens the gate before the first value arrives.
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>(values: [1, 2])
            .skip(until: SignalProducer<(), Never>(value: ()))
            .start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test(.leavesAStartRunning) func skipUntilAcceptsASignalTriggerOnAProducer() {
        let (trigger, triggerInput) = Signal<(), Never>.pipe()
        let probe = GateProbe<Int, Never>()
        let recorder = EventRecorder<Int, Never>()
        probe.producer.skip(until: trigger).start(recorder.observer)
        probe.send(.value(1))
        triggerInput.send(value: ())
        probe.send(.value(2))
        #expect(recorder.values == [2])
    }

    @Test func disposingTheStartStopsBothSources_P4() {
        let source = GateProbe<Int, TestError>()
        let trigger = GateProbe<(), Never>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = source.producer.skip(until: trigger.producer).start(recorder.observer)
        #expect(source.starts == 1)
        #expect(trigger.starts == 1)
        disposable.dispose()
        #expect(source.ended == 1)
        #expect(trigger.ended == 1)
        #expect(recorder.events == [.interrupted])
    }

    @Test func terminatingReleasesTheSourceObservations_S5() {
        let (source, input) = Signal<Int, TestError>.pipe()
        let (trigger, triggerInput) = Signal<(), Never>.pipe()
        let sourceReleased = Counter()
        let triggerReleased = Counter()
        let result = source.on(disposed: { sourceReleased.increment() })
            .skip(until: trigger.on(disposed: { triggerReleased.increment() }))
        let recorder = EventRecorder<Int, TestError>()
        result.observe(recorder.observer)
        input.sendCompleted()
        #expect(recorder.events == [.completed])
        #expect(sourceReleased.value == 1)
        #expect(triggerReleased.value == 1)
        withExtendedLifetime(triggerInput) {}
    }
}

@Suite(.checksLiveObjects) struct SkipStressTests {
    @Test("skip(until:) stress: 8 senders after the trigger, nothing lost, serial, one terminal")
    func skipUntilUnderConcurrentSenders() {
        let (source, input) = Signal<Int, Never>.pipe()
        let (trigger, triggerInput) = Signal<(), Never>.pipe()
        let sink = GateStressSink<Int, Never>()
        source.skip(until: trigger).observe(sink.observer)
        input.send(value: -1)
        let finished = withWatchdog(seconds: 300, "skip(until:) senders") {
            runConcurrently(8) { thread in
                if thread == 0 { triggerInput.send(value: ()) }
                for index in 0..<1_000 { input.send(value: thread * 100_000 + index) }
            }
        }
        input.sendCompleted()
        #expect(finished)
        #expect(sink.detector.overlapCount == 0)
        let values = sink.recorder.values
        // Thread 0 opened the gate before sending, so none of its values can be lost.
        #expect(values.filter { $0 >= 0 && $0 < 100_000 }.count == 1_000)
        #expect(!values.contains(-1))
        #expect(isOrderedPerSender(values))
        #expect(sink.recorder.terminalCount == 1)
        #expect(sink.recorder.events.last == .completed)
    }
}
