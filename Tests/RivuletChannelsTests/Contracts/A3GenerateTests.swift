import Testing
import RivuletChannels
import RivuletContracts

/// A3: `generate` gets a fresh input on each activation and `nil` on deactivation.
@Suite(.checksLiveObjects) struct A3GenerateTests {
    @Test(
        "A3 generate gets a fresh input per activation and nil on deactivation",
        .keepsLiveObjects(
            "the generator keeps its inputs and an input holds its channel: a cycle the test makes on purpose (releasing an input would end the channel, A7)"
        ))
    func freshInputs() {
        let seen = Shared<[ChannelInput<Int>?]>([])
        let channel = Channel<Int>.generate { input in seen.withLock { $0.append(input) } }
        var output = channel.subscribe { _ in }
        output.cancel()
        output = channel.subscribe { _ in }
        output.cancel()
        let inputs = seen.current
        #expect(inputs.count == 4)
        guard inputs.count == 4, let first = inputs[0], let second = inputs[2] else {
            Issue.record("unexpected calls: \(inputs.map { $0 == nil ? "nil" : "input" })")
            return
        }
        #expect(inputs[1] == nil)
        #expect(inputs[3] == nil)
        #expect(first !== second)
        // The first activation's input is used up (A5).
        #expect(first.send(value: 1) == .disconnected)
        #expect(second.send(value: 1) == .disconnected)
    }

    @Test(
        "A3 values sent by generate are ordinary values: a capture holds them, it does not capture them",
        .keepsLiveObjects(
            "keeps every generated input in a static array for the rest of the run (releasing one would end its channel, A7)"))
    func generateRunsAfterActivation() {
        let channel = Channel<Int>.generate { input in
            input?.send(value: 1)
            input?.send(value: 2)
            // Keep the input alive past the closure's return, to avoid ending the channel.
            if let input { Self.keep(input) }
        }
        let capture = channel.capture()
        #expect(capture.values == [])
        let log = ChannelLog<Int>()
        let output = capture.subscribe(log.handler)
        #expect(log.all == ["1", "2"])
        withExtendedLifetime(output) {}
    }

    private static let kept = Shared<[AnyObject]>([])
    private static func keep(_ object: AnyObject) { kept.withLock { $0.append(object) } }

    @Test("A3 dropping generate's input ends the channel with cancelled, and the closure then hears nil")
    func droppingInputCancels() {
        let calls = Shared<[String]>([])
        let channel = Channel<Int>.generate { input in
            calls.withLock { $0.append(input == nil ? "nil" : "input") }
            input?.send(value: 7)
        }
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(log.all == ["7", "cancelled"])
        #expect(calls.current == ["input", "nil"])
        #expect(output.isClosed)
    }

    @Test("A3 generate's closure runs on its context: a TestScheduler runs it when advanced")
    func generateContext() {
        let scheduler = TestScheduler()
        let held = Shared<ChannelInput<Int>?>(nil)
        let calls = Shared<[Bool]>([])
        let channel = Channel<Int>.generate(context: Exec(scheduler)) { input in
            calls.withLock { $0.append(input != nil) }
            held.set(input)
        }
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(calls.current == [])
        scheduler.advance()
        #expect(calls.current == [true])
        held.current?.send(value: 3)
        #expect(log.all == ["3"])
        output.cancel()
        scheduler.advance()
        #expect(calls.current == [true, false])
        held.set(nil)
    }
}
