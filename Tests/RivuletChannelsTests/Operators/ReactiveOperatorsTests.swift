import Dispatch
import Testing
import RivuletChannels
import RivuletContracts

/// Time operators on a `TestScheduler` (deterministic: no sleeps), and zip, switchLatest,
/// materialize.
@Suite(.checksLiveObjects) struct ReactiveOperatorsTests {
    @Test("A1 timer starts counting at activation, then sends its value and completes")
    func timerStartsAtActivation() {
        let scheduler = TestScheduler()
        let timer = Channel<Int>.timer(interval: .seconds(5), value: 7, context: Exec(scheduler))
        scheduler.advance(by: .seconds(10))
        let log = ChannelLog<Int>()
        let output = timer.subscribe(log.handler)
        scheduler.advance(by: .seconds(4))
        #expect(log.all == [])
        scheduler.advance(by: .seconds(1))
        #expect(log.all == ["7", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test("A3 timer with no value only completes; each activation counts afresh")
    func timerWithoutValue() {
        let scheduler = TestScheduler()
        let timer = Channel<Int>.timer(interval: .seconds(2), context: Exec(scheduler))
        let first = ChannelLog<Int>()
        let o1 = timer.subscribe(first.handler)
        scheduler.advance(by: .seconds(1))
        o1.cancel()
        let second = ChannelLog<Int>()
        let o2 = timer.subscribe(second.handler)
        scheduler.advance(by: .seconds(1))
        #expect(second.all == [])
        scheduler.advance(by: .seconds(1))
        #expect(second.all == ["complete"])
        #expect(first.all == [])
        withExtendedLifetime(o2) {}
    }

    @Test("E2 timeout ends with ChannelReactiveError.timeout when no value arrives in time; values reset it")
    func timeoutResets() {
        let scheduler = TestScheduler()
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.timeout(interval: .seconds(3), context: Exec(scheduler)).subscribe(log.handler)
        scheduler.advance(by: .seconds(2))
        input.send(value: 1)
        scheduler.advance(by: .seconds(2))
        input.send(value: 2)
        scheduler.advance(by: .seconds(2))
        #expect(log.all == ["1", "2"])
        scheduler.advance(by: .seconds(1))
        #expect(log.all == ["1", "2", "timeout"])
        withExtendedLifetime(output) {}
    }

    @Test("E2 timeout without resetOnValue counts from activation only")
    func timeoutNoReset() {
        let scheduler = TestScheduler()
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.timeout(interval: .seconds(3), resetOnValue: false, context: Exec(scheduler))
            .subscribe(log.handler)
        scheduler.advance(by: .seconds(2))
        input.send(value: 1)
        scheduler.advance(by: .seconds(1))
        #expect(log.all == ["1", "timeout"])
        withExtendedLifetime(output) {}
    }

    @Test("E1 timeout passes the end through and stops counting")
    func timeoutPassesEnd() {
        let scheduler = TestScheduler()
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.timeout(interval: .seconds(3), context: Exec(scheduler)).subscribe(log.handler)
        input.complete()
        scheduler.advance(by: .seconds(10))
        #expect(log.all == ["complete"])
        withExtendedLifetime(output) {}
    }

    @Test("E1 zip pairs values by position and ends when a side has ended and its values are used up")
    func zipPairs() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<String>.create()
        let log = ChannelLog<String>()
        let output = Channel.zip(ca, cb).map { "\($0.0)\($0.1)" }.subscribe(log.handler)
        a.send(value: 1)
        a.send(value: 2)
        b.send(value: "x")
        #expect(log.all == ["1x"])
        a.complete()
        b.send(value: "y")
        #expect(log.all == ["1x", "2y", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test("E2 zip fails at once when a side fails")
    func zipFails() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        let log = ChannelLog<String>()
        let output = Channel.zip(ca, cb).map { "\($0.0)\($0.1)" }.subscribe(log.handler)
        a.send(value: 1)
        b.send(error: ChannelTestError(3))
        #expect(log.all == ["other(E3)"])
        withExtendedLifetime(output) {}
    }

    @Test("E4 switchLatest follows the latest inner channel and cancels the previous one")
    func switchLatestFollowsLatest() {
        let (outer, outerChannel) = Channel<Channel<Int>>.create()
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = outerChannel.switchLatest().subscribe(log.handler)
        outer.send(value: ca)
        a.send(value: 1)
        outer.send(value: cb)
        #expect(a.send(value: 2) != nil)
        b.send(value: 3)
        outer.complete()
        #expect(log.all == ["1", "3"])
        b.complete()
        #expect(log.all == ["1", "3", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test("E2 switchLatest ends at once on an inner failure")
    func switchLatestInnerFailure() {
        let (outer, outerChannel) = Channel<Channel<Int>>.create()
        let (a, ca) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = outerChannel.switchLatest().subscribe(log.handler)
        outer.send(value: ca)
        a.send(error: ChannelTestError(8))
        #expect(log.all == ["other(E8)"])
        withExtendedLifetime((output, outer)) {}
    }

    @Test("E1 materialize turns every result, the end included, into a value, then completes")
    func materializeResults() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<String>()
        let output = channel.materialize().subscribe { result in
            switch result {
            case let .success(.success(value)): log.appendText("value \(value)")
            case let .success(.failure(end)): log.appendText("end \(ChannelLog<Int>.describe(end))")
            case let .failure(end): log.appendText(ChannelLog<Int>.describe(end))
            }
        }
        input.send(value: 1)
        input.send(error: ChannelTestError(2))
        #expect(log.all == ["value 1", "end other(E2)", "complete"])
        withExtendedLifetime(output) {}
    }
}
