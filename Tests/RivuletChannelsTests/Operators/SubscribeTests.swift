import Testing
import RivuletChannels
import RivuletContracts

/// Outputs: `subscribe`, `subscribeValues`, `subscribeWhile`, cancellation, and outputs and
/// inputs as `Disposable`s.
@Suite(.checksLiveObjects) struct SubscribeTests {
    @Test("E1 subscribeValues reports values only")
    func subscribeValuesOnly() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribeValues { log.appendText("\($0)") }
        input.send(value: 1)
        input.send(error: ChannelTestError(1))
        #expect(log.all == ["1"])
        #expect(output.isClosed)
    }

    @Test("A6 subscribeWhile keeps itself alive until the handler returns false")
    func subscribeWhileUntilFalse() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let captured = Tracked()
        let watch = WeakBox(captured)
        do {
            let token = captured
            channel.subscribeWhile { result in
                _ = token
                log.append(result)
                if case .success(3) = result { return false }
                return true
            }
        }
        for value in 1...5 { input.send(value: value) }
        #expect(log.all == ["1", "2", "3"])
        #expect(input.send(value: 6) == .disconnected)
        withExtendedLifetime(captured) {}
        _ = watch
    }

    @Test("A6 subscribeWhile stops at the end")
    func subscribeWhileUntilEnd() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        channel.subscribeWhile { result in
            log.append(result)
            return true
        }
        input.send(value: 1)
        input.complete()
        #expect(log.all == ["1", "complete"])
    }

    @Test("A6 a cancelled output receives nothing more, not even an end")
    func cancelledOutputGetsNothing() {
        let (input, channel) = Channel<Int>.create { $0.multicast() }
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        let other = channel.subscribe { _ in }
        input.send(value: 1)
        output.cancel()
        #expect(output.isClosed)
        input.send(value: 2)
        input.complete()
        #expect(log.all == ["1"])
        withExtendedLifetime(other) {}
    }

    @Test("A6 an output cancelled from its own handler receives nothing after cancel() returned")
    func cancelFromOwnHandler() {
        let (input, channel) = Channel<Int>.create { $0.multicast() }
        let log = ChannelLog<Int>()
        let slot = Slot<ChannelOutput<Int>>()
        let output = channel.subscribe { result in
            log.append(result)
            if case .success(2) = result {
                slot.value?.cancel()
                log.appendText("cancelled")
                input.send(value: 3)
            }
        }
        slot.value = output
        let other = channel.subscribe { _ in }
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 4)
        #expect(log.all == ["1", "2", "cancelled"])
        withExtendedLifetime(other) {}
    }

    @Test("A6 ChannelOutput is a Disposable: dispose() cancels and isDisposed follows")
    func outputDisposable() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        let disposable: any Disposable = output
        #expect(!disposable.isDisposed)
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(output.isClosed)
        #expect(input.send(value: 1) == .disconnected)
        #expect(log.all == [])
    }

    @Test("A7 ChannelInput is a Disposable: dispose() ends the channel with cancelled")
    func inputDisposable() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        let disposable: any Disposable = input
        #expect(!disposable.isDisposed)
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(log.all == ["cancelled"])
        withExtendedLifetime(output) {}
    }

    @Test("A6 outputs and inputs work with the core's CompositeDisposable and Lifetime")
    func withCoreDisposables() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let composite = CompositeDisposable()
        composite += channel.subscribe(log.handler)
        input.send(value: 1)
        composite.dispose()
        #expect(input.send(value: 2) == .disconnected)
        #expect(log.all == ["1"])
    }

    @Test("E2 map's throw ends with other, filter keeps matches (both labels), compactMap drops nil")
    func transformFamily() {
        let (input, channel) = Channel<Int>.create { $0.multicast() }
        let mapped = ChannelLog<Int>()
        let filtered = ChannelLog<Int>()
        let matched = ChannelLog<Int>()
        let compacted = ChannelLog<String>()
        let outputs = [
            channel.map { value -> Int in
                if value == 3 { throw ChannelTestError(3) }
                return value * 2
            }.subscribe(mapped.handler),
            channel.filter { $0 % 2 == 1 }.subscribe(filtered.handler),
            channel.filter(matching: { $0 > 2 }).subscribe(matched.handler),
        ]
        let compactOutput = channel.compactMap { $0 == 2 ? nil : "v\($0)" }.subscribe(compacted.handler)
        for value in 1...4 { input.send(value: value) }
        input.complete()
        #expect(mapped.all == ["2", "4", "other(E3)"])
        #expect(filtered.all == ["1", "3", "complete"])
        #expect(matched.all == ["3", "4", "complete"])
        #expect(compacted.all == ["v1", "v3", "v4", "complete"])
        withExtendedLifetime((outputs, compactOutput)) {}
    }

    @Test("E1 transform may drop, fan out and end; ChannelNext builders")
    func transformNext() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.transform { (result: Result<Int, ChannelEnd>) -> ChannelNext<Int> in
            switch result {
            case .success(0): return .none
            case .success(1): return .values(1, 1)
            case .success(2): return .values(sequence: [2, 2, 2])
            case .success(3): return .value(3, end: .complete)
            case let .success(value): return .value(value)
            case let .failure(end): return .end(end)
            }
        }
        .subscribe(log.handler)
        for value in 0...4 { input.send(value: value) }
        #expect(log.all == ["1", "1", "2", "2", "2", "3", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test("A6 subscribeWhile on a .global context keeps itself alive until the handler returns false")
    func subscribeWhileOnContext() async {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        channel.subscribeWhile(context: .global) { result in
            log.append(result)
            if case .success(2) = result { return false }
            return true
        }
        input.send(value: 1)
        input.send(value: 2)
        await eventually { log.all.count == 2 }
        await eventually { input.send(value: 3) == .disconnected }
        #expect(log.all == ["1", "2"])
    }
}
