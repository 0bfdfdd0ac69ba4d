import Dispatch
import Foundation
import Testing
import RivuletChannels
import RivuletContracts

/// A9: sends from many threads and re-entrant or loopback sends are serialised in order and never
/// deadlock (E5, E6). Deadlines are hang guards only.
@Suite(.checksLiveObjects) struct A9SerialisationTests {
    /// Checks that `values` holds every `perSender` values of each of `senders` senders, each
    /// sender's in the order it sent them.
    private func expectPerSenderOrder(_ values: [Int], senders: Int, perSender: Int) {
        #expect(values.count == senders * perSender)
        for sender in 0..<senders {
            let own = values.filter { $0 / 100_000 == sender }
            #expect(own == Array(sender * 100_000..<sender * 100_000 + perSender), "sender \(sender)")
        }
    }

    @Test(
        "A9 concurrent senders on 4 threads: per-sender order kept, nothing lost, no overlapping handler calls")
    func concurrentSenders() {
        let (input, channel) = Channel<Int>.create()
        let detector = OverlapDetector()
        let values = Shared<[Int]>([])
        let output = channel.subscribeValues { value in
            detector.enter()
            values.withLock { $0.append(value) }
            detector.leave()
        }
        let finished = withWatchdog(seconds: 120, "4 concurrent senders") {
            runConcurrently(4) { thread in
                for index in 0..<2_000 { #expect(input.send(value: thread * 100_000 + index) == nil) }
            }
        }
        #expect(finished)
        #expect(detector.overlapCount == 0)
        expectPerSenderOrder(values.current, senders: 4, perSender: 2_000)
        withExtendedLifetime(output) {}
    }

    @Test("A9 concurrent senders through a multi input and a processor chain on 6 threads")
    func concurrentSendersThroughChain() {
        let (input, channel) = Channel<Int>.createMultiInput()
        let detector = OverlapDetector()
        let processorDetector = OverlapDetector()
        let values = Shared<[Int]>([])
        let output = channel.map { value -> Int in
            processorDetector.enter()
            defer { processorDetector.leave() }
            return value
        }
        .filter { _ in true }
        .subscribeValues { value in
            detector.enter()
            values.withLock { $0.append(value) }
            detector.leave()
        }
        let finished = withWatchdog(seconds: 120, "6 concurrent senders") {
            runConcurrently(6) { thread in
                for index in 0..<1_000 { input.send(value: thread * 100_000 + index) }
            }
        }
        #expect(finished)
        #expect(detector.overlapCount == 0)
        #expect(processorDetector.overlapCount == 0)
        expectPerSenderOrder(values.current, senders: 6, perSender: 1_000)
        withExtendedLifetime(output) {}
    }

    @Test("A9 a loopback send from a handler is queued and delivered after the current value, never recursively")
    func loopback() {
        let (input, channel) = Channel<Int>.create()
        let depth = Shared((current: 0, deepest: 0))
        let log = ChannelLog<Int>()
        let finished = withWatchdog(seconds: 300, "loopback") {
            let output = channel.subscribe { result in
                depth.withLock {
                    $0.current += 1
                    $0.deepest = max($0.deepest, $0.current)
                }
                log.append(result)
                if case let .success(value) = result, value > 0 {
                    #expect(input.send(value: value - 1) == nil)
                    log.appendText("after send \(value - 1)")
                }
                depth.withLock { $0.current -= 1 }
            }
            input.send(value: 3)
            withExtendedLifetime(output) {}
        }
        #expect(finished)
        #expect(depth.current.deepest == 1)
        #expect(log.all == ["3", "after send 2", "2", "after send 1", "1", "after send 0", "0"])
    }

    @Test("A9 a loopback send through a processor chain and a multi is queued in order")
    func loopbackThroughMulti() {
        let (input, channel) = Channel<Int>.createMultiInput()
        let multi = channel.map { $0 + 1 }.multicast()
        let a = ChannelLog<Int>()
        let b = ChannelLog<Int>()
        let depth = Shared((current: 0, deepest: 0))
        let finished = withWatchdog(seconds: 300, "loopback through a multi") {
            let outputA = multi.subscribeValues { value in
                depth.withLock {
                    $0.current += 1
                    $0.deepest = max($0.deepest, $0.current)
                }
                a.appendText("\(value)")
                if value < 5 { input.send(value: value) }
                depth.withLock { $0.current -= 1 }
            }
            let outputB = multi.subscribeValues { b.appendText("\($0)") }
            input.send(value: 0)
            withExtendedLifetime((outputA, outputB)) {}
        }
        #expect(finished)
        #expect(depth.current.deepest == 1)
        #expect(a.all == ["1", "2", "3", "4", "5"])
        #expect(b.all == ["1", "2", "3", "4", "5"])
    }

    @Test(
        "A9 loopback sends mixed with 4 other senders: nothing lost, echoes follow their cause, no deadlock")
    func loopbackUnderContention() {
        let (input, channel) = Channel<Int>.create()
        let detector = OverlapDetector()
        let values = Shared<[Int]>([])
        let output = channel.subscribeValues { value in
            detector.enter()
            values.withLock { $0.append(value) }
            // Every 50th value echoes a negative one from inside the handler.
            if value >= 0, value % 50 == 0 { input.send(value: -value - 1) }
            detector.leave()
        }
        let finished = withWatchdog(seconds: 120, "loopback under contention") {
            runConcurrently(4) { thread in
                for index in 0..<1_000 { input.send(value: thread * 100_000 + index) }
            }
        }
        #expect(finished)
        #expect(detector.overlapCount == 0)
        let all = values.current
        expectPerSenderOrder(all.filter { $0 >= 0 }, senders: 4, perSender: 1_000)
        #expect(all.filter { $0 < 0 }.count == 80)
        // A queued echo is delivered after the value that caused it.
        for (index, value) in all.enumerated() where value < 0 {
            let cause = -value - 1
            #expect(all[..<index].contains(cause))
        }
        withExtendedLifetime(output) {}
    }

    @Test(
        "A9 a handler on a .global context is never called concurrently and sees values in order")
    func contextHandlerSerial() async {
        let (input, channel) = Channel<Int>.create()
        let detector = OverlapDetector()
        let values = Shared<[Int]>([])
        let output = channel.subscribeValues(context: .global) { value in
            detector.enter()
            values.withLock { $0.append(value) }
            detector.leave()
        }
        let finished = withWatchdog(seconds: 120, "senders into a .global handler") {
            runConcurrently(4) { thread in
                for index in 0..<500 { input.send(value: thread * 100_000 + index) }
            }
        }
        #expect(finished)
        await eventually { values.current.count == 2_000 }
        #expect(detector.overlapCount == 0)
        expectPerSenderOrder(values.current, senders: 4, perSender: 500)
        withExtendedLifetime(output) {}
    }

    @Test("A9 a loopback send from a handler on a .global context is delivered after, without deadlock")
    func loopbackOnContext() async {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let depth = Shared((current: 0, deepest: 0))
        let output = channel.subscribeValues(context: .global) { value in
            depth.withLock {
                $0.current += 1
                $0.deepest = max($0.deepest, $0.current)
            }
            log.appendText("\(value)")
            if value > 0 { input.send(value: value - 1) }
            depth.withLock { $0.current -= 1 }
        }
        input.send(value: 5)
        await eventually { log.all.count == 6 }
        #expect(log.all == ["5", "4", "3", "2", "1", "0"])
        #expect(depth.current.deepest == 1)
        withExtendedLifetime(output) {}
    }
}
