import Testing
import RivuletChannels
import RivuletContracts

/// A5: a send with no active output returns `inactive` (or `disconnected` once the input's
/// activation is over) and the value goes nowhere.
@Suite(.checksLiveObjects) struct A5InactiveTests {
    @Test("A5 before activation a send is inactive and the value goes nowhere")
    func beforeActivation() {
        let (input, channel) = Channel<Int>.create()
        #expect(input.send(value: 1) == .inactive)
        #expect(input.send(result: .success(2)) == .inactive)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(log.all == [])
        #expect(input.send(value: 3) == nil)
        #expect(log.all == ["3"])
        withExtendedLifetime(output) {}
    }

    @Test("A5 after deactivation a plain input is disconnected")
    func afterDeactivation() {
        let (input, channel) = Channel<Int>.create()
        let output = channel.subscribe { _ in }
        #expect(input.send(value: 1) == nil)
        output.cancel()
        #expect(input.send(value: 2) == .disconnected)
        // Single use: a new output does not revive it.
        let log = ChannelLog<Int>()
        let again = channel.subscribe(log.handler)
        #expect(input.send(value: 3) == .disconnected)
        #expect(!log.all.contains("3"))
        withExtendedLifetime(again) {}
    }

    @Test("A5 after the end a send is disconnected")
    func afterEnd() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(input.complete() == nil)
        #expect(input.send(value: 1) == .disconnected)
        #expect(input.send(end: .cancelled) == .disconnected)
        #expect(log.all == ["complete"])
        withExtendedLifetime(output) {}
    }

    @Test(
        "A5 an old activation's generate input is disconnected",
        .keepsLiveObjects(
            "the generator keeps its inputs and an input holds its channel: a cycle the test makes on purpose (releasing an input would end the channel, A7)"
        ))
    func oldGenerateInput() {
        let inputs = Shared<[ChannelInput<Int>]>([])
        let channel = Channel<Int>.generate { input in
            if let input { inputs.withLock { $0.append(input) } }
        }
        let log = ChannelLog<Int>()
        let first = channel.subscribe { _ in }
        first.cancel()
        let second = channel.subscribe(log.handler)
        let all = inputs.current
        #expect(all.count == 2)
        #expect(all.first?.send(value: 1) == .disconnected)
        #expect(all.last?.send(value: 2) == nil)
        #expect(log.all == ["2"])
        withExtendedLifetime(second) {}
    }

    @Test("A5 a multi input is inactive while nothing listens and stays valid across deactivations")
    func multiInputInactive() {
        let (input, channel) = Channel<Int>.createMultiInput()
        #expect(input.send(value: 1) == .inactive)

        let log = ChannelLog<Int>()
        var output = channel.subscribe(log.handler)
        #expect(input.send(value: 2) == nil)
        output.cancel()
        #expect(input.send(value: 3) == .inactive)
        output = channel.subscribe(log.handler)
        #expect(input.send(value: 4) == nil)
        #expect(log.all == ["2", "4"])
        withExtendedLifetime(output) {}
    }

    @Test("A5 a send into a multicast with no output is inactive")
    func multicastWithoutOutput() {
        let (input, channel) = Channel<Int>.createMultiInput()
        let multi = channel.multicast()
        #expect(input.send(value: 1) == .inactive)

        let log = ChannelLog<Int>()
        let output = multi.subscribe(log.handler)
        #expect(input.send(value: 2) == nil)
        output.cancel()
        #expect(input.send(value: 3) == .inactive)
        #expect(log.all == ["2"])
    }
}
