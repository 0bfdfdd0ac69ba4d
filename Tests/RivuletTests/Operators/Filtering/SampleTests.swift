import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct SampleTests {
    typealias Step = GateStep<Int, TestError, String, Never>
    typealias TriggerStep = GateStep<Int, TestError, (), Never>

    @Test func sampleWithSendsTheLatestValueAtEachSamplerValue() {
        expectGateOperator(
            [
                .other(.value("early")), .main(.value(1)), .main(.value(2)), .other(.value("a")),
                .other(.value("b")), .main(.value(3)), .other(.value("c")),
            ] as [Step],
            signal: { $0.sample(with: $1).map(GatePair.init) },
            producer: { $0.sample(with: $1).map(GatePair.init) },
            yields: [.value(GatePair(2, "a")), .value(GatePair(2, "b")), .value(GatePair(3, "c"))]
        )
    }

    @Test func sampleCompletesOnlyWhenBothHaveCompleted() {
        // After the source completes, its last value can still be sampled.
        expectGateOperator(
            [.main(.value(1)), .main(.completed), .other(.value("a")), .other(.completed)] as [Step],
            signal: { $0.sample(with: $1).map(GatePair.init) },
            producer: { $0.sample(with: $1).map(GatePair.init) },
            yields: [.value(GatePair(1, "a")), .completed]
        )
        expectGateOperator(
            [.main(.value(1)), .other(.completed), .main(.value(2)), .main(.completed)] as [Step],
            signal: { $0.sample(with: $1).map(GatePair.init) },
            producer: { $0.sample(with: $1).map(GatePair.init) },
            yields: [.completed]
        )
        #expect(events(of: [.main(.completed)] as [Step], through: { $0.sample(with: $1).map(GatePair.init) }).isEmpty)
    }

    @Test func sampleForwardsFailureAtOnce_E2() {
        expectGateOperator(
            [.main(.value(1)), .main(.failed(TestError(4))), .other(.value("a"))] as [Step],
            signal: { $0.sample(with: $1).map(GatePair.init) },
            producer: { $0.sample(with: $1).map(GatePair.init) },
            yields: [.failed(TestError(4))]
        )
    }

    @Test func sampleIsInterruptedWhenEitherIsInterrupted_E4() {
        expectGateOperator(
            [.main(.value(1)), .main(.interrupted), .other(.value("a"))] as [Step],
            signal: { $0.sample(with: $1).map(GatePair.init) },
            producer: { $0.sample(with: $1).map(GatePair.init) },
            yields: [.interrupted]
        )
        expectGateOperator(
            [.main(.value(1)), .other(.interrupted), .main(.value(2))] as [Step],
            signal: { $0.sample(with: $1).map(GatePair.init) },
            producer: { $0.sample(with: $1).map(GatePair.init) },
            yields: [.interrupted]
        )
    }

    @Test func whicheverCompletesFirstStopsItsWorkAtOnce_P4() {
        let source = GateProbe<Int, TestError>()
        let sampler = GateProbe<String, Never>()
        let recorder = EventRecorder<GatePair<Int, String>, TestError>()
        let disposable = source.producer.sample(with: sampler.producer).map(GatePair.init).start(recorder.observer)
        source.send(.value(1))
        source.send(.completed)
        #expect(source.ended == 1)
        #expect(sampler.ended == 0)
        sampler.send(.value("a"))
        #expect(recorder.events == [.value(GatePair(1, "a"))])
        disposable.dispose()
        #expect(sampler.ended == 1)

        // A sampler cut short by a stage stops its upstream although the source goes on.
        let shortRecorder = EventRecorder<GatePair<Int, String>, TestError>()
        let short = source.producer.sample(with: sampler.producer.take(first: 1)).map(GatePair.init)
            .start(shortRecorder.observer)
        source.send(.value(2))
        sampler.send(.value("b"))
        #expect(sampler.ended == 2)
        #expect(source.ended == 1)
        source.send(.completed)
        #expect(shortRecorder.events == [.value(GatePair(2, "b")), .completed])
        withExtendedLifetime(short) {}
    }

    @Test func sampleOnSendsTheLatestValue() {
        expectGateOperator(
            [
                .other(.value(())), .main(.value(1)), .other(.value(())), .other(.value(())), .main(.value(2)),
                .main(.completed), .other(.value(())), .other(.completed),
            ] as [TriggerStep],
            signal: { $0.sample(on: $1) },
            producer: { $0.sample(on: $1) },
            yields: [.value(1), .value(1), .value(2), .completed]
        )
        expectGateOperator(
            [.main(.value(1)), .main(.failed(TestError(1)))] as [TriggerStep],
            signal: { $0.sample(on: $1) },
            producer: { $0.sample(on: $1) },
            yields: [.failed(TestError(1))]
        )
    }

    @Test func sampleProducerStartsItselfBeforeTheSampler() {
        // A synchronous source has sent its values by the time a synchronous sampler fires.
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>(values: [1, 2, 3])
            .sample(on: SignalProducer<(), Never>(values: [(), ()]))
            .start(recorder.observer)
        #expect(recorder.events == [.value(3), .value(3), .completed])
    }

    @Test func sampleAcceptsASignalSamplerOnAProducer() {
        let (sampler, samplerInput) = Signal<String, Never>.pipe()
        let probe = GateProbe<Int, Never>()
        let recorder = EventRecorder<GatePair<Int, String>, Never>()
        probe.producer.sample(with: sampler).map(GatePair.init).start(recorder.observer)
        probe.send(.value(5))
        samplerInput.send(value: "x")
        #expect(recorder.values == [GatePair(5, "x")])
        let (trigger, triggerInput) = Signal<(), Never>.pipe()
        let onRecorder = EventRecorder<Int, Never>()
        probe.producer.sample(on: trigger).start(onRecorder.observer)
        probe.send(.value(6))
        triggerInput.send(value: ())
        #expect(onRecorder.values == [6])
    }

    @Test func disposingAStartStopsBothSources_P4() {
        let source = GateProbe<Int, TestError>()
        let sampler = GateProbe<(), Never>()
        let recorder = EventRecorder<Int, TestError>()
        source.producer.sample(on: sampler.producer).start(recorder.observer).dispose()
        #expect(source.starts == 1)
        #expect(sampler.starts == 1)
        #expect(source.ended == 1)
        #expect(sampler.ended == 1)
        #expect(recorder.events == [.interrupted])
    }

    @Test func failingStopsTheSampler_P4() {
        let source = GateProbe<Int, TestError>()
        let sampler = GateProbe<(), Never>()
        source.producer.sample(on: sampler.producer).start()
        source.send(.failed(TestError(1)))
        #expect(sampler.ended == 1)
    }
}

@Suite(.checksLiveObjects) struct SampleStressTests {
    @Test("sample(with:) stress: 4 source senders, 4 sampler senders; every sample arrives, serially")
    func sampleUnderConcurrentSenders() {
        let (source, input) = Signal<Int, Never>.pipe()
        let (sampler, samplerInput) = Signal<Int, Never>.pipe()
        let sink = GateStressSink<GatePair<Int, Int>, Never>()
        source.sample(with: sampler).map(GatePair.init).observe(sink.observer)
        input.send(value: -1)
        let finished = withWatchdog(seconds: 300, "sample senders") {
            runConcurrently(8) { thread in
                for index in 0..<1_000 {
                    let value = thread * 100_000 + index
                    if thread % 2 == 0 { input.send(value: value) } else { samplerInput.send(value: value) }
                }
            }
        }
        input.sendCompleted()
        samplerInput.sendCompleted()
        #expect(finished)
        #expect(sink.detector.overlapCount == 0)
        let samples = sink.recorder.values
        #expect(samples.count == 4_000)
        #expect(isOrderedPerSender(samples.map(\.second)))
        #expect(samples.allSatisfy { $0.first == -1 || ($0.first / 100_000) % 2 == 0 })
        #expect(sink.recorder.terminalCount == 1)
        #expect(sink.recorder.events.last == .completed)
    }
}

@Suite(.checksLiveObjects) struct SampleStateMachineTests {
    @Test func eachSamplerValueAfterTheFirstSourceValueMakesAPair() {
        var machine = SampleStateMachine<Int, String>(sourceCount: 2)
        #expect(machine.receiveValue(.second("early"), from: 1) == .none)
        #expect(machine.receiveValue(.first(1), from: 0) == .none)
        #expect(machine.receiveValue(.first(2), from: 0) == .none)
        #expect(machine.receiveValue(.second("a"), from: 1) == .emit)
        #expect(PairElement.pair(machine.element(at:)) == (2, "a"))
        machine.didEmit()
        #expect(machine.receiveValue(.second("b"), from: 1) == .emit)
        #expect(PairElement.pair(machine.element(at:)) == (2, "b"))
    }

    @Test func completesOnceBothCompleted() {
        var machine = SampleStateMachine<Int, String>(sourceCount: 2)
        #expect(machine.receiveValue(.first(1), from: 0) == .none)
        #expect(machine.receiveCompletion(from: 0) == .none)
        #expect(machine.receiveValue(.second("a"), from: 1) == .emit)
        machine.didEmit()
        #expect(machine.receiveCompletion(from: 1) == .complete)
        #expect(machine.receiveValue(.second("b"), from: 1) == .none)
        #expect(machine.receiveTermination(from: 0) == .none)
    }

    @Test func eitherTerminationIsForwardedOnce_E1_E4() {
        var machine = SampleStateMachine<Int, String>(sourceCount: 2)
        #expect(machine.receiveTermination(from: 1) == .forwardTermination)
        #expect(machine.isTerminated)
        #expect(machine.receiveTermination(from: 0) == .none)
        #expect(machine.receiveCompletion(from: 0) == .none)
    }
}
