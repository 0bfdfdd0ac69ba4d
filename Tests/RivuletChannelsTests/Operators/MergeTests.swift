import Testing
import RivuletChannels
import RivuletContracts

/// `merge`, multi inputs and merged inputs.
@Suite(.checksLiveObjects) struct MergeTests {
    @Test("E1 merge completes after its last source completes")
    func mergeCompletesAfterLast() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        let (c, cc) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = ca.merge(cb, cc).subscribe(log.handler)
        a.send(value: 1)
        a.complete()
        b.send(value: 2)
        b.complete()
        #expect(log.all == ["1", "2"])
        c.send(value: 3)
        c.complete()
        #expect(log.all == ["1", "2", "3", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test("E2 merge fails at once when one source fails")
    func mergeFailsAtOnce() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = Channel<Int>.merge(ca, cb).subscribe(log.handler) // swiftlang/swift#80146
        a.send(value: 1)
        b.send(error: ChannelTestError(9))
        #expect(a.send(value: 2) != nil)
        #expect(log.all == ["1", "other(E9)"])
        withExtendedLifetime(output) {}
    }

    @Test("A7 a multi input: a source's end only detaches that source; cancel() ends with cancelled")
    func multiInputSources() {
        let (input, channel) = Channel<Int>.createMultiInput()
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        input.add(ca)
        input.add(cb)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        a.send(value: 1)
        a.send(error: ChannelTestError(1))
        b.send(value: 2)
        input.remove(cb)
        #expect(b.send(value: 3) != nil)
        input.send(value: 4)
        let single = input.singleInput()
        single.send(value: 5)
        single.complete()
        input.send(value: 6)
        input.cancel()
        #expect(log.all == ["1", "2", "4", "5", "6", "cancelled"])
        withExtendedLifetime(output) {}
    }

    @Test("E2 a merged input with .errors lets other ends through but not complete")
    func mergedErrors() {
        let (input, channel) = Channel<Int>.createMergedInput()
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        input.add(ca, closePropagation: .errors)
        input.add(cb, closePropagation: .errors)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        a.send(value: 1)
        a.complete()
        b.send(value: 2)
        b.send(error: ChannelTestError(5))
        #expect(log.all == ["1", "2", "other(E5)"])
        withExtendedLifetime((output, input)) {}
    }

    @Test("E1 a merged input with .none lets no end through; with .all every end")
    func mergedNoneAndAll() {
        let (input, channel) = Channel<Int>.createMergedInput()
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        input.add(ca, closePropagation: .none)
        input.add(cb, closePropagation: .all, removeOnDeactivate: false)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        a.send(error: ChannelTestError(1))
        input.send(value: 1)
        b.complete()
        #expect(log.all == ["1", "complete"])
        withExtendedLifetime((output, input)) {}
    }

    @Test("E1 a merged input's onLastInputClosed ends the channel when its last source ends")
    func mergedOnLastInputClosed() {
        let (input, channel) = Channel<Int>.createMergedInput(onLastInputClosed: .complete)
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        input.add(ca, closePropagation: .none)
        input.add(cb, closePropagation: .none)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        a.send(value: 1)
        a.cancel()
        #expect(log.all == ["1"])
        b.send(error: ChannelTestError(2))
        #expect(log.all == ["1", "complete"])
        withExtendedLifetime((output, input)) {}
    }

    @Test("A6 a merged input's removeOnDeactivate source is gone after deactivation")
    func mergedRemoveOnDeactivate() {
        let (input, channel) = Channel<Int>.createMergedInput()
        let (a, ca) = Channel<Int>.createMultiInput()
        let (b, cb) = Channel<Int>.createMultiInput()
        input.add(ca, closePropagation: .none, removeOnDeactivate: true)
        input.add(cb, closePropagation: .none, removeOnDeactivate: false)
        channel.subscribe { _ in }.cancel()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(a.send(value: 1) == .inactive)
        b.send(value: 2)
        #expect(log.all == ["2"])
        withExtendedLifetime((output, input)) {}
    }
}
