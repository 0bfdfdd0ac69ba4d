import Testing
@testable import Rivulet
import RivuletContracts

/// The flattening decisions, checked without any stream: inner streams are plain strings.
@Suite(.checksLiveObjects) struct FlattenStateMachineTests {
    typealias Machine = FlattenStateMachine<String>

    @Test func concurrentStartsUpToTheLimitThenQueuesInOrder() {
        var machine = Machine(FlattenStrategy.concurrent(limit: 2).kind)
        let first = machine.outerValue("a")
        #expect(first.start == 0)
        #expect(!first.startsWaitingInner)
        #expect(machine.outerValue("b").start == 1)
        #expect(machine.outerValue("c").start == nil)
        #expect(machine.outerValue("d").start == nil)
        #expect(machine.waitingCount == 2)
        let next = machine.innerCompleted(1)
        #expect(next.start == 2)
        #expect(next.startsWaitingInner)
        #expect(machine.takeStartingInner() == "c")
        #expect(machine.takeStartingInner() == nil)
        #expect(!next.complete)
        let afterInterruption = machine.innerInterrupted(0)
        #expect(afterInterruption.start == 3)
        #expect(afterInterruption.startsWaitingInner)
        #expect(machine.takeStartingInner() == "d")
        #expect(machine.outerCompleted().complete == false)
        #expect(machine.innerCompleted(2).complete == false)
        #expect(machine.innerCompleted(3).complete == true)
        #expect(machine.hasTerminated)
    }

    @Test(arguments: allFlattenStrategies)
    func anOuterValueAfterTheOuterCompletedIsIgnored_E1(strategy: FlattenStrategy) {
        var machine = Machine(strategy.kind)
        _ = machine.outerValue("a")
        _ = machine.outerCompleted()
        #expect(machine.outerValue("late").start == nil)
        #expect(machine.waitingCount == 0)
        #expect(machine.innerCompleted(0).complete)
    }

    @Test func innerValuesAreForwardedOnlyFromRunningInners() {
        var machine = Machine(FlattenStrategy.merge.kind)
        _ = machine.outerValue("a")
        #expect(machine.innerValue(0).forwardValue)
        #expect(!machine.innerValue(7).forwardValue)
        _ = machine.innerCompleted(0)
        #expect(!machine.innerValue(0).forwardValue)
    }

    @Test func latestCancelsThePreviousInnerAndIgnoresItsLateEvents() {
        var machine = Machine(FlattenStrategy.latest.kind)
        _ = machine.outerValue("a")
        let replace = machine.outerValue("b")
        #expect(replace.cancels)
        #expect(Array(machine.takeCancelled()) == [0])
        #expect(replace.start == 1)
        #expect(!machine.innerValue(0).forwardValue)
        let staleFailure = machine.innerFailed(0)
        #expect(!staleFailure)
        #expect(machine.outerCompleted().complete == false)
        // The replaced inner's completion does not count.
        #expect(machine.innerCompleted(0).complete == false)
        #expect(machine.innerCompleted(1).complete == true)
    }

    @Test func raceWinnerIsTheFirstToSendAndLatecomersAreDropped() {
        var machine = Machine(FlattenStrategy.race.kind)
        _ = machine.outerValue("a")
        _ = machine.outerValue("b")
        _ = machine.outerValue("c")
        let win = machine.innerValue(1)
        #expect(win.forwardValue)
        #expect(win.cancels)
        #expect(machine.takeCancelled().sorted() == [0, 2])
        #expect(machine.winner == 1)
        #expect(!machine.innerValue(0).forwardValue)
        #expect(machine.outerValue("d").start == nil)
        #expect(machine.innerCompleted(1).complete == false)
        #expect(machine.outerCompleted().complete == true)
    }

    @Test func raceInterruptedContenderWinsAndInterrupts() {
        var machine = Machine(FlattenStrategy.race.kind)
        _ = machine.outerValue("a")
        _ = machine.outerValue("b")
        let interrupted = machine.innerInterrupted(0)
        #expect(interrupted.cancels)
        #expect(machine.takeCancelled().sorted() == [1])
        #expect(interrupted.interrupt)
        #expect(machine.winner == 0)
        #expect(machine.hasTerminated)
        #expect(machine.innerCompleted(1).complete == false)
    }

    @Test func mergeAndLatestGoOnAfterAnInnerInterruption_E4() {
        for strategy in [FlattenStrategy.merge, .latest] {
            var machine = Machine(strategy.kind)
            _ = machine.outerValue("a")
            let interrupted = machine.innerInterrupted(0)
            #expect(!interrupted.interrupt)
            #expect(!machine.hasTerminated)
            #expect(machine.outerCompleted().complete)
        }
    }

    @Test func throttleDropsInnersWhileOneRuns() {
        var machine = Machine(FlattenStrategy.throttle.kind)
        #expect(machine.outerValue("a").start == 0)
        #expect(machine.outerValue("b").start == nil)
        _ = machine.innerCompleted(0)
        #expect(machine.outerValue("c").start == 1)
        #expect(machine.outerCompleted().complete == false)
        #expect(machine.innerCompleted(1).complete == true)
    }

    @Test func terminateHappensOnceAndSilencesEverything_E1() {
        var machine = Machine(FlattenStrategy.merge.kind)
        _ = machine.outerValue("a")
        _ = machine.outerValue("b")
        let failed = machine.innerFailed(0)
        let terminatedAgain = machine.terminate()
        let laterFailure = machine.innerFailed(1)
        #expect(failed)
        #expect(!terminatedAgain)
        #expect(!laterFailure)
        #expect(!machine.innerValue(1).forwardValue)
        #expect(machine.outerValue("c").start == nil)
        #expect(!machine.outerCompleted().complete)
        #expect(machine.running.isEmpty)
    }

    @Test func completesAtOnceWhenNothingRuns() {
        for strategy in allFlattenStrategies {
            var machine = Machine(strategy.kind)
            #expect(machine.outerCompleted().complete, "\(strategy)")
        }
    }
}
