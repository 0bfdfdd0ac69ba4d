import Testing
@testable import Rivulet
import RivuletContracts

/// A machine for testing the gate itself: forwards non-negative inputs, completes at a negative
/// one, and asks to stop the source operand at zero. It holds `token` to observe its release.
private struct EchoMachine: GateStateMachine {
    let token: Tracked
    var hasTerminated = false

    mutating func receive(_ input: Int) -> GateAction<Int, Never> {
        if hasTerminated { return .none }
        if input < 0 {
            hasTerminated = true
            return .send(.completed)
        }
        return GateAction(event: .value(input), stops: input == 0 ? .source : nil)
    }

    static func interruption(of _: GateOperand) -> Int { -1 }
}

@Suite(.checksLiveObjects) struct GateRunnerTests {
    @Test(.observerKeepsWhatItObserves) func reentrantInputsAreQueuedAfterTheCurrentOne_E6() {
        var received: [Int] = []
        var gate: GateRunner<EchoMachine>?
        let (lifetime, token) = Lifetime.make()
        gate = GateRunner(
            EchoMachine(token: Tracked()),
            downstream: { event in
                guard let value = event.value else { return }
                received.append(value)
                // Sent from inside the downstream: handled after this call returns, not nested.
                if value == 1 {
                    gate?.receive(2, from: -1)
                    received.append(100)
                }
            }, lifetime: lifetime, startsOperands: false)
        gate?.receive(1, from: -1)
        gate?.receive(3, from: -1)
        #expect(received == [1, 100, 2, 3])
        withExtendedLifetime(token) {}
    }

    @Test func aTerminalEventEndsTheOperandsAndReleasesTheMachine_S5() {
        let watched = WeakBox<Tracked>(nil)
        let recorder = EventRecorder<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        let weakGate = WeakBox<GateRunner<EchoMachine>>(nil)
        do {
            let object = Tracked()
            watched.object = object
            let gate = GateRunner(
                EchoMachine(token: object), downstream: recorder.record, lifetime: lifetime, startsOperands: false
            )
            weakGate.object = gate
            gate.receive(1, from: -1)
            #expect(watched.object != nil)
            gate.receive(-1, from: -1)
            gate.receive(2, from: -1)
            #expect(gate.hasEnded(.source))
            #expect(gate.hasEnded(.other))
        }
        #expect(recorder.events == [.value(1), .completed])
        #expect(!lifetime.hasEnded)
        // Neither the closed mailbox nor the stream's lifetime keeps the gate.
        #expect(weakGate.object == nil)
        #expect(watched.object == nil)
        withExtendedLifetime(token) {}
    }

    @Test func theStreamsEndStopsTheGate() {
        let recorder = EventRecorder<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        let gate = GateRunner(
            EchoMachine(token: Tracked()), downstream: recorder.record, lifetime: lifetime, startsOperands: false
        )
        token.dispose()
        gate.receive(1, from: -1)
        #expect(gate.hasEnded(.source))
        #expect(gate.hasEnded(.other))
        #expect(recorder.events.isEmpty)
    }

    @Test func theMachineCanStopOneOperandAlone() {
        let recorder = EventRecorder<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        let gate = GateRunner(
            EchoMachine(token: Tracked()), downstream: recorder.record, lifetime: lifetime, startsOperands: false
        )
        gate.receive(5, from: -1)
        #expect(!gate.hasEnded(.source))
        gate.receive(0, from: -1)
        #expect(gate.hasEnded(.source))
        #expect(!gate.hasEnded(.other))
        gate.receive(6, from: -1)
        #expect(recorder.values == [5, 0, 6])
        withExtendedLifetime(token) {}
    }
}
