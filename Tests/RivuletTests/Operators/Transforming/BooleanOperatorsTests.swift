import Testing
@testable import Rivulet
import RivuletContracts

private typealias Step = TwoInputStep<Bool, Bool>

@Suite(.checksLiveObjects) struct BooleanOperatorsTests {
    @Test func negateInvertsEachValue() {
        expectOperator(
            [.value(true), .value(false), .completed] as [Signal<Bool, TestError>.Event],
            signal: { $0.negate() },
            producer: { $0.negate() },
            yields: [.value(false), .value(true), .completed]
        )
        expectOperator(
            [.value(true), .failed(TestError(2))] as [Signal<Bool, TestError>.Event],
            signal: { $0.negate() },
            producer: { $0.negate() },
            yields: [.value(false), .failed(TestError(2))]
        )
    }

    @Test func andCombinesTheLatestValues() {
        expectTwoInputOperator(
            [
                .first(.value(true)), .second(.value(false)), .second(.value(true)), .first(.value(false)),
                .first(.completed), .second(.completed),
            ] as [Step],
            signal: { $0.and($1) },
            producer: { $0.and($1) },
            yields: [.value(false), .value(true), .value(false), .completed]
        )
    }

    @Test func orCombinesTheLatestValues() {
        expectTwoInputOperator(
            [
                .first(.value(false)), .second(.value(false)), .second(.value(true)), .first(.value(true)),
                .second(.value(false)), .first(.value(false)),
            ] as [Step],
            signal: { $0.or($1) },
            producer: { $0.or($1) },
            yields: [.value(false), .value(true), .value(true), .value(true), .value(false)]
        )
    }

    @Test func failureAndInterruptionOfEitherInputAreForwarded_E2_E4() {
        expectTwoInputOperator(
            [.first(.value(true)), .second(.failed(TestError(5)))] as [Step],
            signal: { $0.and($1) },
            producer: { $0.or($1) },
            yields: [.failed(TestError(5))]
        )
        expectTwoInputOperator(
            [.first(.interrupted), .second(.value(true))] as [Step],
            signal: { $0.or($1) },
            producer: { $0.and($1) },
            yields: [.interrupted]
        )
    }

    @Test func producerFormsAcceptConvertibles() {
        let (signal, input) = Signal<Bool, TestError>.pipe()
        let and = EventRecorder<Bool, TestError>()
        let or = EventRecorder<Bool, TestError>()
        SignalProducer<Bool, TestError>(value: true).and(signal).start(and.observer)
        SignalProducer<Bool, TestError>(value: true).or(signal).start(or.observer)
        input.send(value: false)
        input.sendCompleted()
        #expect(and.events == [.value(false), .completed])
        #expect(or.events == [.value(true), .completed])
    }

    @Test func allAndAnyOverSignals() {
        let pipes = (0..<3).map { _ in Signal<Bool, TestError>.pipe() }
        let all = EventRecorder<Bool, TestError>()
        let any = EventRecorder<Bool, TestError>()
        let variadicAll = EventRecorder<Bool, TestError>()
        let variadicAny = EventRecorder<Bool, TestError>()
        Signal.all(pipes.map(\.output)).observe(all.observer)
        Signal.any(pipes.map(\.output)).observe(any.observer)
        Signal.all(pipes[0].output, pipes[1].output, pipes[2].output).observe(variadicAll.observer)
        Signal.any(pipes[0].output, pipes[1].output, pipes[2].output).observe(variadicAny.observer)
        pipes[0].input.send(value: true)
        pipes[1].input.send(value: true)
        pipes[2].input.send(value: false)
        pipes[2].input.send(value: true)
        pipes[0].input.send(value: false)
        pipes[1].input.send(value: false)
        pipes[2].input.send(value: false)
        #expect(all.values == [false, true, false, false, false])
        #expect(any.values == [true, true, true, true, false])
        #expect(variadicAll.values == all.values)
        #expect(variadicAny.values == any.values)
    }

    @Test func allAndAnyOverProducers() {
        let t = SignalProducer<Bool, TestError>(value: true)
        let f = SignalProducer<Bool, TestError>(value: false)
        func record(_ producer: SignalProducer<Bool, TestError>) -> [Signal<Bool, TestError>.Event] {
            let recorder = EventRecorder<Bool, TestError>()
            producer.start(recorder.observer)
            return recorder.events
        }
        #expect(record(.all([t, t])) == [.value(true), .completed])
        #expect(record(.all(t, f)) == [.value(false), .completed])
        #expect(record(.any([f, f])) == [.value(false), .completed])
        #expect(record(.any(f, t)) == [.value(true), .completed])

        let (signal, input) = Signal<Bool, TestError>.pipe()
        let convertibles = EventRecorder<Bool, TestError>()
        SignalProducer<Bool, TestError>.all([signal, signal]).start(convertibles.observer)
        let anyConvertibles = EventRecorder<Bool, TestError>()
        SignalProducer<Bool, TestError>.any([signal]).start(anyConvertibles.observer)
        input.send(value: true)
        #expect(convertibles.values == [true])
        #expect(anyConvertibles.values == [true])
    }

    @Test func allAndAnyOfNothing() {
        let all = EventRecorder<Bool, TestError>()
        let any = EventRecorder<Bool, TestError>()
        SignalProducer.all([SignalProducer<Bool, TestError>]()).start(all.observer)
        SignalProducer.any([SignalProducer<Bool, TestError>]()).start(any.observer)
        #expect(all.events == [.value(true), .completed])
        #expect(any.events == [.value(false), .completed])

        let signalAll = EventRecorder<Bool, TestError>()
        Signal.all([Signal<Bool, TestError>]()).observe(signalAll.observer)
        #expect(signalAll.events == [.interrupted])
    }
}
