import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

// MARK: - Every strategy

@Suite(.checksLiveObjects) struct FlattenContractTests {
    @Test(arguments: allFlattenStrategies, Via.allCases)
    func outerFailureIsForwardedAtOnceAndDisposesInners_E2(strategy: FlattenStrategy, via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let inner = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, strategy, via: via)
        input.send(value: inner.producer)
        input.send(error: TestError(1))
        inner.send(value: 5)
        #expect(recorder.events == [.failed(TestError(1))])
        #expect(inner.ended == 1)
    }

    @Test(arguments: allFlattenStrategies, Via.allCases)
    func innerFailureIsForwardedAtOnce_E2(strategy: FlattenStrategy, via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let inner = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, strategy, via: via)
        input.send(value: inner.producer)
        inner.send(value: 1)
        inner.send(.failed(TestError(2)))
        input.send(value: SignalProducer(value: 9))
        #expect(recorder.events == [.value(1), .failed(TestError(2))])
        #expect(inner.ended == 1)
    }

    @Test(arguments: allFlattenStrategies, Via.allCases)
    func outerInterruptionIsForwardedAtOnceAndDisposesInners_E4(strategy: FlattenStrategy, via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let inner = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, strategy, via: via)
        input.send(value: inner.producer)
        input.sendInterrupted()
        #expect(recorder.events == [.interrupted])
        #expect(inner.ended == 1)
    }

    @Test(arguments: strategiesThatOutliveAnInner, Via.allCases)
    func innerInterruptionIsIgnored_E4(strategy: FlattenStrategy, via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let first = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, strategy, via: via)
        input.send(value: first.producer)
        first.send(.interrupted)
        // The flattening goes on: a later inner stream runs and its values are forwarded.
        input.send(value: SignalProducer([7, 8]))
        input.sendCompleted()
        #expect(recorder.events == [.value(7), .value(8), .completed])
    }

    @Test(arguments: allFlattenStrategies, Via.allCases)
    func disposingTheResultDisposesTheOuterAndEveryInner_P4(strategy: FlattenStrategy, via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let inner = ControlledProducer<Int, TestError>()
        let second = ControlledProducer<Int, TestError>()
        let later = ControlledProducer<Int, TestError>()
        let (recorder, disposable) = flattened(outer, strategy, via: via)
        input.send(value: inner.producer)
        // Two inners: both run (merge, concurrent, race), one replaces the other (latest), or one
        // waits or is dropped (concat, throttle).
        input.send(value: second.producer)
        #expect(inner.starts == 1)
        disposable?.dispose()
        #expect(inner.ended == 1)
        #expect(second.ended == second.starts)
        // Detached from the outer signal: a new inner stream is never started, nor a waiting one.
        input.send(value: later.producer)
        inner.send(value: 1)
        second.send(value: 2)
        #expect(later.starts == 0)
        #expect(second.ended == second.starts)
        #expect(recorder.values.isEmpty)
        #expect(recorder.terminalCount <= 1)
    }

    @Test(arguments: [FlattenStrategy.race, .throttle], Via.allCases)
    func aRaceOrThrottleForwardsItsInnersInterruption(strategy: FlattenStrategy, via: Via) {
        // Their output is one inner stream's events, so its interruption is the output's, as in
        // ReactiveSwift; a later inner stream is not started.
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let first = ControlledProducer<Int, TestError>()
        let later = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, strategy, via: via)
        input.send(value: first.producer)
        first.send(.interrupted)
        input.send(value: later.producer)
        #expect(recorder.events == [.interrupted])
        #expect(later.starts == 0)
    }

    @Test(arguments: strategiesThatOutliveAnInner, Via.allCases)
    func anInnerSignalThatHasAlreadyTerminatedIsSkipped_S3_E4(strategy: FlattenStrategy, via: Via) {
        let (outer, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (dead, deadInput) = Signal<Int, TestError>.pipe()
        deadInput.send(value: 0)
        deadInput.sendCompleted()
        let (live, liveInput) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        switch via {
        case .signal: outer.flatten(strategy).observe(recorder.observer)
        case .producer: SignalProducer(outer).flatten(strategy).start(recorder.observer)
        }
        // Observing the dead signal yields `interrupted` at once (S3), which flattening ignores (E4):
        // it neither ends the result nor blocks, wins or delays anything.
        input.send(value: dead)
        input.send(value: live)
        liveInput.send(value: 1)
        input.sendCompleted()
        #expect(recorder.events == [.value(1)])
        liveInput.sendCompleted()
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test(
        arguments: [
            (FlattenStrategy.merge, [1, 2, 3]), (.concat, [1, 3, 2]), (.latest, [1, 2]), (.race, [1, 3]), (.throttle, [1, 3]),
        ], Via.allCases)
    func outerValueSentFromInsideAnInnerValueIsQueued_E6(expectation: (FlattenStrategy, [Int]), via: Via) {
        let (strategy, values) = expectation
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let (inner, innerInput) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        let depth = Locked(0)
        let deepest = Locked(0)
        let observer = Signal<Int, TestError>.Observer { event in
            let current = depth.withLock {
                $0 += 1; return $0
            }
            deepest.withLock { $0 = max($0, current) }
            recorder.record(event)
            // The new inner arrives while the flattening handles the inner's value: it is queued
            // and handled after that value, never recursively.
            if event.value == 1 { input.send(value: SignalProducer(value: 2)) }
            depth.withLock { $0 -= 1 }
        }
        switch via {
        case .signal: outer.flatten(strategy).observe(observer)
        case .producer: SignalProducer(outer).flatten(strategy).start(observer)
        }
        input.send(value: inner.producer)
        innerInput.send(value: 1)
        innerInput.send(value: 3)
        innerInput.sendCompleted()
        input.sendCompleted()
        #expect(recorder.events == values.map { .value($0) } + [.completed])
        #expect(deepest.withLock { $0 } == 1)
    }

    @Test(arguments: [
        (FlattenStrategy.merge, [1, 2, 3]), (.concat, [1, 2, 3]), (.concurrent(limit: 2), [1, 2, 3]),
        (.latest, [1, 2, 3]), (.race, [1, 2]), (.throttle, [1, 2, 3]),
    ])
    func synchronousInnersGiveTheSameEventsOnSignalsAndProducers_P3(expectation: (FlattenStrategy, [Int])) {
        let (strategy, values) = expectation
        // Each synchronous inner has completed before the next arrives: nothing waits, is replaced
        // or is dropped, except that the first inner has already won a race.
        expectOperator(
            [.value(SignalProducer([1, 2])), .value(SignalProducer([3])), .completed]
                as [Signal<IntProducer, TestError>.Event],
            signal: { $0.flatten(strategy) },
            producer: { $0.flatten(strategy) },
            yields: values.map { .value($0) } + [.completed]
        )
    }

    @Test(arguments: allFlattenStrategies)
    func completesWhenTheOuterCompletesWithNoInner(strategy: FlattenStrategy) {
        expectOperator(
            [.completed] as [Signal<IntProducer, TestError>.Event],
            signal: { $0.flatten(strategy) },
            producer: { $0.flatten(strategy) },
            yields: [.completed]
        )
    }

    @Test(arguments: allFlattenStrategies)
    func nothingAfterTheTerminalEvent_E1(strategy: FlattenStrategy) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let inner = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, strategy, via: .producer)
        input.send(value: inner.producer)
        inner.sendCompleted()
        input.sendCompleted()
        input.send(value: SignalProducer(value: 1))
        inner.send(value: 2)
        #expect(recorder.events == [.completed])
    }

    @Test(arguments: allFlattenStrategies)
    func anOuterValueAfterTheOuterCompletedStartsNothing_E1(strategy: FlattenStrategy) {
        // A hand-written fused upstream that breaks E1: the flattening must not act on it.
        let running = ControlledProducer<Int, TestError>()
        let late = ControlledProducer<Int, TestError>()
        let calls = Counter()
        let recorder = EventRecorder<Int, TestError>()
        let script: [Signal<Int, TestError>.Event] = [.value(1), .completed, .value(2)]
        scriptedProducer(script).flatMap(strategy) { index -> IntProducer in
            calls.increment()
            return index == 1 ? running.producer : late.producer
        }.start(recorder.observer)
        #expect(late.starts == 0)
        #expect(calls.value == 1)
        running.send(value: 5)
        running.sendCompleted()
        #expect(recorder.events == [.value(5), .completed])
    }

    @Test func eachInnerGetsItsOwnLifetimeEndedWhenItCompletes() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let first = ControlledProducer<Int, TestError>()
        let second = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .merge, via: .signal)
        input.send(value: first.producer)
        input.send(value: second.producer)
        first.sendCompleted()
        #expect(first.ended == 1)
        #expect(second.ended == 0)
        second.send(value: 3)
        #expect(recorder.events == [.value(3)])
    }

    @Test func userClosureIsReleasedWhenTheResultTerminates_O7() {
        let (outer, input) = Signal<Int, TestError>.pipe()
        let box = WeakBox<Tracked>(nil)
        var recorder: EventRecorder<Int, TestError>? = EventRecorder()
        do {
            let tracked = Tracked()
            box.object = tracked
            outer.flatMap(.merge) { value -> IntProducer in
                _ = tracked
                return SignalProducer(value: value)
            }.observe(recorder!.observer)
        }
        input.send(value: 1)
        #expect(box.object != nil)
        input.sendCompleted()
        #expect(recorder?.events == [.value(1), .completed])
        recorder = nil
        #expect(box.object == nil)
    }

    @Test func userClosureAndInnersAreReleasedWhenTheResultIsDisposed_P4() {
        let box = WeakBox<Tracked>(nil)
        let inner = ControlledProducer<Int, TestError>()
        let (outer, input) = Signal<Int, TestError>.pipe()
        let disposable: Disposable
        do {
            let tracked = Tracked()
            box.object = tracked
            disposable = SignalProducer(outer).flatMap(.latest) { _ -> IntProducer in
                _ = tracked
                return inner.producer
            }.start()
        }
        input.send(value: 1)
        #expect(box.object != nil)
        disposable.dispose()
        #expect(inner.ended == 1)
        #expect(box.object == nil)
    }

    @Test(arguments: Via.allCases)
    func innerSignalsLetGoOfTheFlatteningWhenTheResultIsDisposed_P4(via: Via) {
        // A live inner signal that outlives the result must not keep the flattening (and the
        // user's closure) alive: disposal detaches from it.
        let (inner, innerInput) = Signal<Int, TestError>.pipe()
        let (outer, input) = Signal<Int, TestError>.pipe()
        let box = WeakBox<Tracked>(nil)
        let recorder = EventRecorder<Int, TestError>()
        var disposable: Disposable?
        do {
            let tracked = Tracked()
            box.object = tracked
            let transform = { @Sendable (_: Int) -> Signal<Int, TestError> in
                _ = tracked
                return inner
            }
            disposable =
                switch via {
                case .signal: outer.flatMap(.merge, transform).observe(recorder.observer)
                case .producer: SignalProducer(outer).flatMap(.merge, transform).start(recorder.observer)
                }
        }
        input.send(value: 1)
        innerInput.send(value: 5)
        #expect(box.object != nil)
        disposable?.dispose()
        innerInput.send(value: 6)
        #expect(recorder.values == [5])
        #expect(box.object == nil)
        withExtendedLifetime((inner, innerInput, input)) {}
    }

    @Test func strategyDescriptionsAndEquality() {
        #expect(FlattenStrategy.merge.description == "merge")
        #expect(FlattenStrategy.concat.description == "concat")
        #expect(FlattenStrategy.concurrent(limit: 3).description == "concurrent(limit: 3)")
        #expect(FlattenStrategy.latest.description == "latest")
        #expect(FlattenStrategy.race.description == "race")
        #expect(FlattenStrategy.throttle.description == "throttle")
        #expect(FlattenStrategy.concurrent(limit: 1) == .concat)
        #expect(FlattenStrategy.concurrent(limit: .max) == .merge)
        #expect(Set(allFlattenStrategies).count == allFlattenStrategies.count)
    }
}

// MARK: - .merge

@Suite(.checksLiveObjects) struct FlattenMergeTests {
    @Test(arguments: Via.allCases)
    func interleavesRunningInnersAndWaitsForThemToComplete(via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let b = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .merge, via: via)
        input.send(value: a.producer)
        input.send(value: b.producer)
        a.send(value: 1)
        b.send(value: 2)
        a.send(value: 3)
        input.sendCompleted()
        a.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .value(3)])
        b.send(value: 4)
        b.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .value(3), .value(4), .completed])
    }
}

// MARK: - .concat and .concurrent(limit:)

@Suite(.checksLiveObjects) struct FlattenConcatTests {
    @Test(arguments: Via.allCases)
    func queuesAnInnerUntilThePreviousCompletes(via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let b = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .concat, via: via)
        input.send(value: a.producer)
        input.send(value: b.producer)
        input.sendCompleted()
        #expect(a.starts == 1)
        #expect(b.starts == 0)
        a.send(value: 1)
        a.sendCompleted()
        #expect(b.starts == 1)
        b.send(value: 2)
        b.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func anInterruptedInnerLetsTheNextStart_E4() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .concat, via: .signal)
        input.send(value: a.producer)
        input.send(value: SignalProducer(value: 5))
        a.send(.interrupted)
        input.sendCompleted()
        #expect(recorder.events == [.value(5), .completed])
    }

    @Test func concurrentLimitRunsAtMostLimitInnersAtOnce() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let inners = (0..<4).map { _ in ControlledProducer<Int, TestError>() }
        let (recorder, _) = flattened(outer, .concurrent(limit: 2), via: .producer)
        for inner in inners { input.send(value: inner.producer) }
        #expect(inners.map(\.starts) == [1, 1, 0, 0])
        inners[1].send(value: 1)
        inners[1].sendCompleted()
        #expect(inners.map(\.starts) == [1, 1, 1, 0])
        inners[0].sendCompleted()
        #expect(inners.map(\.starts) == [1, 1, 1, 1])
        input.sendCompleted()
        inners[2].send(value: 2)
        inners[3].send(value: 3)
        inners[2].sendCompleted()
        inners[3].sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }
}

// MARK: - .latest

@Suite(.checksLiveObjects) struct FlattenLatestTests {
    @Test(arguments: Via.allCases)
    func aNewInnerDisposesThePreviousOne(via: Via) {
        let (outer, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let (second, secondInput) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        switch via {
        case .signal: outer.flatten(.latest).observe(recorder.observer)
        case .producer: SignalProducer(outer).flatten(.latest).start(recorder.observer)
        }
        input.send(value: first)
        firstInput.send(value: 1)
        input.send(value: second)
        firstInput.send(value: 2)
        secondInput.send(value: 3)
        // The replaced inner's completion does not count; the latest one's does.
        firstInput.sendCompleted()
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(3)])
        secondInput.sendCompleted()
        #expect(recorder.events == [.value(1), .value(3), .completed])
    }

    @Test func replacedProducerIsDisposed() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let b = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .latest, via: .signal)
        input.send(value: a.producer)
        input.send(value: b.producer)
        #expect(a.ended == 1)
        #expect(b.ended == 0)
        b.send(value: 4)
        #expect(recorder.events == [.value(4)])
    }
}

// MARK: - .race

@Suite(.checksLiveObjects) struct FlattenRaceTests {
    @Test(arguments: Via.allCases)
    func theFirstInnerToSendWinsAndTheOthersAreDisposed(via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let b = ControlledProducer<Int, TestError>()
        let c = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .race, via: via)
        input.send(value: a.producer)
        input.send(value: b.producer)
        b.send(value: 1)
        #expect(a.ended == 1)
        #expect(b.ended == 0)
        // Inner streams arriving after the race is decided are ignored.
        input.send(value: c.producer)
        #expect(c.starts == 0)
        a.send(value: 2)
        b.send(value: 3)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(3)])
        b.sendCompleted()
        #expect(recorder.events == [.value(1), .value(3), .completed])
    }

    @Test func completingFirstWins() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let b = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .race, via: .signal)
        input.send(value: a.producer)
        input.send(value: b.producer)
        a.sendCompleted()
        #expect(b.ended == 1)
        b.send(value: 1)
        input.send(value: SignalProducer(value: 2))
        input.sendCompleted()
        #expect(recorder.events == [.completed])
    }

    @Test(arguments: Via.allCases)
    func anInterruptionAsTheFirstEventWinsTheRaceAndInterrupts(via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let b = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .race, via: via)
        input.send(value: a.producer)
        input.send(value: b.producer)
        a.send(.interrupted)
        #expect(recorder.events == [.interrupted], "as in ReactiveSwift, any first event wins")
        #expect(b.ended == 1)
    }

    @Test(arguments: Via.allCases)
    func theWinnersInterruptionInterrupts(via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .race, via: via)
        input.send(value: a.producer)
        a.send(value: 1)
        a.send(.interrupted)
        #expect(recorder.events == [.value(1), .interrupted])
    }
}

// MARK: - .throttle

@Suite(.checksLiveObjects) struct FlattenThrottleTests {
    @Test(arguments: Via.allCases)
    func theRunningInnersInterruptionInterrupts(via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .throttle, via: via)
        input.send(value: a.producer)
        a.send(value: 1)
        a.send(.interrupted)
        input.send(value: SignalProducer(value: 2))
        #expect(recorder.events == [.value(1), .interrupted], "as in ReactiveSwift")
    }

    @Test(arguments: Via.allCases)
    func dropsInnersWhileOneIsRunning(via: Via) {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let a = ControlledProducer<Int, TestError>()
        let b = ControlledProducer<Int, TestError>()
        let c = ControlledProducer<Int, TestError>()
        let (recorder, _) = flattened(outer, .throttle, via: via)
        input.send(value: a.producer)
        input.send(value: b.producer)
        #expect(b.starts == 0)
        a.send(value: 1)
        a.sendCompleted()
        input.send(value: c.producer)
        #expect(c.starts == 1)
        c.send(value: 2)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2)])
        c.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }
}

// MARK: - Overloads: error types, convertibles, flatMap

@Suite(.checksLiveObjects) struct FlattenOverloadTests {
    /// Each error-type overload of `flatten`, run: the typed result carries the failure of the side
    /// that can fail, at once (E2), with the values before it and nothing after it (E1).
    @Test func errorTypeOverloadsOfFlatten() {
        // Outer never fails, inners can: an inner's failure ends the result.
        do {
            let (outer, input) = Signal<SignalProducer<Int, TestError>, Never>.pipe()
            let recorder = EventRecorder<Int, TestError>()
            let flattened: Signal<Int, TestError> = outer.flatten(.merge)
            flattened.observe(recorder.observer)
            input.send(value: SignalProducer([1, 2]))
            input.send(value: SignalProducer(error: TestError(1)))
            input.send(value: SignalProducer(value: 9))
            #expect(recorder.events == [.value(1), .value(2), .failed(TestError(1))])
        }
        // Outer can fail, inners never do: the outer's failure ends the result.
        do {
            let (outer, input) = Signal<SignalProducer<Int, Never>, TestError>.pipe()
            let (inner, innerInput) = Signal<Int, Never>.pipe()
            let recorder = EventRecorder<Int, TestError>()
            let flattened: Signal<Int, TestError> = outer.flatten(.merge)
            flattened.observe(recorder.observer)
            input.send(value: SignalProducer(inner))
            innerInput.send(value: 1)
            input.send(value: SignalProducer([2, 3]))
            input.send(error: TestError(2))
            innerInput.send(value: 9)
            #expect(recorder.events == [.value(1), .value(2), .value(3), .failed(TestError(2))])
        }
        // Neither can fail: values, then completion once the outer and every inner completed.
        do {
            let (outer, input) = Signal<SignalProducer<Int, Never>, Never>.pipe()
            let (inner, innerInput) = Signal<Int, Never>.pipe()
            let recorder = EventRecorder<Int, Never>()
            let flattened: Signal<Int, Never> = outer.flatten(.merge)
            flattened.observe(recorder.observer)
            input.send(value: SignalProducer(inner))
            input.send(value: SignalProducer([1, 2]))
            input.sendCompleted()
            innerInput.send(value: 3)
            #expect(recorder.events == [.value(1), .value(2), .value(3)])
            innerInput.sendCompleted()
            #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
        }
        // Same error type on both sides, inner signals: either side's failure ends the result.
        do {
            let (outer, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
            let (inner, innerInput) = Signal<Int, TestError>.pipe()
            let recorder = EventRecorder<Int, TestError>()
            let flattened: Signal<Int, TestError> = outer.flatten(.merge)
            flattened.observe(recorder.observer)
            input.send(value: inner)
            innerInput.send(value: 1)
            innerInput.send(error: TestError(3))
            input.send(error: TestError(4))
            #expect(recorder.events == [.value(1), .failed(TestError(3))])
        }

        // The producer overloads, with `.concat`.
        let p1 = EventRecorder<Int, TestError>()
        let outerNever: SignalProducer<Int, TestError> = SignalProducer<SignalProducer<Int, TestError>, Never>(
            [SignalProducer([1, 2]), SignalProducer(error: TestError(5)), SignalProducer(value: 9)]
        ).flatten(.concat)
        outerNever.start(p1.observer)
        #expect(p1.events == [.value(1), .value(2), .failed(TestError(5))])

        let p2 = EventRecorder<Int, TestError>()
        let innerNever: SignalProducer<Int, TestError> = SignalProducer<SignalProducer<Int, Never>, TestError> { observer, _ in
            observer.send(value: SignalProducer([1, 2]))
            observer.send(error: TestError(6))
            observer.send(value: SignalProducer(value: 9))
        }.flatten(.concat)
        innerNever.start(p2.observer)
        #expect(p2.events == [.value(1), .value(2), .failed(TestError(6))])

        let p3 = EventRecorder<Int, Never>()
        let neither: SignalProducer<Int, Never> = SignalProducer<SignalProducer<Int, Never>, Never>(
            [SignalProducer([1, 2]), SignalProducer(value: 3)]
        ).flatten(.concat)
        neither.start(p3.observer)
        #expect(p3.events == [.value(1), .value(2), .value(3), .completed])

        let p4 = EventRecorder<Int, TestError>()
        let (inner, innerInput) = Signal<Int, TestError>.pipe()
        let same: SignalProducer<Int, TestError> = SignalProducer<Signal<Int, TestError>, TestError>(value: inner)
            .flatten(.concat)
        same.start(p4.observer)
        innerInput.send(value: 4)
        innerInput.send(error: TestError(7))
        innerInput.send(value: 9)
        #expect(p4.events == [.value(4), .failed(TestError(7))])
    }

    @Test func outerNeverInnerFailurePropagates() {
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer<SignalProducer<Int, TestError>, Never>(
            [SignalProducer(value: 1), SignalProducer(error: TestError(3))]
        ).flatten(.concat).start(recorder.observer)
        #expect(recorder.events == [.value(1), .failed(TestError(3))])
    }

    @Test func innerNeverOuterFailurePropagates() {
        let (outer, input) = Signal<SignalProducer<Int, Never>, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        outer.flatten(.merge).observe(recorder.observer)
        input.send(value: SignalProducer(value: 1))
        input.send(error: TestError(4))
        #expect(recorder.events == [.value(1), .failed(TestError(4))])
    }

    @Test func flatMapCallsTransformForEveryValueAsItArrives_P3() {
        expectOperator(
            [.value(1), .value(2), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.flatMap(.concat) { SignalProducer<Int, TestError>([$0, $0 * 10]) } },
            producer: { $0.flatMap(.concat) { SignalProducer<Int, TestError>([$0, $0 * 10]) } },
            yields: [.value(1), .value(10), .value(2), .value(20), .completed]
        )
        let calls = Counter()
        let (outer, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        outer.flatMap(.throttle) { _ -> SignalProducer<Int, TestError> in
            calls.increment()
            return .never
        }.observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        #expect(calls.value == 2)
    }

    /// Each error-type overload of `flatMap` on a signal: the outer signal sends 1 and 2 and
    /// completes; each inner stream sends the value as text (an inner signal, once it is
    /// observed) and completes. Every overload must forward both values and complete.
    @Test func flatMapErrorTypeOverloadsOnSignals() {
        func run<E: Swift.Error, F: Swift.Error>(
            _ outerError: E.Type,
            _ flatMap: (Signal<Int, E>) -> Signal<String, F>,
            sendInner: @escaping (Int) -> Void = { _ in }
        ) -> [Signal<String, F>.Event] {
            let (outer, input) = Signal<Int, E>.pipe()
            let recorder = EventRecorder<String, F>()
            flatMap(outer).observe(recorder.observer)
            for value in [1, 2] {
                input.send(value: value)
                sendInner(value)
            }
            input.sendCompleted()
            return recorder.events
        }
        func innerSignal<E: Swift.Error>(_: E.Type) -> (Signal<String, E>, (Int) -> Void) {
            let (signal, input) = Signal<String, E>.pipe()
            return (signal, { input.send(value: "\($0)") })
        }
        let expected: [Signal<String, TestError>.Event] = [.value("1"), .value("2"), .completed]
        #expect(run(TestError.self) { $0.flatMap(.merge) { SignalProducer<String, TestError>(value: "\($0)") } } == expected)
        #expect(run(TestError.self) { $0.flatMap(.merge) { SignalProducer<String, Never>(value: "\($0)") } } == expected)
        let (typed, sendTyped) = innerSignal(TestError.self)
        #expect(run(TestError.self, { $0.flatMap(.latest) { _ in typed } }, sendInner: sendTyped) == [.value("1"), .value("2")])
        let (safe, sendSafe) = innerSignal(Never.self)
        #expect(run(TestError.self, { $0.flatMap(.latest) { _ in safe } }, sendInner: sendSafe) == [.value("1"), .value("2")])
        #expect(run(Never.self) { $0.flatMap(.latest) { SignalProducer<String, TestError>(value: "\($0)") } } == expected)
        let (typed2, sendTyped2) = innerSignal(TestError.self)
        #expect(run(Never.self, { $0.flatMap(.latest) { _ in typed2 } }, sendInner: sendTyped2) == [.value("1"), .value("2")])
        let expectedNever: [Signal<String, Never>.Event] = [.value("1"), .value("2"), .completed]
        #expect(run(Never.self) { $0.flatMap(.latest) { SignalProducer<String, Never>(value: "\($0)") } } == expectedNever)
        let (safe2, sendSafe2) = innerSignal(Never.self)
        #expect(run(Never.self, { $0.flatMap(.latest) { _ in safe2 } }, sendInner: sendSafe2) == [.value("1"), .value("2")])
    }

    /// Each error-type overload of `flatMap` on a producer, with a failure from whichever side
    /// can fail: the failure ends the result at once (E2).
    @Test func flatMapErrorTypeOverloadsOnProducers() {
        func events<V, E: Swift.Error>(_ producer: SignalProducer<V, E>) -> [Signal<V, E>.Event] {
            let recorder = EventRecorder<V, E>()
            producer.start(recorder.observer)
            return recorder.events
        }
        let values = SignalProducer<Int, TestError>([1, 2])
        let failingOuter = SignalProducer<Int, TestError>(value: 1).concat(error: TestError(7))
        let safe = SignalProducer<Int, Never>([1, 2])
        let expected: [Signal<String, TestError>.Event] = [.value("1"), .value("2"), .completed]
        #expect(events(values.flatMap(.merge) { SignalProducer<String, TestError>(value: "\($0)") }) == expected)
        #expect(events(values.flatMap(.concat) { SignalProducer<String, Never>(value: "\($0)") }) == expected)
        #expect(
            events(failingOuter.flatMap(.merge) { SignalProducer<String, Never>(value: "\($0)") })
                == [.value("1"), .failed(TestError(7))]
        )
        #expect(
            events(safe.flatMap(.race) { _ in SignalProducer<String, TestError>(error: TestError(9)) })
                == [.failed(TestError(9))]
        )
        #expect(
            events(safe.flatMap(.merge) { _ in Signal<String, TestError>.empty }) == [.completed]
        )
        #expect(events(values.flatMap(.merge) { _ in Signal<String, Never>.empty }) == [.completed])
        #expect(
            events(safe.flatMap(.latest) { SignalProducer<String, Never>(value: "\($0)") })
                == [.value("1"), .value("2"), .completed]
        )
        #expect(events(safe.flatMap(.latest) { _ in Signal<String, Never>.empty }) == [.completed])
    }

    @Test func innerSignalsAreObservedFromWhenTheyArrive() {
        let (outer, input) = Signal<Signal<Int, Never>, Never>.pipe()
        let (inner, innerInput) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        outer.flatten(.merge).observe(recorder.observer)
        innerInput.send(value: 0)
        input.send(value: inner)
        innerInput.send(value: 1)
        innerInput.sendCompleted()
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func reentrantOuterValueFromAnInnerValueIsQueued_E6() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        outer.flatten(.merge).observe { event in
            recorder.record(event)
            if event.value == 1 { input.send(value: SignalProducer(value: 2)) }
        }
        input.send(value: SignalProducer([1, 3]))
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(3), .value(2), .completed])
    }
}

// MARK: - Stress (CI runs these under Thread Sanitizer)

@Suite(.checksLiveObjects) struct FlattenStressTests {
    @Test("merge: 8 inners sending from 8 threads lose nothing, never overlap, end once")
    func mergeFromManyThreads() {
        let (outer, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let inners = (0..<8).map { _ in Signal<Int, TestError>.pipe() }
        let detector = OverlapDetector()
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer(outer).flatten(.merge).start { event in
            detector.enter()
            recorder.record(event)
            detector.leave()
        }
        for inner in inners { input.send(value: inner.output) }
        input.sendCompleted()
        let finished = withWatchdog(seconds: 300, "merge senders") {
            runConcurrently(8) { thread in
                for index in 0..<1_000 { inners[thread].input.send(value: thread * 10_000 + index) }
                inners[thread].input.sendCompleted()
            }
        }
        #expect(finished)
        #expect(detector.overlapCount == 0)
        let values = recorder.values
        #expect(values.count == 8_000)
        for thread in 0..<8 {
            let own = values.filter { $0 / 10_000 == thread }
            #expect(own == (0..<1_000).map { thread * 10_000 + $0 })
        }
        #expect(recorder.terminalCount == 1)
        #expect(recorder.events.last == .completed)
    }

    @Test("latest: once a newer inner has delivered, no older inner delivers again")
    func latestNeverDeliversFromAReplacedInner() {
        typealias Pipe = (output: Signal<Int, TestError>, input: Signal<Int, TestError>.Observer)
        let (outer, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        outer.flatten(.latest).observe(recorder.observer)
        let generations = 100
        let pipes: [Pipe] = (0..<generations).map { _ in Signal<Int, TestError>.pipe() }
        let current = Locked(0)
        let finished = withWatchdog(seconds: 300, "latest senders") {
            runConcurrently(8) { thread in
                if thread == 0 {
                    for generation in 0..<generations {
                        current.withLock { $0 = generation }
                        input.send(value: pipes[generation].output)
                        usleep(300)
                    }
                    current.withLock { $0 = generations }
                } else {
                    // Senders keep sending on whatever generation they last saw, often a replaced one.
                    var sent = 0
                    while true {
                        let generation = current.withLock { $0 }
                        if generation >= generations { break }
                        pipes[generation].input.send(value: generation * 100_000 + thread * 10_000 + sent % 10_000)
                        sent += 1
                    }
                }
            }
        }
        #expect(finished)
        let seen = recorder.values.map { $0 / 100_000 }
        #expect(Set(seen).count > 1, "the senders should reach several generations")
        #expect(seen == seen.sorted(), "a value from a replaced inner arrived after a newer inner's value")
        #expect(recorder.terminalCount == 0)
    }

    @Test("latest: an event of the replaced inner that already waits at the mailbox is dropped")
    func latestDropsAWaitingEventOfAReplacedInner() {
        let (outer, input) = Signal<Int, TestError>.pipe()
        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let (second, secondInput) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        let sent = DispatchSemaphore(value: 0)
        outer.flatMap(.latest) { index -> Signal<Int, TestError> in
            guard index == 2 else { return first }
            // This thread holds the flattening's turn while `transform` runs: another thread's value
            // on the first inner reaches the mailbox and waits there until the second inner has
            // replaced the first. It must then be dropped.
            Thread {
                firstInput.send(value: 99); sent.signal()
            }.start()
            usleep(100_000)
            return second
        }.observe(recorder.observer)
        input.send(value: 1)
        firstInput.send(value: 1)
        input.send(value: 2)
        sent.wait()
        secondInput.send(value: 2)
        #expect(recorder.values == [1, 2])
    }

    @Test(
        "concurrent starts: 8 threads sending synchronous inners lose nothing, keep order, never overlap",
        arguments: [FlattenStrategy.merge, .concat, .concurrent(limit: 3)])
    func innersStartedFromManyThreads(strategy: FlattenStrategy) {
        let (outer, input) = Signal<SignalProducer<Int, TestError>, TestError>.pipe()
        let detector = OverlapDetector()
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer(outer).flatten(strategy).start { event in
            detector.enter()
            recorder.record(event)
            detector.leave()
        }
        let finished = withWatchdog(seconds: 300, "outer senders") {
            runConcurrently(8) { thread in
                for index in 0..<300 {
                    input.send(value: SignalProducer([thread * 10_000 + index, thread * 10_000 + index]))
                }
            }
        }
        input.sendCompleted()
        #expect(finished)
        #expect(detector.overlapCount == 0)
        let values = recorder.values
        #expect(values.count == 8 * 300 * 2)
        for thread in 0..<8 {
            // Each thread's inners arrive in its order; each inner is synchronous, so even `.merge`
            // keeps them in that order.
            let own = values.filter { $0 / 10_000 == thread }
            let sent: [Int] = (0..<300).flatMap { index -> [Int] in
                let value = thread * 10_000 + index
                return [value, value]
            }
            #expect(own == sent)
        }
        #expect(recorder.terminalCount == 1)
        #expect(recorder.events.last == .completed)
    }

    @Test("race: 8 inners racing from 8 threads, exactly one wins")
    func raceHasOneWinner() {
        for _ in 0..<20 {
            let (outer, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
            let inners = (0..<8).map { _ in Signal<Int, TestError>.pipe() }
            let recorder = EventRecorder<Int, TestError>()
            outer.flatten(.race).observe(recorder.observer)
            for inner in inners { input.send(value: inner.output) }
            input.sendCompleted()
            runConcurrently(8) { thread in
                for index in 0..<50 { inners[thread].input.send(value: thread * 1_000 + index) }
                inners[thread].input.sendCompleted()
            }
            let values = recorder.values
            let winners = Set(values.map { $0 / 1_000 })
            #expect(winners.count == 1)
            if let winner = winners.first {
                #expect(values == (0..<50).map { winner * 1_000 + $0 })
            }
            #expect(recorder.events.last == .completed)
            #expect(recorder.terminalCount == 1)
        }
    }
}
