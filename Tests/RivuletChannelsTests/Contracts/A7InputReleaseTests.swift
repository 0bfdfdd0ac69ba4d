import Testing
import RivuletChannels
import RivuletContracts

/// A7: releasing an input (or calling `cancel()`) ends its channel with `cancelled`.
@Suite(.checksLiveObjects) struct A7InputReleaseTests {
    @Test("A7 releasing an input ends its channel with cancelled")
    func releasingInput() {
        var input: ChannelInput<Int>?
        let channel: Channel<Int>
        (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        input?.send(value: 1)
        input = nil
        #expect(log.all == ["1", "cancelled"])
        #expect(output.isClosed)
    }

    @Test("A7 cancel() ends the channel with cancelled, once")
    func cancelInput() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        input.cancel()
        input.cancel()
        #expect(input.send(value: 1) == .disconnected)
        #expect(log.all == ["cancelled"])
        #expect(input.isDisposed)
        withExtendedLifetime(output) {}
    }

    @Test("A7 an input whose end got through is used up: isDisposed, and releasing it sends nothing more")
    func endUsesTheInputUp() {
        var input: ChannelInput<Int>?
        let channel: Channel<Int>
        (input, channel) = Channel<Int>.create()
        // An end refused while nothing listens does not use the input up.
        #expect(input?.complete() == .inactive)
        #expect(input?.isDisposed == false)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(input?.complete() == nil)
        #expect(input?.isDisposed == true)
        input = nil
        #expect(log.all == ["complete"])
        withExtendedLifetime(output) {}
    }

    @Test("A7 an input released before any output: the later output gets cancelled")
    func releasedBeforeActivation() {
        let channel = Channel<Int>.create().channel
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(log.all == ["cancelled"])
        withExtendedLifetime(output) {}
    }

    @Test("A7 releasing a multi input ends its channel with cancelled")
    func releasingMultiInput() {
        var input: ChannelMultiInput<Int>?
        let channel: Channel<Int>
        (input, channel) = Channel<Int>.createMultiInput()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        input?.send(value: 1)
        input = nil
        #expect(log.all == ["1", "cancelled"])
        withExtendedLifetime(output) {}
    }

    @Test("A7 a multi input released before any output: the later output gets cancelled")
    func multiInputReleasedBeforeActivation() {
        let channel = Channel<Int>.createMultiInput().channel
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(log.all == ["cancelled"])

        withExtendedLifetime(output) {}
    }

    @Test("A7 releasing a merged input ends its channel with its onDeinit end")
    func mergedInputOnDeinit() {
        var input: ChannelMergedInput<Int>?
        let channel: Channel<Int>
        (input, channel) = Channel<Int>.createMergedInput(onDeinit: .complete)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        input?.send(value: 1)
        input = nil
        #expect(log.all == ["1", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test("A7 a merged input's default onDeinit is cancelled")
    func mergedInputDefault() {
        var input: ChannelMergedInput<Int>?
        let channel: Channel<Int>
        (input, channel) = Channel<Int>.createMergedInput()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        input = nil
        #expect(log.all == ["cancelled"])
        withExtendedLifetime((output, input)) {}
    }

    @Test("A7 the input of a multi's upstream: release ends every output with cancelled")
    func releaseThroughMulti() {
        var input: ChannelInput<Int>?
        let multi: ChannelMulti<Int>
        (input, multi) = Channel<Int>.create { $0.continuous() }
        let logs = [ChannelLog<Int>(), ChannelLog<Int>()]
        let outputs = logs.map { multi.subscribe($0.handler) }
        input = nil
        for log in logs { #expect(log.all == ["cancelled"]) }
        // A late output gets the end too (the continuous forgot its value).
        let late = ChannelLog<Int>()
        let lateOutput = multi.subscribe(late.handler)
        #expect(late.all == ["cancelled"])
        withExtendedLifetime((outputs, lateOutput, input)) {}
    }
}
