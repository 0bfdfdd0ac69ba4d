import Foundation
import Rivulet
import RivuletChannels
import Testing
import RivuletContracts

/// Misuse of channels (issue 19, item 6): a negative wait or a non-positive count stops with a
/// precondition failure naming the channel API, the argument and the rule.
@Suite(.checksLiveObjects) struct ChannelMisuseTests {
    @Test func bufferRejectsACountOfZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Channel<Int>.create().channel.buffer(count: 0)
        }
        expectStandardError(result, contains: "Rivulet: Channel.buffer(count:): count is 0; it must be greater than 0")
    }

    @Test func timerRejectsANegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Channel<Int>.timer(interval: .seconds(-1), value: 1, context: .direct)
        }
        expectStandardError(
            result, contains: "Rivulet: Channel.timer(interval:value:context:): interval is seconds(-1); it must be 0 or more")
    }

    @Test func timeoutRejectsANegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Channel<Int>.create().channel.timeout(interval: .milliseconds(-1))
        }
        expectStandardError(
            result,
            contains:
                "Rivulet: Channel.timeout(interval:resetOnValue:context:): interval is milliseconds(-1); it must be 0 or more")
    }

    @Test func debounceRejectsANegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Channel<Int>.create().channel.debounce(interval: .seconds(-2))
        }
        expectStandardError(
            result,
            contains: "Rivulet: Channel.debounce(interval:flushOnClose:context:): interval is seconds(-2); it must be 0 or more")
    }

    @Test func delayRejectsANegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Channel<Int>.create().channel.delay(interval: .nanoseconds(-5))
        }
        expectStandardError(
            result, contains: "Rivulet: Channel.delay(interval:context:): interval is nanoseconds(-5); it must be 0 or more")
    }

    @Test func throttleRejectsANegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Channel<Int>.create().channel.throttle(interval: .seconds(-1))
        }
        expectStandardError(
            result, contains: "Rivulet: Channel.throttle(interval:context:): interval is seconds(-1); it must be 0 or more")
    }

    @Test func intervalRejectsAnIntervalOfZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Channel<Int>.interval(.seconds(0))
        }
        expectStandardError(
            result,
            contains: "Rivulet: Channel.interval(_:context:): interval is seconds(0); it must be greater than 0 and not .never")
    }
}

/// The documented results of channel edges (issue 19, item 6).
@Suite(.checksLiveObjects) struct ChannelEdgeTests {
    @Test func sendingAfterCloseReturnsDisconnected() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        #expect(input.close() == nil)
        #expect(input.send(value: 1) == .disconnected)
        #expect(input.close() == .disconnected)
        #expect(log.all == ["complete"])
        output.cancel()
    }

    @Test func cancellingAnOutputTwiceIsHarmless() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        output.cancel()
        output.cancel()
        #expect(input.send(value: 1) != nil)
        #expect(log.all.isEmpty)
    }

    @Test func mergingNoChannelsCompletesOnActivation() {
        let log = ChannelLog<Int>()
        let output = Channel<Int>.merge().subscribe(log.handler)
        #expect(log.all == ["complete"])
        output.cancel()
    }

    @Test func aTimerOfNeverNeverFires() {
        let scheduler = TestScheduler()
        let log = ChannelLog<Int>()
        let output = Channel<Int>.timer(interval: .never, value: 1, context: Exec(scheduler)).subscribe(log.handler)
        scheduler.advance(by: .seconds(1_000_000))
        #expect(log.all.isEmpty)
        output.cancel()
    }
}
