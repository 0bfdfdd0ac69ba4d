import Dispatch
import Foundation
import Testing
import RivuletChannels
import RivuletContracts

/// Races that only show up under load; run under Thread Sanitizer:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter RivuletChannelsTests`.
/// Deadlines are hang guards only.
@Suite(.checksLiveObjects) struct OutputChurnStressTests {
    @Test("A9 stress: outputs subscribe and cancel on 4 threads while a fifth sends; no deadlock, order kept")
    func subscribeCancelChurn() {
        let (input, channel) = Channel<Int>.createMultiInput()
        let multi = channel.multicast()
        let anchor = Shared<[Int]>([])
        let anchorOutput = multi.subscribeValues { value in anchor.withLock { $0.append(value) } }
        let stop = Shared(false)
        let violations = Shared<[String]>([])
        let total = 20_000
        let finished = withWatchdog(seconds: 180, "subscribe/cancel churn") {
            runConcurrently(5) { thread in
                if thread == 0 {
                    for value in 0..<total { input.send(value: value) }
                    stop.set(true)
                    return
                }
                var rounds = 0
                while !stop.current || rounds < 20 {
                    rounds += 1
                    let received = Shared<[Int]>([])
                    let output: ChannelOutput<Int>
                    if rounds % 3 == 0 {
                        // Through a processor of its own, so nodes activate and deactivate too.
                        output = multi.map { $0 }.subscribeValues { value in received.withLock { $0.append(value) } }
                    } else {
                        output = multi.subscribeValues { value in received.withLock { $0.append(value) } }
                    }
                    for _ in 0..<(rounds % 5) { _ = Thread.current }
                    output.cancel()
                    let countAtCancel = received.current.count
                    // Let an in-flight delivery finish: the sender's thread may be inside the
                    // handler when cancel() returns (cancel() never waits for it).
                    usleep(20)
                    let seen = received.current
                    // From another thread, a delivery already under way may finish after
                    // cancel() returned; no new one begins. One in flight at most.
                    if seen.count > countAtCancel + 1 {
                        violations.withLock { $0.append("\(seen.count - countAtCancel) after cancel") }
                    }
                    if seen != seen.sorted() || Set(seen).count != seen.count {
                        violations.withLock { $0.append("out of order: \(seen.prefix(20))") }
                    }
                }
            }
        }
        #expect(finished)
        #expect(violations.current == [])
        #expect(anchor.current == Array(0..<total))
        withExtendedLifetime(anchorOutput) {}
    }

    @Test("A9 stress: an output cancelled from its handler's own thread receives nothing after cancel() returned")
    func cancelFromHandlerThreadUnderLoad() {
        for round in 0..<200 {
            let (input, channel) = Channel<Int>.createMultiInput()
            let multi = channel.multicast()
            let slot = Slot<ChannelOutput<Int>>()
            let afterCancel = Shared(0)
            let cancelled = Shared(false)
            let output = multi.subscribeValues { value in
                // The strong rule holds here: cancel() was called on this thread, inside the
                // handler, so every later call would begin after it returned.
                if cancelled.current { afterCancel.withLock { $0 += 1 } }
                if value == 50 {
                    slot.value?.cancel()
                    cancelled.set(true)
                }
            }
            slot.value = output
            let other = multi.subscribe { _ in }
            let finished = withWatchdog(seconds: 300, "round \(round)") {
                runConcurrently(3) { thread in
                    for index in 0..<100 { input.send(value: thread == 0 ? index : 1_000 + index) }
                }
            }
            #expect(finished)
            #expect(afterCancel.current == 0, "round \(round)")
            withExtendedLifetime(other) {}
        }
    }

    @Test("A9 stress: sends racing the end from 4 threads: every output gets exactly one end, last")
    func sendsRacingEnd() {
        for round in 0..<200 {
            let (input, multi) = Channel<Int>.create { $0.multicast() }
            let logs = (0..<3).map { _ in ChannelLog<Int>() }
            let outputs = logs.map { multi.subscribe($0.handler) }
            runConcurrently(4) { thread in
                input.send(value: thread)
                switch thread {
                case 0: input.complete()
                case 1: input.send(error: ChannelTestError(1))
                case 2: input.cancel()
                default: input.send(value: 100)
                }
                input.send(value: 200 + thread)
            }
            for log in logs {
                let entries = log.all
                let ends = entries.filter { Int($0) == nil }
                #expect(ends.count == 1, "round \(round): \(entries)")
                #expect(entries.last.map { Int($0) == nil } == true, "round \(round): \(entries)")
                #expect(entries == logs[0].all, "round \(round)")
            }
            withExtendedLifetime(outputs) {}
        }
    }

    @Test("A6 stress: deactivation from other threads while a chain delivers: no deadlock, state reset")
    func deactivateWhileDelivering() {
        let (input, channel) = Channel<Int>.createMultiInput()
        let chain = channel.map(initialState: 0) { (count: inout Int, _: Int) -> Int in
            count += 1
            return count
        }
        let stop = Shared(false)
        let violations = Shared<[String]>([])
        let finished = withWatchdog(seconds: 180, "deactivation churn") {
            runConcurrently(3) { thread in
                if thread == 0 {
                    for value in 0..<20_000 { input.send(value: value) }
                    stop.set(true)
                    return
                }
                while !stop.current {
                    let counts = Shared<[Int]>([])
                    let output = chain.subscribeValues { count in counts.withLock { $0.append(count) } }
                    usleep(10)
                    output.cancel()
                    usleep(20)
                    // Each activation starts its count afresh (A6) and counts without gaps.
                    let seen = counts.current
                    if !seen.isEmpty, seen != Array(1...seen.count) {
                        violations.withLock { $0.append("\(seen.prefix(10))") }
                    }
                }
            }
        }
        #expect(finished)
        #expect(violations.current == [])
    }
}
