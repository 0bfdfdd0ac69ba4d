import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct ZipStateMachineTests {
    @Test func emitsTheOldestValueOfEachSource() {
        var machine = ZipStateMachine<Int>(sourceCount: 2)
        #expect(machine.receiveValue(1, from: 0) == .none)
        #expect(machine.receiveValue(2, from: 0) == .none)
        #expect(machine.receiveValue(10, from: 1) == .emit)
        #expect([0, 1].map(machine.element(at:)) == [1, 10])
        machine.didEmit()
        #expect(machine.receiveValue(20, from: 1) == .emit)
        #expect([0, 1].map(machine.element(at:)) == [2, 20])
        machine.didEmit()
        #expect(machine.receiveValue(30, from: 1) == .none)
    }

    @Test func completesWhenACompletedSourceRunsDry() {
        var machine = ZipStateMachine<Int>(sourceCount: 2)
        #expect(machine.receiveValue(1, from: 0) == .none)
        #expect(machine.receiveValue(2, from: 0) == .none)
        #expect(machine.receiveCompletion(from: 0) == .none)
        #expect(machine.receiveValue(10, from: 1) == .emit)
        machine.didEmit()
        #expect(machine.receiveValue(20, from: 1) == .emitThenComplete)
        #expect([0, 1].map(machine.element(at:)) == [2, 20])
        machine.didEmit()
        #expect(machine.isTerminated)
        #expect(machine.receiveValue(30, from: 1) == .none)
    }

    @Test func completesAtOnceWhenTheCompletingSourceHasNothingWaiting() {
        var machine = ZipStateMachine<Int>(sourceCount: 3)
        #expect(machine.receiveValue(1, from: 0) == .none)
        #expect(machine.receiveCompletion(from: 1) == .complete)
        let terminatedAgain = machine.terminate()
        #expect(!terminatedAgain)
    }

    @Test func completesWhenEverySourceCompleted() {
        var machine = ZipStateMachine<Int>(sourceCount: 2)
        #expect(machine.receiveValue(1, from: 0) == .none)
        #expect(machine.receiveValue(2, from: 1) == .emit)
        machine.didEmit()
        #expect(machine.receiveValue(3, from: 0) == .none)
        #expect(machine.receiveValue(4, from: 1) == .emit)
        machine.didEmit()
        #expect(machine.receiveValue(5, from: 0) == .none)
        #expect(machine.receiveValue(6, from: 1) == .emit)
        machine.didEmit()
        #expect(machine.receiveValue(7, from: 0) == .none)
        #expect(machine.receiveCompletion(from: 0) == .none)
        #expect(machine.receiveCompletion(from: 1) == .complete)
    }

    @Test func aFailureOrInterruptionIsForwardedOnce_E1_E2() {
        var machine = ZipStateMachine<Int>(sourceCount: 2)
        #expect(machine.receiveValue(1, from: 0) == .none)
        #expect(machine.receiveTermination(from: 1) == .forwardTermination)
        #expect(machine.isTerminated)
        #expect(machine.receiveTermination(from: 0) == .none)
        #expect(machine.receiveValue(1, from: 1) == .none)
    }
}
