import Testing
@testable import Rivulet

/// A machine for testing the gate itself: forwards non-negative inputs, completes at a negative
/// one, and asks to stop the primary source at zero. It holds `token` to observe its release.
private struct EchoMachine: GateStateMachine {
    let token: Tracked
    var hasTerminated = false

    mutating func receive(_ input: Int) -> GateAction<Int, Never> {
        if hasTerminated { return .none }
        if input < 0 {
            hasTerminated = true
            return .send(.completed)
        }
        return GateAction(event: .value(input), stopsPrimary: input == 0)
    }
}

@Suite struct GateRunnerTests {
    @Test func reentrantInputsAreQueuedAfterTheCurrentOne_E6() {
        var received: [Int] = []
        var gate: GateRunner<Int>?
        let (lifetime, token) = Lifetime.make()
        gate = GateRunner(
            EchoMachine(token: Tracked()),
            downstream: { event in
                guard let value = event.value else { return }
                received.append(value)
                // Sent from inside the downstream: handled after this call returns, not nested.
                if value == 1 { gate?.send(2); received.append(100) }
            }, lifetime: lifetime)
        gate?.send(1)
        gate?.send(3)
        #expect(received == [1, 100, 2, 3])
        withExtendedLifetime(token) {}
    }

    @Test func aTerminalEventEndsTheSourcesAndReleasesTheMachine_S5() {
        let watched = WeakBox<Tracked>(nil)
        let recorder = EventRecorder<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        let gate: GateRunner<Int>
        do {
            let object = Tracked()
            watched.object = object
            gate = GateRunner(EchoMachine(token: object), downstream: recorder.record, lifetime: lifetime)
        }
        gate.send(1)
        #expect(watched.object != nil)
        gate.send(-1)
        gate.send(2)
        #expect(recorder.events == [.value(1), .completed])
        #expect(gate.sources.hasEnded)
        #expect(gate.primary.hasEnded)
        #expect(!lifetime.hasEnded)
        #expect(watched.object == nil)
        withExtendedLifetime(token) {}
    }

    @Test func theStreamsEndStopsTheGate() {
        let recorder = EventRecorder<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        let gate = GateRunner(EchoMachine(token: Tracked()), downstream: recorder.record, lifetime: lifetime)
        token.dispose()
        gate.send(1)
        #expect(gate.sources.hasEnded)
        #expect(recorder.events.isEmpty)
    }

    @Test func theMachineCanStopASeparatePrimaryAlone() {
        let recorder = EventRecorder<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        let gate = GateRunner(
            EchoMachine(token: Tracked()), downstream: recorder.record, lifetime: lifetime, separatePrimary: true
        )
        gate.send(5)
        #expect(!gate.primary.hasEnded)
        gate.send(0)
        #expect(gate.primary.hasEnded)
        #expect(!gate.sources.hasEnded)
        gate.send(6)
        #expect(recorder.values == [5, 0, 6])
        withExtendedLifetime(token) {}
    }
}
