import Testing
import RivuletChannels
import RivuletContracts

/// A1: a channel graph is inert until an output attaches; activation happens per node, not per
/// subscriber.
@Suite(.checksLiveObjects) struct A1ActivationTests {
    @Test("A1 a graph is inert until an output attaches")
    func inertUntilOutput() {
        let activations = Shared<[Bool]>([])
        let processed = Shared(0)
        let kept = Shared<ChannelInput<Int>?>(nil)
        let source = Channel<Int>.generate { input in
            activations.withLock { $0.append(input != nil) }
            // Keep the input: dropping it would end the channel (A7).
            kept.set(input)
            input?.send(value: 1)
        }
        let (otherInput, other) = Channel<Int>.create()
        let graph = source.map { value -> Int in
            processed.withLock { $0 += 1 }
            return value * 10
        }
        .filter { _ in true }
        .combineLatestWith(other) { $0 + $1 }
        #expect(activations.current == [])
        #expect(processed.current == 0)
        #expect(otherInput.send(value: 5) == .inactive)

        let log = ChannelLog<Int>()
        let output = graph.subscribe(log.handler)
        #expect(activations.current == [true])
        #expect(processed.current == 1)
        otherInput.send(value: 5)
        #expect(log.all == ["15"])
        withExtendedLifetime(output) {}
    }

    @Test("A1 a junction's channel stays inert until the channel it feeds has an output")
    func junctionInertUntilOutput() throws {
        let activations = Shared(0)
        let kept = Shared<ChannelInput<Int>?>(nil)
        let source = Channel<Int>.generate { input in
            if input != nil { activations.withLock { $0 += 1 } }
            kept.set(input)
        }
        let (targetInput, target) = Channel<Int>.create()
        try source.junction().bind(to: targetInput)
        #expect(activations.current == 0)
        let output = target.subscribe { _ in }
        #expect(activations.current == 1)
        withExtendedLifetime(output) {}
    }

    @Test("A1 a multicast activates its upstream once for many outputs")
    func multicastActivatesOnce() {
        let activations = Shared<[Bool]>([])
        let kept = Shared<ChannelInput<Int>?>(nil)
        let multi = Channel<Int>.generate { input in
            activations.withLock { $0.append(input != nil) }
            kept.set(input)
        }
        .multicast()
        #expect(activations.current == [])
        let logs = (0..<4).map { _ in ChannelLog<Int>() }
        let outputs = logs.map { multi.subscribe($0.handler) }
        #expect(activations.current == [true])
        kept.current?.send(value: 1)
        for log in logs { #expect(log.all == ["1"]) }
        // Three of four outputs leave: upstream stays active for the last.
        for output in outputs.dropLast() { output.cancel() }
        #expect(activations.current == [true])
        kept.current?.send(value: 2)
        #expect(logs[3].all == ["1", "2"])
        #expect(logs[0].all == ["1"])
        outputs[3].cancel()
        #expect(activations.current == [true, false])
    }

    @Test("A1 a processor shared through a multi runs once per value, whatever the number of outputs")
    func sharedProcessorRunsOncePerValue() {
        let calls = Shared(0)
        let (input, multi) = Channel<Int>.create {
            $0.map { value -> Int in
                calls.withLock { $0 += 1 }
                return value
            }
            .continuous()
        }
        let outputs = (0..<5).map { _ in multi.subscribe { _ in } }
        input.send(value: 1)
        input.send(value: 2)
        #expect(calls.current == 2)
        withExtendedLifetime(outputs) {}
    }

    @Test(
        "A1 continuousWhileActive waits for an output; continuous, playback, customActivation, cacheUntilActive and capture activate at once",
        .keepsLiveObjects(
            "the generator keeps its inputs and an input holds its channel: a cycle the test makes on purpose (releasing an input would end the channel, A7)"
        )
    )
    func whichMultisActivateAtOnce() {
        func activations(_ make: (Channel<Int>) -> AnyObject) -> Int {
            let count = Shared(0)
            let kept = Shared<ChannelInput<Int>?>(nil)
            let source = Channel<Int>.generate { input in
                if input != nil { count.withLock { $0 += 1 } }
                kept.set(input)
            }
            let made = make(source)
            defer { withExtendedLifetime(made) {} }
            return count.current
        }
        #expect(activations { $0.multicast() } == 0)
        #expect(activations { $0.continuousWhileActive() } == 0)
        #expect(activations { $0.continuous() } == 1)
        #expect(activations { $0.playback() } == 1)
        #expect(activations { $0.customActivation { _, _, _ in } } == 1)
        #expect(activations { $0.cacheUntilActive() } == 1)
        #expect(activations { $0.capture() } == 1)
    }

    @Test("A1 subscribing to a capture does not activate its upstream again")
    func captureActivatesOnce() {
        let activations = Shared(0)
        let kept = Shared<ChannelInput<Int>?>(nil)
        let capture = Channel<Int>.generate { input in
            if input != nil { activations.withLock { $0 += 1 } }
            kept.set(input)
        }
        .capture()
        #expect(activations.current == 1)
        let output = capture.subscribe { _ in }
        #expect(activations.current == 1)
        withExtendedLifetime(output) {}
    }
}
