import Testing
import RivuletChannels
import RivuletContracts

/// `peek`, `cacheLatest` and `cacheUntilActive`.
@Suite(.checksLiveObjects) struct CachesTests {
    @Test("A8 peek reads a multi's activation value, or nil")
    func peekValues() {
        let (input, multi) = Channel<Int>.create { $0.continuous() }
        #expect(multi.peek() == nil)
        input.send(value: 4)
        #expect(multi.peek() == 4)
        input.send(value: 5)
        #expect(multi.peek() == 5)
        #expect(Channel<Int>.preclosed(1, 2).peek() == 2)
        let (_, multicast) = Channel<Int>.create { $0.multicast() }
        #expect(multicast.peek() == nil)
    }

    @Test("A1 cacheLatest keeps the latest value, readable at any time; dispose stops it and keeps the value")
    func cacheLatest() {
        let (input, channel) = Channel<Int>.create()
        let latest = channel.cacheLatest()
        #expect(latest.latestValue == nil)
        input.send(value: 1)
        input.send(value: 2)
        #expect(latest.latestValue == 2)
        #expect(!latest.isDisposed)
        latest.dispose()
        #expect(latest.isDisposed)
        #expect(input.send(value: 3) == .disconnected)
        #expect(latest.latestValue == 2)
    }

    @Test("A8 cacheUntilActive activates at once and gives its first output every result so far, in order")
    func cacheUntilActive() {
        let (input, channel) = Channel<Int>.create()
        let cached = channel.cacheUntilActive()
        #expect(input.send(value: 1) == nil)
        input.send(value: 2)
        let log = ChannelLog<Int>()
        let output = cached.subscribe(log.handler)
        #expect(log.all == ["1", "2"])
        input.send(value: 3)
        input.complete()
        #expect(log.all == ["1", "2", "3", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test("A8 cacheUntilActive of a multi includes its activation values")
    func cacheUntilActiveOfMulti() {
        let (input, multi) = Channel<Int>.create { $0.continuous(initialValue: 0) }
        let cached = multi.cacheUntilActive()
        input.send(value: 1)
        let log = ChannelLog<Int>()
        let output = cached.subscribe(log.handler)
        #expect(log.all == ["0", "1"])
        withExtendedLifetime(output) {}
    }
}
