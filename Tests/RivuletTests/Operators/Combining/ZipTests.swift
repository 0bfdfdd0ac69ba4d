import Testing
@testable import Rivulet
import RivuletContracts

private typealias Step = TwoInputStep<Int, String>

@Suite(.checksLiveObjects) struct ZipTests {
    @Test func pairsValuesByPosition() {
        expectTwoInputOperator(
            [
                .first(.value(1)), .first(.value(2)), .second(.value("a")), .first(.value(3)),
                .second(.value("b")), .second(.value("c")), .second(.value("d")),
            ] as [Step],
            signal: { Signal<Int, TestError>.zip($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.zip($0, $1).map(Pair.init) },
            yields: [.value(Pair(1, "a")), .value(Pair(2, "b")), .value(Pair(3, "c"))]
        )
    }

    @Test func withFormPairsThisStreamWithTheOther() {
        expectTwoInputOperator(
            [.second(.value("a")), .first(.value(1)), .first(.value(2))] as [Step],
            signal: { $0.zip(with: $1).map(Pair.init) },
            producer: { $0.zip(with: $1).map(Pair.init) },
            yields: [.value(Pair(1, "a"))]
        )
        let (other, otherInput) = Signal<String, TestError>.pipe()
        let recorder = EventRecorder<Pair<Int, String>, TestError>()
        SignalProducer<Int, TestError>(values: 1, 2).zip(with: other).map(Pair.init).start(recorder.observer)
        otherInput.send(value: "x")
        otherInput.send(value: "y")
        #expect(recorder.events == [.value(Pair(1, "x")), .value(Pair(2, "y")), .completed])
    }

    @Test func completesWhenACompletedInputHasNoValueLeft_E3() {
        // The first input completes with two values waiting: the result completes right after
        // the second of them is paired.
        expectTwoInputOperator(
            [
                .first(.value(1)), .first(.value(2)), .first(.completed), .second(.value("a")),
                .second(.value("b")), .second(.value("c")),
            ] as [Step],
            signal: { Signal<Int, TestError>.zip($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.zip($0, $1).map(Pair.init) },
            yields: [.value(Pair(1, "a")), .value(Pair(2, "b")), .completed]
        )
        // An input that completes with nothing waiting ends the result at once.
        expectTwoInputOperator(
            [.first(.value(1)), .second(.value("a")), .second(.value("b")), .first(.completed)] as [Step],
            signal: { Signal<Int, TestError>.zip($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.zip($0, $1).map(Pair.init) },
            yields: [.value(Pair(1, "a")), .completed]
        )
    }

    @Test func completesWhenEveryInputCompletedEvenWithValuesWaiting() {
        expectTwoInputOperator(
            [.first(.value(1)), .first(.value(2)), .first(.completed), .second(.completed)] as [Step],
            signal: { Signal<Int, TestError>.zip($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.zip($0, $1).map(Pair.init) },
            yields: [.completed]
        )
    }

    @Test func failureIsForwardedAtOnceEvenWithValuesWaiting_E2_E1() {
        expectTwoInputOperator(
            [.first(.value(1)), .first(.value(2)), .second(.failed(TestError(4))), .second(.value("a"))] as [Step],
            signal: { Signal<Int, TestError>.zip($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.zip($0, $1).map(Pair.init) },
            yields: [.failed(TestError(4))]
        )
    }

    @Test func interruptionIsForwardedAtOnce_E4() {
        expectTwoInputOperator(
            [.first(.value(1)), .second(.value("a")), .first(.value(2)), .second(.interrupted), .first(.completed)] as [Step],
            signal: { Signal<Int, TestError>.zip($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.zip($0, $1).map(Pair.init) },
            yields: [.value(Pair(1, "a")), .interrupted]
        )
    }

    @Test func producersStartInOrder() {
        let recorder = EventRecorder<Pair<Int, String>, TestError>()
        SignalProducer<Int, TestError>.zip(
            SignalProducer<Int, TestError>(values: 1, 2, 3), SignalProducer<String, TestError>(values: "a", "b")
        )
        .map(Pair.init)
        .start(recorder.observer)
        #expect(recorder.events == [.value(Pair(1, "a")), .value(Pair(2, "b")), .completed])
    }

    @Test func disposingAStartStopsEverySource_P4() {
        let first = TrackedSource<Int>()
        let second = TrackedSource<Int>()
        let recorder = EventRecorder<Pair<Int, Int>, TestError>()
        let disposable = SignalProducer<Int, TestError>.zip(first.producer, second.producer).map(Pair.init).start(
            recorder.observer)
        first.input?.send(value: 1)
        second.input?.send(value: 2)
        disposable.dispose()
        #expect(recorder.events == [.value(Pair(1, 2)), .interrupted])
        #expect(first.endedCount == 1)
        #expect(second.endedCount == 1)
    }

    @Test func completingStopsEverySource() {
        let first = TrackedSource<Int>()
        let second = TrackedSource<Int>()
        let recorder = EventRecorder<Pair<Int, Int>, TestError>()
        SignalProducer<Int, TestError>.zip(first.producer, second.producer).map(Pair.init).start(recorder.observer)
        first.input?.sendCompleted()
        #expect(recorder.events == [.completed])
        #expect(second.endedCount == 1)
    }

    @Test func disposingTheObservationStopsObservingTheSources_P4() {
        let ended = Counter()
        let inputs = Locked<[Signal<Int, TestError>.Observer]>([])
        do {
            func source() -> Signal<Int, TestError> {
                Signal { input, lifetime in
                    inputs.withLock { $0.append(input) }
                    lifetime.observeEnded { ended.increment() }
                }
            }
            let disposable = Signal<Int, TestError>.zip(source(), source()).observe { _ in }
            disposable?.dispose()
        }
        #expect(ended.value == 2)
        withExtendedLifetime(inputs) {}
    }

    @Test func bufferedValuesAreReleasedOnFailure() {
        let (first, firstInput) = Signal<Tracked, TestError>.pipe()
        let (second, secondInput) = Signal<Int, TestError>.pipe()
        let weak = WeakBox<Tracked>(nil)
        Signal<Tracked, TestError>.zip(first, second).observe { _ in }
        do {
            let tracked = Tracked(1)
            weak.object = tracked
            firstInput.send(value: tracked)
        }
        #expect(weak.object != nil)
        secondInput.send(error: TestError(1))
        #expect(weak.object == nil)
    }

    @Test func threeTenElevenAndTwelveInputs() {
        let p = { (value: Int) in SignalProducer<Int, TestError>(values: value, value * 2) }
        let three = EventRecorder<[Int], TestError>()
        SignalProducer<Int, TestError>.zip(p(1), p(2), p(3)).map { [$0, $1, $2] }.start(three.observer)
        #expect(three.events == [.value([1, 2, 3]), .value([2, 4, 6]), .completed])

        let ten = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError>.zip(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9))
            .map { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }
            .start(ten.observer)
        #expect(ten.events == [.value(45), .value(90), .completed])

        let eleven = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError>.zip(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9), p(10))
            .map { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 + $10 }
            .start(eleven.observer)
        #expect(eleven.events == [.value(55), .value(110), .completed])

        let pipes = (0..<11).map { _ in Signal<Int, TestError>.pipe() }
        let s = pipes.map(\.output)
        let (text, textInput) = Signal<String, TestError>.pipe()
        let twelve = EventRecorder<String, TestError>()
        Signal<Int, TestError>.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], text)
            .map { "\($0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 + $10)\($11)" }
            .observe(twelve.observer)
        textInput.send(value: "a")
        textInput.send(value: "b")
        for round in 1...2 {
            for (index, pipe) in pipes.enumerated() { pipe.input.send(value: index * round) }
        }
        textInput.sendCompleted()
        #expect(twelve.events == [.value("55a"), .value("110b"), .completed])
    }

    @Test func sequenceForms() {
        let pipes = (0..<3).map { _ in Signal<Int, TestError>.pipe() }
        let recorder = EventRecorder<[Int], TestError>()
        Signal<Int, TestError>.zip(pipes.map(\.output)).observe(recorder.observer)
        pipes[1].input.send(value: 10)
        pipes[1].input.send(value: 11)
        pipes[0].input.send(value: 0)
        pipes[2].input.send(value: 20)
        pipes[2].input.sendCompleted()
        #expect(recorder.events == [.value([0, 10, 20]), .completed])

        let producerRecorder = EventRecorder<[Int], TestError>()
        SignalProducer<Int, TestError>.zip([SignalProducer<Int, TestError>(values: 1, 2), SignalProducer(values: 3, 4, 5)])
            .start(producerRecorder.observer)
        #expect(producerRecorder.events == [.value([1, 3]), .value([2, 4]), .completed])
    }

    @Test func emptySequence() {
        let recorder = EventRecorder<[Int], TestError>()
        Signal<Int, TestError>.zip([Signal<Int, TestError>]()).observe(recorder.observer)
        #expect(recorder.events == [.interrupted])

        let producerRecorder = EventRecorder<[Int], TestError>()
        SignalProducer<Int, TestError>.zip([SignalProducer<Int, TestError>]()).start(producerRecorder.observer)
        #expect(producerRecorder.events == [.completed])

        let sentinelRecorder = EventRecorder<[Int], TestError>()
        SignalProducer<Int, TestError>.zip([SignalProducer<Int, TestError>](), emptySentinel: [7]).start(
            sentinelRecorder.observer)
        #expect(sentinelRecorder.events == [.value([7]), .completed])
    }
}

@Suite(.checksLiveObjects) struct ZipStressTests {
    @Test(arguments: Facade.allCases)
    func concurrentSendersArePairedInSendingOrder_E5(_ facade: Facade) {
        withWatchdog {
            let perThread = 400
            let (first, firstInput) = Signal<Int, TestError>.pipe()
            let (second, secondInput) = Signal<Int, TestError>.pipe()
            let (recorder, overlaps, disposable) = observeStressed(
                facade, first: first, second: second,
                signal: { Signal<Int, TestError>.zip($0, $1).map(Pair.init) },
                producer: { SignalProducer<Int, TestError>.zip($0, $1).map(Pair.init) }
            )
            sendConcurrently(first: firstInput, second: secondInput, perThread: perThread)
            firstInput.sendCompleted()

            let events = recorder.events
            expectOneFinalTerminal(events)
            #expect(events.last == .completed)
            #expect(overlaps.overlapCount == 0)
            let values = recorder.values
            // Both inputs received the same number of values, so every value is paired once,
            // and each thread's values keep their order.
            #expect(values.count == 4 * perThread)
            var next = [Int](repeating: 0, count: 8)
            for pair in values {
                for (value, isFirst) in [(pair.first, true), (pair.second, false)] {
                    let thread = value / 10_000
                    #expect((thread < 4) == isFirst)
                    #expect(value % 10_000 == next[thread])
                    next[thread] += 1
                }
            }
            #expect(next == [Int](repeating: perThread, count: 8))
            withExtendedLifetime(disposable) {}
        }
    }

    @Test(arguments: Facade.allCases)
    func aFailureRacingValuesIsTheLastEvent_E1_E2(_ facade: Facade) {
        expectFailureRacingValuesIsTheLastEvent(
            facade, failingThread: 1,
            signal: { Signal<Int, TestError>.zip($0, $1).map(Pair.init) },
            producer: { SignalProducer<Int, TestError>.zip($0, $1).map(Pair.init) }
        )
    }
}
