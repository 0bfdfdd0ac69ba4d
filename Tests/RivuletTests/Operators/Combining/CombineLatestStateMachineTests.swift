import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct CombineLatestStateMachineTests {
    @Test func emitsOnceEverySourceHasAValue() {
        var machine = CombineLatestStateMachine<Int>(sourceCount: 3)
        #expect(machine.receiveValue(1, from: 0) == .none)
        #expect(machine.receiveValue(2, from: 0) == .none)
        #expect(machine.receiveValue(10, from: 1) == .none)
        #expect(machine.receiveValue(20, from: 2) == .emit)
        #expect([0, 1, 2].map(machine.element(at:)) == [2, 10, 20])
        #expect(machine.receiveValue(11, from: 1) == .emit)
        #expect([0, 1, 2].map(machine.element(at:)) == [2, 11, 20])
    }

    @Test func nilIsAValue() {
        var machine = CombineLatestStateMachine<Int?>(sourceCount: 2)
        #expect(machine.receiveValue(nil, from: 0) == .none)
        #expect(machine.receiveValue(nil, from: 0) == .none)
        #expect(machine.receiveValue(1, from: 1) == .emit)
        #expect(machine.element(at: 0) == nil)
    }

    @Test func completesWhenEverySourceCompleted() {
        var machine = CombineLatestStateMachine<Int>(sourceCount: 2)
        #expect(machine.receiveCompletion(from: 0) == .none)
        #expect(machine.receiveValue(1, from: 1) == .none)
        #expect(machine.receiveCompletion(from: 1) == .complete)
        #expect(machine.isTerminated)
        #expect(machine.receiveValue(1, from: 0) == .none)
        let terminatedAgain = machine.terminate()
        #expect(!terminatedAgain)
    }

    @Test func terminateHappensOnce() {
        var machine = CombineLatestStateMachine<Int>(sourceCount: 2)
        let terminated = machine.terminate()
        #expect(terminated)
        let terminatedAgain = machine.terminate()
        #expect(!terminatedAgain)
        #expect(machine.receiveValue(1, from: 0) == .none)
        #expect(machine.receiveCompletion(from: 0) == .none)
        #expect(machine.receiveCompletion(from: 1) == .none)
    }

    @Test func aFailureOrInterruptionIsForwardedOnce_E1_E2() {
        var machine = CombineLatestStateMachine<Int>(sourceCount: 2)
        #expect(machine.receiveValue(1, from: 0) == .none)
        #expect(machine.receiveTermination(from: 1) == .forwardTermination)
        #expect(machine.isTerminated)
        #expect(machine.receiveTermination(from: 0) == .none)
        #expect(machine.receiveValue(1, from: 1) == .none)
    }
}
