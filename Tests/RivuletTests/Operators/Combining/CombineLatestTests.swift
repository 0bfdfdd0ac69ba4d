import Testing
@testable import Rivulet
import RivuletContracts

private typealias Step = TwoInputStep<Int, String>

@Suite(.checksLiveObjects) struct CombineLatestTests {
    @Test func sendsOnceEveryInputHasAValueThenOnEveryValue() {
        expectTwoInputOperator(
            [.first(.value(1)), .first(.value(2)), .second(.value("a")), .first(.value(3)), .second(.value("b"))] as [Step],
            signal: { Signal<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            yields: [.value(Pair(2, "a")), .value(Pair(3, "a")), .value(Pair(3, "b"))]
        )
    }

    @Test func withFormPairsThisStreamWithTheOther() {
        expectTwoInputOperator(
            [.second(.value("a")), .first(.value(1)), .second(.value("b"))] as [Step],
            signal: { $0.combineLatest(with: $1).map(Pair.init) },
            producer: { $0.combineLatest(with: $1).map(Pair.init) },
            yields: [.value(Pair(1, "a")), .value(Pair(1, "b"))]
        )
        // The convertible form accepts a signal where a producer is expected.
        let (other, otherInput) = Signal<String, TestError>.pipe()
        let recorder = EventRecorder<Pair<Int, String>, TestError>()
        SignalProducer<Int, TestError>(value: 7).combineLatest(with: other).map(Pair.init).start(recorder.observer)
        otherInput.send(value: "x")
        otherInput.sendCompleted()
        #expect(recorder.events == [.value(Pair(7, "x")), .completed])
    }

    @Test func completesOnlyWhenEveryInputHasCompleted_E3() {
        expectTwoInputOperator(
            [.first(.value(1)), .second(.value("a")), .first(.completed), .second(.value("b")), .second(.completed)] as [Step],
            signal: { Signal<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            yields: [.value(Pair(1, "a")), .value(Pair(1, "b")), .completed]
        )
    }

    @Test func anInputCompletingWithoutAValueDoesNotEndTheResultEarly() {
        // ReactiveSwift's rule: completion waits for every input, even one that never sent a value.
        expectTwoInputOperator(
            [.first(.completed), .second(.value("a")), .second(.value("b"))] as [Step],
            signal: { Signal<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            yields: []
        )
        expectTwoInputOperator(
            [.first(.completed), .second(.value("a")), .second(.completed)] as [Step],
            signal: { Signal<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            yields: [.completed]
        )
    }

    @Test func failureIsForwardedAtOnceAndNothingFollows_E2_E1() {
        expectTwoInputOperator(
            [.first(.value(1)), .second(.failed(TestError(3))), .first(.value(2)), .second(.value("a"))] as [Step],
            signal: { Signal<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            yields: [.failed(TestError(3))]
        )
    }

    @Test func interruptionIsForwardedAtOnce_E4() {
        expectTwoInputOperator(
            [.first(.value(1)), .second(.value("a")), .first(.interrupted), .second(.value("b")), .second(.completed)] as [Step],
            signal: { Signal<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            yields: [.value(Pair(1, "a")), .interrupted]
        )
    }

    @Test func producersStartInOrderAndCombineSynchronousValues() {
        let order = Locked<[String]>([])
        let first = SignalProducer<Int, TestError> { observer, _ in
            order.withLock { $0.append("first") }
            observer.send(value: 1)
            observer.send(value: 2)
            observer.sendCompleted()
        }
        let second = SignalProducer<String, TestError> { observer, _ in
            order.withLock { $0.append("second") }
            observer.send(value: "a")
            observer.send(value: "b")
            observer.sendCompleted()
        }
        let recorder = EventRecorder<Pair<Int, String>, TestError>()
        SignalProducer<Int, TestError>.combineLatest(first, second).map(Pair.init).start(recorder.observer)
        #expect(order.withLock { $0 } == ["first", "second"])
        #expect(recorder.events == [.value(Pair(2, "a")), .value(Pair(2, "b")), .completed])
    }

    @Test func aSourceFailingWhileStartingKeepsTheLaterOnesFromStarting() {
        let later = TrackedSource<Int>()
        let recorder = EventRecorder<Pair<Int, Int>, TestError>()
        SignalProducer<Int, TestError>.combineLatest(SignalProducer<Int, TestError>(error: TestError(1)), later.producer)
            .map(Pair.init)
            .start(recorder.observer)
        #expect(recorder.events == [.failed(TestError(1))])
        #expect(later.startCount == 0)
    }

    @Test func disposingAStartStopsEverySource_P4() {
        let first = TrackedSource<Int>()
        let second = TrackedSource<Int>()
        let recorder = EventRecorder<Pair<Int, Int>, TestError>()
        let disposable = SignalProducer<Int, TestError>.combineLatest(first.producer, second.producer)
            .map(Pair.init)
            .start(recorder.observer)
        first.input?.send(value: 1)
        second.input?.send(value: 2)
        disposable.dispose()
        first.input?.send(value: 3)
        #expect(recorder.events == [.value(Pair(1, 2)), .interrupted])
        #expect(first.endedCount == 1)
        #expect(second.endedCount == 1)
    }

    @Test func terminatingStopsEverySource() {
        let first = TrackedSource<Int>()
        let second = TrackedSource<Int>()
        SignalProducer<Int, TestError>.combineLatest(first.producer, second.producer).start()
        first.input?.send(error: TestError(2))
        #expect(first.endedCount == 1)
        #expect(second.endedCount == 1)
    }

    @Test func disposingTheObservationStopsObservingTheSources_P4() {
        let ended = Counter()
        let inputs = Locked<[Signal<Int, TestError>.Observer]>([])
        let recorder = EventRecorder<Pair<Int, Int>, TestError>()
        do {
            func source() -> Signal<Int, TestError> {
                Signal { input, lifetime in
                    inputs.withLock { $0.append(input) }
                    lifetime.observeEnded { ended.increment() }
                }
            }
            let disposable = Signal<Int, TestError>.combineLatest(source(), source()).map(Pair.init).observe(recorder.observer)
            inputs.withLock { $0 }.forEach { $0.send(value: 1) }
            disposable?.dispose()
        }
        // The sources are neither reachable nor observed any more, so they are disposed (S4).
        #expect(ended.value == 2)
        #expect(recorder.events == [.value(Pair(1, 1))])
        withExtendedLifetime(inputs) {}
    }

    @Test func observingATerminatedSourceEndsTheResult() {
        let (open, openInput) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Pair<Int, Int>, TestError>()
        Signal<Int, TestError>.combineLatest(Signal<Int, TestError>.empty, open).map(Pair.init).observe(recorder.observer)
        openInput.send(value: 1)
        // The combined signal terminated while being created; observers see `interrupted` (S3).
        #expect(recorder.events == [.interrupted])
    }

    @Test func aValueSentFromInsideAnObserverIsDeliveredAfterTheCurrentOne_E6() {
        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let (second, secondInput) = Signal<Int, TestError>.pipe()
        let log = Locked<[String]>([])
        Signal<Int, TestError>.combineLatest(first, second).observeValues { a, b in
            log.withLock { $0.append("begin \(a),\(b)") }
            if a == 1 { firstInput.send(value: 2) }
            log.withLock { $0.append("end \(a),\(b)") }
        }
        firstInput.send(value: 1)
        secondInput.send(value: 10)
        #expect(log.withLock { $0 } == ["begin 1,10", "end 1,10", "begin 2,10", "end 2,10"])
    }

    @Test func threeInputs() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<String, TestError>.pipe()
        let (c, cInput) = Signal<Bool, TestError>.pipe()
        let recorder = EventRecorder<String, TestError>()
        Signal<Int, TestError>.combineLatest(a, b, c).map { "\($0)\($1)\($2)" }.observe(recorder.observer)
        aInput.send(value: 1)
        bInput.send(value: "x")
        cInput.send(value: true)
        bInput.send(value: "y")
        #expect(recorder.values == ["1xtrue", "1ytrue"])

        let producerRecorder = EventRecorder<String, TestError>()
        SignalProducer<Int, TestError>.combineLatest(
            SignalProducer<Int, TestError>(value: 1), SignalProducer<String, TestError>(value: "x"), c
        ).map { "\($0)\($1)\($2)" }.start(producerRecorder.observer)
        cInput.send(value: false)
        cInput.sendCompleted()
        #expect(producerRecorder.events == [.value("1xfalse"), .completed])
    }

    @Test func tenInputsUseTheFixedArityForm() {
        let p = { (value: Int) in SignalProducer<Int, TestError>(value: value) }
        let recorder = EventRecorder<[Int], TestError>()
        SignalProducer<Int, TestError>.combineLatest(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9))
            .map { [$0, $1, $2, $3, $4, $5, $6, $7, $8, $9] }
            .start(recorder.observer)
        #expect(recorder.events == [.value(Array(0..<10)), .completed])
    }

    @Test func elevenAndTwelveInputsUseTheParameterPackForm() {
        let pipes = (0..<12).map { _ in Signal<Int, TestError>.pipe() }
        let s = pipes.map(\.output)
        let eleven = EventRecorder<[Int], TestError>()
        Signal<Int, TestError>.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10])
            .map { [$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10] }
            .observe(eleven.observer)
        let twelve = EventRecorder<String, TestError>()
        let (text, textInput) = Signal<String, TestError>.pipe()
        Signal<Int, TestError>.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], text)
            .map { "\($0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 + $10)\($11)" }
            .observe(twelve.observer)
        for (index, pipe) in pipes.enumerated() { pipe.input.send(value: index) }
        textInput.send(value: "!")
        pipes[10].input.send(value: 100)
        #expect(eleven.values == [Array(0...10), Array(0...9) + [100]])
        #expect(twelve.values == ["55!", "145!"])

        let p = { (value: Int) in SignalProducer<Int, TestError>(value: value) }
        let producerRecorder = EventRecorder<String, TestError>()
        SignalProducer<Int, TestError>.combineLatest(
            p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9), p(10), SignalProducer<String, TestError>(value: "z")
        )
        .map { "\($0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 + $10)\($11)" }
        .start(producerRecorder.observer)
        #expect(producerRecorder.events == [.value("55z"), .completed])
    }

    @Test func sequenceFormSendsArraysInInputOrder() {
        let pipes = (0..<3).map { _ in Signal<Int, TestError>.pipe() }
        let recorder = EventRecorder<[Int], TestError>()
        Signal<Int, TestError>.combineLatest(pipes.map(\.output)).observe(recorder.observer)
        pipes[2].input.send(value: 2)
        pipes[0].input.send(value: 0)
        pipes[1].input.send(value: 1)
        pipes[0].input.send(value: 5)
        pipes.forEach { $0.input.sendCompleted() }
        #expect(recorder.events == [.value([0, 1, 2]), .value([5, 1, 2]), .completed])

        let producerRecorder = EventRecorder<[Int], TestError>()
        SignalProducer<Int, TestError>.combineLatest([SignalProducer<Int, TestError>(values: 1, 2), SignalProducer(value: 3)])
            .start(producerRecorder.observer)
        #expect(producerRecorder.events == [.value([2, 3]), .completed])
    }

    @Test func emptySequence() {
        let recorder = EventRecorder<[Int], TestError>()
        Signal<Int, TestError>.combineLatest([Signal<Int, TestError>]()).observe(recorder.observer)
        #expect(recorder.events == [.interrupted])

        let producerRecorder = EventRecorder<[Int], TestError>()
        SignalProducer<Int, TestError>.combineLatest([SignalProducer<Int, TestError>]()).start(producerRecorder.observer)
        #expect(producerRecorder.events == [.completed])

        let sentinelRecorder = EventRecorder<[Int], TestError>()
        SignalProducer<Int, TestError>.combineLatest([SignalProducer<Int, TestError>](), emptySentinel: [42])
            .start(sentinelRecorder.observer)
        #expect(sentinelRecorder.events == [.value([42]), .completed])
    }

    @Test func emptySentinelIsIgnoredWhenThereAreProducers() {
        let recorder = EventRecorder<[Int], TestError>()
        SignalProducer<Int, TestError>.combineLatest([SignalProducer<Int, TestError>(value: 1)], emptySentinel: [42])
            .start(recorder.observer)
        #expect(recorder.events == [.value([1]), .completed])
    }

    @Test func eachStartIsIndependent_P2() {
        let producer = SignalProducer<Int, TestError>.combineLatest(
            SignalProducer<Int, TestError>(values: 1, 2), SignalProducer<Int, TestError>(value: 10)
        ).map(Pair.init)
        let first = EventRecorder<Pair<Int, Int>, TestError>()
        let second = EventRecorder<Pair<Int, Int>, TestError>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(first.events == [.value(Pair(2, 10)), .completed])
        #expect(second.events == first.events)
    }
}

@Suite(.checksLiveObjects) struct CombineLatestStressTests {
    @Test(arguments: Facade.allCases)
    func concurrentSendersYieldOneSerialInterleaving_E5(_ facade: Facade) {
        withWatchdog {
            let perThread = 400
            let (first, firstInput) = Signal<Int, TestError>.pipe()
            let (second, secondInput) = Signal<Int, TestError>.pipe()
            let (recorder, overlaps, disposable) = observeStressed(
                facade, first: first, second: second,
                signal: { Signal<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
                producer: { SignalProducer<Int, TestError>.combineLatest($0, $1).map(Pair.init) }
            )
            // Both inputs have a value before the threads start, so every later value makes
            // exactly one combination.
            firstInput.send(value: -1)
            secondInput.send(value: -1)
            sendConcurrently(first: firstInput, second: secondInput, perThread: perThread)
            firstInput.sendCompleted()
            secondInput.sendCompleted()

            let events = recorder.events
            expectOneFinalTerminal(events)
            #expect(events.last == .completed)
            #expect(overlaps.overlapCount == 0)
            let values = recorder.values
            #expect(values.count == 1 + 8 * perThread)
            #expect(values.first == Pair(-1, -1))
            // Each combination differs from the one before in exactly one input, whose new value
            // is the next one its sending thread sent: the sequence is one serial interleaving.
            var next = [Int](repeating: 0, count: 8)
            for (previous, current) in zip(values, values.dropFirst()) {
                let firstChanged = previous.first != current.first
                let secondChanged = previous.second != current.second
                #expect(firstChanged != secondChanged)
                let value = firstChanged ? current.first : current.second
                let thread = value / 10_000
                #expect(firstChanged == (thread < 4))
                #expect(value % 10_000 == next[thread])
                next[thread] += 1
            }
            #expect(next == [Int](repeating: perThread, count: 8))
            withExtendedLifetime(disposable) {}
        }
    }

    @Test(arguments: Facade.allCases)
    func aFailureRacingValuesIsTheLastEvent_E1_E2(_ facade: Facade) {
        expectFailureRacingValuesIsTheLastEvent(
            facade, failingThread: 6,
            signal: { Signal<Int, TestError>.combineLatest($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.combineLatest($0, $1).map(Pair.init) }
        )
    }
}
