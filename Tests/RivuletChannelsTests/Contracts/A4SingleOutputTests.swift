import Testing
import RivuletChannels
import RivuletContracts

/// A4: a plain `Channel` has one output; fan-out needs a `ChannelMulti`.
@Suite(.checksLiveObjects) struct A4SingleOutputTests {
    @Test("A4 a second subscriber ends with duplicate, synchronously; the first is unaffected")
    func secondSubscriberDuplicate() {
        let (input, channel) = Channel<Int>.create()
        let first = ChannelLog<Int>()
        let firstOutput = channel.subscribe(first.handler)
        input.send(value: 1)
        let secondResults = Shared<[Result<Int, ChannelEnd>]>([])
        let secondOutput = channel.subscribe { result in secondResults.withLock { $0.append(result) } }
        // Answered inside subscribe.
        let results = secondResults.current
        #expect(results.count == 1)
        if case let .failure(.other(error)) = results.first, let bindError = error as? ChannelBindError<Int>,
            case .duplicate = bindError
        {
        } else {
            Issue.record("expected .failure(.other(ChannelBindError<Int>.duplicate)), got \(results)")
        }
        #expect(secondOutput.isClosed)
        #expect(!firstOutput.isClosed)
        input.send(value: 2)
        input.complete()
        #expect(first.all == ["1", "2", "complete"])
        #expect(secondResults.current.count == 1)
    }

    @Test("A4 a second processor on a plain channel ends its output with duplicate")
    func secondProcessorDuplicate() {
        let (input, channel) = Channel<Int>.create()
        let first = ChannelLog<Int>()
        let second = ChannelLog<Int>()
        let o1 = channel.map { $0 + 1 }.subscribe(first.handler)
        let o2 = channel.map { $0 + 2 }.subscribe(second.handler)
        input.send(value: 1)
        #expect(first.all == ["2"])
        #expect(second.all == ["duplicate"])
        withExtendedLifetime((o1, o2)) {}
    }

    @Test("A4 after the first output is cancelled, a new output may attach")
    func outputSlotFreedByCancel() {
        let (input, channel) = Channel<Int>.createMultiInput()
        let first = channel.subscribe { _ in }
        first.cancel()
        let log = ChannelLog<Int>()
        let second = channel.subscribe(log.handler)
        input.send(value: 1)
        #expect(log.all == ["1"])
        withExtendedLifetime(second) {}
    }

    enum MultiKind: String, CaseIterable, Sendable {
        case continuous, playback, multicast, customActivation, continuousWhileActive

        func make(_ channel: Channel<Int>) -> ChannelMulti<Int> {
            switch self {
            case .continuous: return channel.continuous()
            case .playback: return channel.playback()
            case .multicast: return channel.multicast()
            case .customActivation: return channel.customActivation { _, _, _ in }
            case .continuousWhileActive: return channel.continuousWhileActive()
            }
        }
    }

    @Test("A4 multis allow fan-out: every output sees every later value", arguments: MultiKind.allCases)
    func multisFanOut(kind: MultiKind) {
        let (input, channel) = Channel<Int>.createMultiInput()
        let multi = kind.make(channel)
        let logs = (0..<3).map { _ in ChannelLog<Int>() }
        let outputs = logs.map { multi.subscribe($0.handler) }
        input.send(value: 1)
        input.send(value: 2)
        input.cancel()
        for log in logs { #expect(log.all == ["1", "2", "cancelled"], "\(kind)") }
        withExtendedLifetime(outputs) {}
    }

    @Test("A4 a multi assigned to a Channel variable still fans out")
    func multiAsChannel() {
        let (input, multi) = Channel<Int>.create { $0.continuous() }
        let channel: Channel<Int> = multi
        let a = ChannelLog<Int>()
        let b = ChannelLog<Int>()
        let outputs = [channel.subscribe(a.handler), channel.subscribe(b.handler)]
        input.send(value: 5)
        #expect(a.all == ["5"])
        #expect(b.all == ["5"])
        withExtendedLifetime(outputs) {}
    }
}
