import Testing
import RivuletChannels
import RivuletContracts

@Suite(.checksLiveObjects) struct BasicsTests {
    @Test("basic channel delivers 1 2 3")
    func basic() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(input.send(value: 1) == nil)
        input.send(value: 2)
        input.send(value: 3)
        #expect(log.all == ["1", "2", "3"])
        withExtendedLifetime(output) {}
    }

    @Test("A5 inactive sends")
    func inactive() {
        let (input, channel) = Channel<Int>.create()
        #expect(input.send(value: 1) == .inactive)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        input.send(value: 3)
        #expect(log.all == ["3"])
        output.cancel()
        #expect(input.send(value: 4) == .disconnected)
    }

    @Test("continuous")
    func continuous() {
        let (input, multi) = Channel<Int>.create { $0.continuous() }
        input.send(value: 1)
        input.send(value: 2)
        let log = ChannelLog<Int>()
        let output = multi.subscribe(log.handler)
        input.send(value: 3)
        let log2 = ChannelLog<Int>()
        let output2 = multi.subscribe(log2.handler)
        input.complete()
        #expect(log.all == ["2", "3", "complete"])
        #expect(log2.all == ["3", "complete"])
        withExtendedLifetime((output, output2)) {}
    }

    @Test("generate")
    func generate() {
        let log = ChannelLog<Int>()
        let calls = Shared<[Bool]>([])
        let channel = Channel<Int>.generate { input in
            calls.withLock { $0.append(input != nil) }
            if let input {
                input.send(value: 1)
                input.send(value: 2)
                input.send(value: 3)
            }
        }
        let output = channel.subscribe(log.handler)
        #expect(log.all == ["1", "2", "3", "cancelled"])
        #expect(calls.current == [true, false])
        withExtendedLifetime(output) {}
    }

    @Test("duplicate")
    func duplicate() {
        let (input, channel) = Channel<Int>.create()
        let first = ChannelLog<Int>()
        let second = ChannelLog<Int>()
        let o1 = channel.subscribe(first.handler)
        let o2 = channel.subscribe(second.handler)
        input.send(value: 1)
        #expect(first.all == ["1"])
        #expect(second.all == ["duplicate"])
        withExtendedLifetime((o1, o2)) {}
    }

    @Test("map filter chain")
    func chain() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.map { $0 * 10 }.filter { $0 != 20 }.subscribe(log.handler)
        for i in 1...4 { input.send(value: i) }
        input.complete()
        #expect(log.all == ["10", "30", "40", "complete"])
        withExtendedLifetime(output) {}
    }
}
