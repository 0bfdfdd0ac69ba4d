import Dispatch
import Foundation
import Testing
import RivuletChannels
import RivuletContracts

/// Outputs and processors on an execution context other than `.direct`: what they receive is
/// what a direct one receives (E1), one call at a time and in order (E5), only later.
@Suite(.checksLiveObjects) struct ExecContextTests {
    @Test("E1 an output on a TestScheduler context receives every value and the end, in order")
    func outputOnTestScheduler() {
        let scheduler = TestScheduler()
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(context: Exec(scheduler), log.handler)
        input.send(value: 1)
        input.send(value: 2)
        input.complete()
        #expect(log.all == [])
        scheduler.advance()
        #expect(log.all == ["1", "2", "complete"])

        withExtendedLifetime(output) {}
    }

    @Test("E1 an output on .global receives the last values and the end")
    func outputOnGlobal() async {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(context: .global, log.handler)
        input.send(value: 1)
        input.complete()
        await eventually(seconds: 300) { log.all.count == 2 }
        #expect(log.all == ["1", "complete"])

        withExtendedLifetime(output) {}
    }

    @Test("E1 a processor on a TestScheduler context forwards every value and the end")
    func processorOnTestScheduler() {
        let scheduler = TestScheduler()
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.map(context: Exec(scheduler)) { $0 * 10 }.subscribe(log.handler)
        input.send(value: 1)
        input.send(value: 2)
        scheduler.advance()
        #expect(log.all == ["10", "20"])
        input.send(value: 3)
        input.complete()
        scheduler.advance()
        #expect(log.all == ["10", "20", "30", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test(
        "E5 an output on a TestScheduler context is called in order, values sent from several threads")
    func orderedOnContext() {
        let scheduler = TestScheduler()
        let (input, channel) = Channel<Int>.create()
        let values = Shared<[Int]>([])
        let output = channel.subscribeValues(context: Exec(scheduler)) { value in values.withLock { $0.append(value) } }
        let finished = withWatchdog(seconds: 300, "senders") {
            runConcurrently(4) { thread in
                for index in 0..<200 { input.send(value: thread * 1_000 + index) }
            }
        }
        #expect(finished)
        scheduler.advance()
        let all = values.current
        #expect(all.count == 800)
        for thread in 0..<4 {
            #expect(all.filter { $0 / 1_000 == thread } == Array(thread * 1_000..<thread * 1_000 + 200))
        }
        withExtendedLifetime(output) {}
    }
}
