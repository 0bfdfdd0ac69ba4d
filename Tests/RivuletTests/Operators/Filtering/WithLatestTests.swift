import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct WithLatestTests {
    typealias Step = GateStep<Int, TestError, String, Never>

    @Test func withLatestPairsEachValueWithTheSampleesLatest() {
        expectGateOperator(
            [
                .main(.value(0)), .other(.value("a")), .main(.value(1)), .main(.value(2)), .other(.value("b")),
                .other(.value("c")), .main(.value(3)), .main(.completed),
            ] as [Step],
            signal: { $0.withLatest(from: $1).map(GatePair.init) },
            producer: { $0.withLatest(from: $1).map(GatePair.init) },
            yields: [.value(GatePair(1, "a")), .value(GatePair(2, "a")), .value(GatePair(3, "c")), .completed]
        )
    }

    @Test func withLatestIgnoresTheSampleesTerminalEvents() {
        expectGateOperator(
            [.other(.value("a")), .other(.completed), .main(.value(1)), .main(.completed)] as [Step],
            signal: { $0.withLatest(from: $1).map(GatePair.init) },
            producer: { $0.withLatest(from: $1).map(GatePair.init) },
            yields: [.value(GatePair(1, "a")), .completed]
        )
        expectGateOperator(
            [.other(.value("a")), .other(.interrupted), .main(.value(1))] as [Step],
            signal: { $0.withLatest(from: $1).map(GatePair.init) },
            producer: { $0.withLatest(from: $1).map(GatePair.init) },
            yields: [.value(GatePair(1, "a"))]
        )
    }

    @Test func withLatestForwardsFailureAndInterruption_E2_E4_O3() {
        expectGateOperator(
            [.other(.value("a")), .main(.failed(TestError(6))), .main(.value(1))] as [Step],
            signal: { $0.withLatest(from: $1).map(GatePair.init) },
            producer: { $0.withLatest(from: $1).map(GatePair.init) },
            yields: [.failed(TestError(6))]
        )
        expectGateOperator(
            [.main(.interrupted)] as [Step],
            signal: { $0.withLatest(from: $1).map(GatePair.init) },
            producer: { $0.withLatest(from: $1).map(GatePair.init) },
            yields: [.interrupted]
        )
    }

    @Test func producerStartsTheSampleeFirst() {
        // A synchronous samplee has a value in place before the first value of this producer.
        let recorder = EventRecorder<GatePair<Int, String>, Never>()
        SignalProducer<Int, Never>(values: [1, 2])
            .withLatest(from: SignalProducer<String, Never>(values: ["x", "y"]))
            .map(GatePair.init)
            .start(recorder.observer)
        #expect(recorder.events == [.value(GatePair(1, "y")), .value(GatePair(2, "y")), .completed])
    }

    @Test func signalWithAProducerSampleeStartsItAndStopsItWithTheSignal() {
        let samplee = GateProbe<String, Never>()
        let (source, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<GatePair<Int, String>, TestError>()
        source.withLatest(from: samplee.producer).map(GatePair.init).observe(recorder.observer)
        #expect(samplee.starts == 1)
        samplee.send(.value("s"))
        input.send(value: 1)
        input.sendCompleted()
        #expect(recorder.events == [.value(GatePair(1, "s")), .completed])
        #expect(samplee.ended == 1)
    }

    @Test(.leavesAStartRunning) func convertibleSampleeOverloads() {
        // A signal passed where a convertible is expected, on a producer.
        let (samplee, sampleeInput) = Signal<String, Never>.pipe()
        let probe = GateProbe<Int, Never>()
        let recorder = EventRecorder<GatePair<Int, String>, Never>()
        probe.producer.withLatest(from: samplee).map(GatePair.init).start(recorder.observer)
        sampleeInput.send(value: "k")
        probe.send(.value(1))
        #expect(recorder.values == [GatePair(1, "k")])
        let (source, input) = Signal<Int, Never>.pipe()
        let signalRecorder = EventRecorder<GatePair<Int, Int>, Never>()
        source.withLatest(from: ConstantNine()).map(GatePair.init).observe(signalRecorder.observer)
        input.send(value: 2)
        #expect(signalRecorder.values == [GatePair(2, 9)])
    }

    @Test(.leavesAStartRunning) func aSampleeThatEndsStopsItsWorkAtOnceAndItsLastValueStays_P4() {
        let samplee = GateProbe<String, Never>()
        // On a producer.
        let source = GateProbe<Int, TestError>()
        let recorder = EventRecorder<GatePair<Int, String>, TestError>()
        let disposable = source.producer.withLatest(from: samplee.producer.take(first: 1))
            .map(GatePair.init)
            .start(recorder.observer)
        samplee.send(.value("s"))
        #expect(samplee.ended == 1)
        source.send(.value(1))
        #expect(recorder.events == [.value(GatePair(1, "s"))])
        // On a signal.
        let (signal, input) = Signal<Int, TestError>.pipe()
        let signalRecorder = EventRecorder<GatePair<Int, String>, TestError>()
        signal.withLatest(from: samplee.producer.take(first: 1)).map(GatePair.init).observe(signalRecorder.observer)
        samplee.send(.value("t"))
        #expect(samplee.ended == 2)
        input.send(value: 2)
        #expect(signalRecorder.events == [.value(GatePair(2, "t"))])
        withExtendedLifetime(disposable) {}
    }

    @Test func disposingAStartStopsBothSources_P4() {
        let source = GateProbe<Int, TestError>()
        let samplee = GateProbe<String, Never>()
        let recorder = EventRecorder<GatePair<Int, String>, TestError>()
        source.producer.withLatest(from: samplee.producer).map(GatePair.init).start(recorder.observer).dispose()
        #expect(source.ended == 1)
        #expect(samplee.ended == 1)
        #expect(recorder.events == [.interrupted])
    }
}

/// A convertible that is neither a signal nor a producer, to reach the generic overloads.
private struct ConstantNine: SignalProducerConvertible {
    var producer: SignalProducer<Int, Never> { SignalProducer(value: 9) }
}

@Suite(.checksLiveObjects) struct WithLatestStressTests {
    @Test("withLatest stress: 4 source senders, 4 samplee senders; every value paired, serially")
    func withLatestUnderConcurrentSenders() {
        let (source, input) = Signal<Int, Never>.pipe()
        let (samplee, sampleeInput) = Signal<Int, Never>.pipe()
        let sink = GateStressSink<GatePair<Int, Int>, Never>()
        source.withLatest(from: samplee).map(GatePair.init).observe(sink.observer)
        sampleeInput.send(value: -1)
        let finished = withWatchdog(seconds: 300, "withLatest senders") {
            runConcurrently(8) { thread in
                for index in 0..<1_000 {
                    let value = thread * 100_000 + index
                    if thread % 2 == 0 { input.send(value: value) } else { sampleeInput.send(value: value) }
                }
            }
        }
        input.sendCompleted()
        #expect(finished)
        #expect(sink.detector.overlapCount == 0)
        let pairs = sink.recorder.values
        #expect(pairs.count == 4_000)
        #expect(isOrderedPerSender(pairs.map(\.first)))
        #expect(pairs.allSatisfy { $0.second == -1 || ($0.second / 100_000) % 2 == 1 })
        #expect(sink.recorder.terminalCount == 1)
        #expect(sink.recorder.events.last == .completed)
    }
}

@Suite(.checksLiveObjects) struct WithLatestStateMachineTests {
    @Test func eachSourceValueAfterTheFirstSampleeValueMakesAPair() {
        var machine = WithLatestStateMachine<Int, String>(sourceCount: 2)
        #expect(machine.receiveValue(.first(0), from: 1) == .none)
        #expect(machine.receiveValue(.second("a"), from: 0) == .none)
        #expect(machine.receiveValue(.first(1), from: 1) == .emit)
        #expect(PairElement.pair(machine.element(at:)) == (1, "a"))
        machine.didEmit()
    }

    @Test func theSampleeEndsNothingAndTheSourceEndsEverything() {
        var machine = WithLatestStateMachine<Int, String>(sourceCount: 2)
        #expect(machine.receiveValue(.second("a"), from: 0) == .none)
        #expect(machine.receiveTermination(from: 0) == .none)
        #expect(machine.receiveCompletion(from: 0) == .none)
        #expect(machine.receiveValue(.first(1), from: 1) == .emit)
        machine.didEmit()
        #expect(machine.receiveCompletion(from: 1) == .complete)
        #expect(machine.isTerminated)
        #expect(machine.receiveValue(.first(2), from: 1) == .none)
        #expect(machine.receiveTermination(from: 1) == .none)
    }

    @Test func aSourceTerminationIsForwarded_E2_E4() {
        var machine = WithLatestStateMachine<Int, String>(sourceCount: 2)
        #expect(machine.receiveTermination(from: 1) == .forwardTermination)
        #expect(machine.isTerminated)
    }
}
