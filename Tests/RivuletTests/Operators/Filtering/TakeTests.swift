import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct TakeTests {
    typealias IntEvent = Signal<Int, TestError>.Event
    typealias TriggerStep = GateStep<Int, TestError, (), Never>
    typealias ReplacementStep = GateStep<Int, TestError, Int, TestError>

    // MARK: take(first:)

    @Test func takeFirstForwardsCountValuesThenCompletes() {
        expectOperator(
            [.value(1), .value(2), .value(3), .value(4), .completed] as [IntEvent],
            signal: { $0.take(first: 2) },
            producer: { $0.take(first: 2) },
            yields: [.value(1), .value(2), .completed]
        )
        expectOperator(
            [.value(1), .completed] as [IntEvent],
            signal: { $0.take(first: 3) },
            producer: { $0.take(first: 3) },
            yields: [.value(1), .completed]
        )
    }

    @Test func takeFirstForwardsFailureAndInterruption_E2_E4_O3() {
        expectOperator(
            [.value(1), .failed(TestError(5)), .value(2)] as [IntEvent],
            signal: { $0.take(first: 3) },
            producer: { $0.take(first: 3) },
            yields: [.value(1), .failed(TestError(5))]
        )
        expectOperator(
            [.interrupted] as [IntEvent],
            signal: { $0.take(first: 3) },
            producer: { $0.take(first: 3) },
            yields: [.interrupted]
        )
    }

    @Test func takeFirstStopsTheUpstreamWhenTheCountIsReached_P4() {
        let probe = GateProbe<Int, Never>()
        let recorder = EventRecorder<Int, Never>()
        probe.producer.take(first: 2).start(recorder.observer)
        probe.send(.value(1))
        #expect(probe.ended == 0)
        probe.send(.value(2))
        #expect(probe.ended == 1)
        probe.send(.value(3))
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func takeFirstStopsASynchronousUpstreamEarly() {
        let pulled = Counter()
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>(1...1_000)
            .on(value: { _ in pulled.increment() })
            .take(first: 3)
            .start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
        #expect(pulled.value == 3)
    }

    @Test func takeFirstZeroEndsAtOnceAsInReactiveSwift() {
        // As in ReactiveSwift: the signal has already completed (observers see `interrupted`, S3),
        // and the producer is interrupted without starting its upstream.
        #expect(events(of: [.value(1)] as [IntEvent], through: { $0.take(first: 0) }) == [.interrupted])
        let probe = GateProbe<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        probe.producer.take(first: 0).start(recorder.observer)
        #expect(recorder.events == [.interrupted])
        #expect(probe.starts == 0)
    }

    @Test func disposingATakeFirstStartStopsTheUpstream_P4() {
        let probe = GateProbe<Int, Never>()
        let recorder = EventRecorder<Int, Never>()
        probe.producer.take(first: 5).start(recorder.observer).dispose()
        #expect(probe.ended == 1)
        #expect(recorder.events == [.interrupted])
    }

    @Test func stagesSendNothingAfterTheirOwnTerminalEvent_E1() {
        // The stages alone, fed by an upstream that breaks E1: nothing may follow their terminal.
        typealias Stage = EventTransform<Int, TestError, Int, TestError>
        func run(_ stage: Stage) -> [IntEvent] {
            var output: [IntEvent] = []
            let (lifetime, token) = Lifetime.make()
            let sink = stage({ output.append($0) }, lifetime)
            for event in [.value(1), .value(5), .completed, .value(2), .completed, .failed(TestError(1))] as [IntEvent] {
                sink(event)
            }
            withExtendedLifetime(token) {}
            return output
        }
        #expect(run(Signal.Event.take(first: 1)) == [.value(1), .completed])
        #expect(run(Signal.Event.take(last: 1)) == [.value(5), .completed])
        #expect(run(Signal.Event.take(while: { $0 < 3 }, sendsLast: false)) == [.value(1), .completed])
        #expect(run(Signal.Event.take(while: { $0 < 3 }, sendsLast: true)) == [.value(1), .value(5), .completed])
    }

    // MARK: take(last:)

    @Test func takeLastSendsTheLastValuesOnCompletion() {
        expectOperator(
            [.value(1), .value(2), .value(3), .value(4), .value(5), .completed] as [IntEvent],
            signal: { $0.take(last: 3) },
            producer: { $0.take(last: 3) },
            yields: [.value(3), .value(4), .value(5), .completed]
        )
        expectOperator(
            [.value(1), .completed] as [IntEvent],
            signal: { $0.take(last: 3) },
            producer: { $0.take(last: 3) },
            yields: [.value(1), .completed]
        )
        expectOperator(
            [.value(1), .value(2), .completed] as [IntEvent],
            signal: { $0.take(last: 0) },
            producer: { $0.take(last: 0) },
            yields: [.completed]
        )
    }

    @Test func takeLastSendsNothingBeforeCompletion() {
        #expect(events(of: [.value(1), .value(2)] as [IntEvent], through: { $0.take(last: 1) }).isEmpty)
    }

    @Test func takeLastForwardsFailureAndInterruptionAtOnce_E2_E4_O3() {
        expectOperator(
            [.value(1), .value(2), .failed(TestError(1))] as [IntEvent],
            signal: { $0.take(last: 2) },
            producer: { $0.take(last: 2) },
            yields: [.failed(TestError(1))]
        )
        expectOperator(
            [.value(1), .interrupted] as [IntEvent],
            signal: { $0.take(last: 2) },
            producer: { $0.take(last: 2) },
            yields: [.interrupted]
        )
    }

    // MARK: take(while:), take(until: predicate)

    @Test func takeWhileCompletesAtTheFirstFailingValueWithoutSendingIt() {
        expectOperator(
            [.value(1), .value(2), .value(5), .value(1)] as [IntEvent],
            signal: { $0.take(while: { $0 < 3 }) },
            producer: { $0.take(while: { $0 < 3 }) },
            yields: [.value(1), .value(2), .completed]
        )
        expectOperator(
            [.value(1), .failed(TestError(2))] as [IntEvent],
            signal: { $0.take(while: { $0 < 3 }) },
            producer: { $0.take(while: { $0 < 3 }) },
            yields: [.value(1), .failed(TestError(2))]
        )
        expectOperator(
            [.interrupted] as [IntEvent],
            signal: { $0.take(while: { $0 < 3 }) },
            producer: { $0.take(while: { $0 < 3 }) },
            yields: [.interrupted]
        )
    }

    @Test func takeUntilPredicateSendsTheFailingValueThenCompletes() {
        expectOperator(
            [.value(1), .value(2), .value(5), .value(1)] as [IntEvent],
            signal: { $0.take(until: { $0 < 3 }) },
            producer: { $0.take(until: { $0 < 3 }) },
            yields: [.value(1), .value(2), .value(5), .completed]
        )
        expectOperator(
            [.value(1), .failed(TestError(2))] as [IntEvent],
            signal: { $0.take(until: { $0 < 3 }) },
            producer: { $0.take(until: { $0 < 3 }) },
            yields: [.value(1), .failed(TestError(2))]
        )
    }

    @Test func takeWhileStopsTheUpstream_P4() {
        let probe = GateProbe<Int, Never>()
        probe.producer.take(while: { $0 > 0 }).start()
        probe.send(.value(1))
        probe.send(.value(0))
        #expect(probe.ended == 1)
    }

    // MARK: take(until: trigger)

    @Test func takeUntilTriggerCompletesOnTheTriggersValueOrCompletion() {
        expectGateOperator(
            [.main(.value(1)), .main(.value(2)), .other(.value(())), .main(.value(3))] as [TriggerStep],
            signal: { $0.take(until: $1) },
            producer: { $0.take(until: $1) },
            yields: [.value(1), .value(2), .completed]
        )
        expectGateOperator(
            [.main(.value(1)), .other(.completed), .main(.value(3))] as [TriggerStep],
            signal: { $0.take(until: $1) },
            producer: { $0.take(until: $1) },
            yields: [.value(1), .completed]
        )
    }

    @Test func takeUntilTriggerIgnoresTheTriggersInterruption() {
        expectGateOperator(
            [.main(.value(1)), .other(.interrupted), .main(.value(2)), .main(.completed)] as [TriggerStep],
            signal: { $0.take(until: $1) },
            producer: { $0.take(until: $1) },
            yields: [.value(1), .value(2), .completed]
        )
    }

    @Test func takeUntilTriggerForwardsFailureAndInterruption_E2_E4_O3() {
        expectGateOperator(
            [.main(.value(1)), .main(.failed(TestError(3))), .other(.value(()))] as [TriggerStep],
            signal: { $0.take(until: $1) },
            producer: { $0.take(until: $1) },
            yields: [.value(1), .failed(TestError(3))]
        )
        expectGateOperator(
            [.main(.interrupted), .other(.value(()))] as [TriggerStep],
            signal: { $0.take(until: $1) },
            producer: { $0.take(until: $1) },
            yields: [.interrupted]
        )
    }

    @Test func takeUntilTriggerStopsBothSourcesWhenItCompletes_P4() {
        let source = GateProbe<Int, TestError>()
        let trigger = GateProbe<(), Never>()
        let recorder = EventRecorder<Int, TestError>()
        source.producer.take(until: trigger.producer).start(recorder.observer)
        source.send(.value(1))
        trigger.send(.value(()))
        #expect(source.ended == 1)
        #expect(trigger.ended == 1)
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test(.leavesAStartRunning) func takeUntilStopsItsSourcesEvenIfTheCompletionIsSwallowedDownstream() {
        // take(untilReplacement:) does not forward completion, so the start goes on; the sources of
        // the completed take(until:) stage must stop all the same.
        let source = GateProbe<Int, TestError>()
        let trigger = GateProbe<(), Never>()
        let replacement = GateProbe<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        source.producer.take(until: trigger.producer)
            .take(untilReplacement: replacement.producer)
            .start(recorder.observer)
        source.send(.value(1))
        trigger.send(.value(()))
        #expect(source.ended == 1)
        #expect(trigger.ended == 1)
        #expect(replacement.ended == 0)
        source.send(.value(2))
        replacement.send(.value(10))
        #expect(recorder.events == [.value(1), .value(10)])
    }

    @Test func disposingATakeUntilStartStopsBothSources_P4() {
        let source = GateProbe<Int, TestError>()
        let trigger = GateProbe<(), Never>()
        source.producer.take(until: trigger.producer).start().dispose()
        #expect(source.ended == 1)
        #expect(trigger.ended == 1)
    }

    @Test func takeUntilProducerStartsTheTriggerFirst() {
        // A trigger that fires synchronously ends the start before this producer is started.
        let source = GateProbe<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        source.producer.take(until: SignalProducer<(), Never>(value: ())).start(recorder.observer)
        #expect(recorder.events == [.completed])
        #expect(source.starts == 0)
    }

    @Test func takeUntilAcceptsASignalTriggerOnAProducer() {
        let (trigger, triggerInput) = Signal<(), Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        let probe = GateProbe<Int, Never>()
        probe.producer.take(until: trigger).start(recorder.observer)
        probe.send(.value(1))
        triggerInput.send(value: ())
        probe.send(.value(2))
        #expect(recorder.events == [.value(1), .completed])
        #expect(probe.ended == 1)
    }

    @Test func takeUntilTriggerReleasesItsSourcesOnCompletion_S5() {
        let (source, input) = Signal<Int, TestError>.pipe()
        let (trigger, triggerInput) = Signal<(), Never>.pipe()
        let released = Counter()
        let result = source.on(disposed: { released.increment() })
            .take(until: trigger.on(disposed: { released.increment() }))
        result.observe { _ in }
        triggerInput.send(value: ())
        #expect(released.value == 2)
        withExtendedLifetime(input) {}
    }

    // MARK: take(during:)

    @Test func takeDuringCompletesWhenTheLifetimeEnds() {
        let (lifetime, token) = Lifetime.make()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let signalRecorder = EventRecorder<Int, TestError>()
        signal.take(during: lifetime).observe(signalRecorder.observer)
        let probe = GateProbe<Int, TestError>()
        let producerRecorder = EventRecorder<Int, TestError>()
        probe.producer.take(during: lifetime).start(producerRecorder.observer)
        input.send(value: 1)
        probe.send(.value(1))
        token.dispose()
        input.send(value: 2)
        probe.send(.value(2))
        #expect(signalRecorder.events == [.value(1), .completed])
        #expect(producerRecorder.events == [.value(1), .completed])
        #expect(probe.ended == 1)
    }

    @Test func takeDuringAnEndedLifetimeEndsAtOnce() {
        let probe = GateProbe<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        probe.producer.take(during: .empty).start(recorder.observer)
        // As in ReactiveSwift, whose producer observes a signal that has already completed (S3).
        #expect(recorder.events == [.interrupted])
        #expect(probe.starts == 0)
        // The signal has completed before anyone could observe it (S3).
        #expect(events(of: [.value(1)] as [IntEvent], through: { $0.take(during: .empty) }) == [.interrupted])
    }

    @Test func takeDuringForwardsFailureAndInterruption_E2_E4_O3() {
        let (lifetime, token) = Lifetime.make()
        expectOperator(
            [.value(1), .failed(TestError(8))] as [IntEvent],
            signal: { $0.take(during: lifetime) },
            producer: { $0.take(during: lifetime) },
            yields: [.value(1), .failed(TestError(8))]
        )
        expectOperator(
            [.interrupted] as [IntEvent],
            signal: { $0.take(during: lifetime) },
            producer: { $0.take(during: lifetime) },
            yields: [.interrupted]
        )
        withExtendedLifetime(token) {}
    }

    @Test func takeDuringStopsObservingTheLifetimeWhenItTerminates() {
        // After the stream ends, ending the lifetime must not reach the released operator.
        let (lifetime, token) = Lifetime.make()
        let probe = GateProbe<Int, Never>()
        let recorder = EventRecorder<Int, Never>()
        probe.producer.take(during: lifetime).start(recorder.observer)
        probe.send(.completed)
        token.dispose()
        #expect(recorder.events == [.completed])
    }

    // MARK: take(untilReplacement:)

    @Test func takeUntilReplacementSwitchesAtTheReplacementsFirstEvent() {
        expectGateOperator(
            [
                .main(.value(1)), .main(.value(2)), .other(.value(10)), .main(.value(3)),
                .other(.value(11)), .other(.completed),
            ] as [ReplacementStep],
            signal: { $0.take(untilReplacement: $1) },
            producer: { $0.take(untilReplacement: $1) },
            yields: [.value(1), .value(2), .value(10), .value(11), .completed]
        )
    }

    @Test func takeUntilReplacementIgnoresTheSourcesCompletion() {
        expectGateOperator(
            [.main(.value(1)), .main(.completed), .other(.value(10)), .other(.completed)] as [ReplacementStep],
            signal: { $0.take(untilReplacement: $1) },
            producer: { $0.take(untilReplacement: $1) },
            yields: [.value(1), .value(10), .completed]
        )
    }

    @Test func takeUntilReplacementForwardsFailuresAndInterruptions_E2_E4_O3() {
        expectGateOperator(
            [.main(.value(1)), .main(.failed(TestError(1))), .other(.value(10))] as [ReplacementStep],
            signal: { $0.take(untilReplacement: $1) },
            producer: { $0.take(untilReplacement: $1) },
            yields: [.value(1), .failed(TestError(1))]
        )
        expectGateOperator(
            [.main(.value(1)), .other(.failed(TestError(2)))] as [ReplacementStep],
            signal: { $0.take(untilReplacement: $1) },
            producer: { $0.take(untilReplacement: $1) },
            yields: [.value(1), .failed(TestError(2))]
        )
        expectGateOperator(
            [.main(.interrupted), .other(.value(10))] as [ReplacementStep],
            signal: { $0.take(untilReplacement: $1) },
            producer: { $0.take(untilReplacement: $1) },
            yields: [.interrupted]
        )
        expectGateOperator(
            [.other(.interrupted), .main(.value(1))] as [ReplacementStep],
            signal: { $0.take(untilReplacement: $1) },
            producer: { $0.take(untilReplacement: $1) },
            yields: [.interrupted]
        )
    }

    @Test func replacingStopsTheOriginalProducer() {
        let source = GateProbe<Int, TestError>()
        let replacement = GateProbe<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = source.producer.take(untilReplacement: replacement.producer).start(recorder.observer)
        #expect(replacement.starts == 1)
        #expect(source.starts == 1)
        replacement.send(.value(10))
        #expect(source.ended == 1)
        #expect(replacement.ended == 0)
        disposable.dispose()
        #expect(replacement.ended == 1)
        #expect(recorder.events == [.value(10), .interrupted])
    }

    @Test func theOriginalStartsAndEndsAtOnceWhenTheReplacementSendsDuringItsStart() {
        let source = GateProbe<Int, TestError>()
        let rest = GateProbe<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = source.producer.take(untilReplacement: SignalProducer(value: 0).concat(rest.producer))
            .start(recorder.observer)
        #expect(recorder.events == [.value(0)])
        #expect(source.starts == 1, "as in ReactiveSwift, the original is started after the replacement")
        #expect(source.ended == 1, "and ended at once, since the replacement has taken over")
        disposable.dispose()
    }

    @Test func theOriginalIsNotStartedWhenTheReplacementEndsDuringItsStart() {
        let source = GateProbe<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        source.producer.take(untilReplacement: SignalProducer(value: 0)).start(recorder.observer)
        #expect(recorder.events == [.value(0), .completed])
        #expect(source.starts == 0, "as in ReactiveSwift: the result has ended before the original's turn")
    }

    @Test(.leavesAStartRunning) func theSourcesCompletionStopsItsStart() {
        let pulled = Counter()
        let replacement = GateProbe<Int, TestError>()
        let recorder = EventRecorder<Int, TestError>()
        // take(first:) completes; the completion is not forwarded, but the upstream stops.
        SignalProducer<Int, TestError>(1...1_000)
            .on(value: { _ in pulled.increment() })
            .take(first: 2)
            .take(untilReplacement: replacement.producer)
            .start(recorder.observer)
        #expect(pulled.value == 2)
        #expect(recorder.events == [.value(1), .value(2)])
        let source = GateProbe<Int, TestError>()
        source.producer.take(untilReplacement: replacement.producer).start()
        source.send(.completed)
        #expect(source.ended == 1)
    }

    @Test func replacingReleasesTheOriginalSignalsObservation() {
        let (source, input) = Signal<Int, TestError>.pipe()
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        let released = Counter()
        let result = source.on(disposed: { released.increment() }).take(untilReplacement: replacement)
        result.observe { _ in }
        replacementInput.send(value: 1)
        #expect(released.value == 1)
        withExtendedLifetime(input) {}
    }
}

@Suite(.checksLiveObjects) struct TakeStressTests {
    @Test("take(until:) stress: trigger races 7 senders; serial, ordered, exactly one terminal")
    func takeUntilTriggerRacingSenders() {
        for _ in 0..<20 {
            let (source, input) = Signal<Int, Never>.pipe()
            let (trigger, triggerInput) = Signal<(), Never>.pipe()
            let sink = GateStressSink<Int, Never>()
            source.take(until: trigger).observe(sink.observer)
            let finished = withWatchdog(seconds: 300, "take(until:) senders") {
                runConcurrently(8) { thread in
                    for index in 0..<300 {
                        if thread == 7 {
                            if index == 150 { triggerInput.send(value: ()) }
                        } else {
                            input.send(value: thread * 100_000 + index)
                        }
                    }
                }
            }
            #expect(finished)
            #expect(sink.detector.overlapCount == 0)
            #expect(isOrderedPerSender(sink.recorder.values))
            #expect(sink.recorder.terminalCount == 1)
            #expect(sink.recorder.events.last == .completed)
        }
    }

    @Test("take(untilReplacement:) stress: 4 senders on each side; no source value after the switch")
    func takeUntilReplacementUnderConcurrentSenders() {
        let (source, input) = Signal<Int, Never>.pipe()
        let (replacement, replacementInput) = Signal<Int, Never>.pipe()
        let sink = GateStressSink<Int, Never>()
        source.take(untilReplacement: replacement).observe(sink.observer)
        let finished = withWatchdog(seconds: 300, "take(untilReplacement:) senders") {
            runConcurrently(8) { thread in
                for index in 0..<1_000 {
                    // Even threads feed the source, odd threads the replacement.
                    let value = thread * 100_000 + index
                    if thread % 2 == 0 { input.send(value: value) } else { replacementInput.send(value: value) }
                }
            }
        }
        replacementInput.sendCompleted()
        #expect(finished)
        #expect(sink.detector.overlapCount == 0)
        let values = sink.recorder.values
        #expect(isOrderedPerSender(values))
        let fromReplacement = { (value: Int) in (value / 100_000) % 2 == 1 }
        if let switchIndex = values.firstIndex(where: fromReplacement) {
            #expect(values[switchIndex...].allSatisfy(fromReplacement))
        }
        // No replacement value is lost: all 4 × 1000 arrive.
        #expect(values.filter(fromReplacement).count == 4_000)
        #expect(sink.recorder.terminalCount == 1)
        #expect(sink.recorder.events.last == .completed)
    }

    @Test("take(during:) stress: the lifetime ends while 7 threads send; exactly one terminal")
    func takeDuringLifetimeEndingUnderLoad() {
        for _ in 0..<20 {
            let (source, input) = Signal<Int, Never>.pipe()
            let (lifetime, token) = Lifetime.make()
            let sink = GateStressSink<Int, Never>()
            source.take(during: lifetime).observe(sink.observer)
            let finished = withWatchdog(seconds: 300, "take(during:) senders") {
                runConcurrently(8) { thread in
                    for index in 0..<300 {
                        if thread == 7 {
                            if index == 150 { token.dispose() }
                        } else {
                            input.send(value: thread * 100_000 + index)
                        }
                    }
                }
            }
            #expect(finished)
            #expect(sink.detector.overlapCount == 0)
            #expect(isOrderedPerSender(sink.recorder.values))
            #expect(sink.recorder.terminalCount == 1)
            #expect(sink.recorder.events.last == .completed)
        }
    }
}
