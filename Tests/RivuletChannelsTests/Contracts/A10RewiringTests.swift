import Dispatch
import Foundation
import Testing
import RivuletChannels
import RivuletContracts

/// A10: the graph can be rewired while active; values in flight on a stale connection are
/// dropped, never delivered out of order.
@Suite(.checksLiveObjects) struct A10RewiringTests {
    private func isBindError(_ error: any Error, _ expected: String) -> Bool {
        guard let error = error as? ChannelBindError<Int> else { return false }
        switch error {
        case .cancelled: return expected == "cancelled"
        case .loop: return expected == "loop"
        case .duplicate: return expected == "duplicate"
        }
    }

    @Test("A10 bind(to:) of a replaced input throws cancelled")
    func bindReplacedInput() throws {
        let (aInput, a) = Channel<Int>.createMultiInput()
        let (bInput, b) = Channel<Int>.createMultiInput()
        let (targetInput, target) = Channel<Int>.create()
        let output = target.subscribe { _ in }
        try a.junction().bind(to: targetInput)
        #expect {
            try b.junction().bind(to: targetInput)
        } throws: { isBindError($0, "cancelled") }
        withExtendedLifetime((aInput, bInput, output)) {}
    }

    @Test("A10 binding a bound junction again throws duplicate; binding into its own upstream throws loop")
    func duplicateAndLoop() throws {
        let (aInput, a) = Channel<Int>.createMultiInput()
        let (t1, _) = Channel<Int>.create()
        let (t2, _) = Channel<Int>.create()
        let junction = a.junction()
        try junction.bind(to: t1)
        #expect { try junction.bind(to: t2) } throws: { isBindError($0, "duplicate") }
        let (loopInput, loopChannel) = Channel<Int>.create()
        #expect { try loopChannel.map { $0 }.junction().bind(to: loopInput) } throws: { isBindError($0, "loop") }
        withExtendedLifetime(aInput) {}
    }

    @Test("A10 bind(to:onEnd:) gives the end to the handler, with a fresh input, instead of the downstream")
    func bindOnEnd() throws {
        let (aInput, a) = Channel<Int>.create()
        let (targetInput, target) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = target.subscribe(log.handler)
        let ends = Shared<[String]>([])
        let fresh = Shared<ChannelInput<Int>?>(nil)
        try a.junction().bind(to: targetInput) { _, end, input in
            ends.withLock { $0.append(ChannelLog<Int>.describe(end)) }
            fresh.set(input)
        }
        aInput.send(value: 1)
        aInput.complete()
        #expect(ends.current == ["complete"])
        #expect(log.all == ["1"])
        #expect(!output.isClosed)
        #expect(fresh.current?.send(value: 2) == nil)
        #expect(log.all == ["1", "2"])
    }

    @Test(
        "A10 disconnect() deactivates the upstream and hands back a working input; rebind() reactivates afresh",
        .keepsLiveObjects(
            "keeps every generated input in a static array for the rest of the run (releasing one would end its channel, A7)"))
    func disconnectAndRebind() throws {
        let events = Shared<[Bool]>([])
        let upstream = Channel<Int>.generate { input in
            events.withLock { $0.append(input != nil) }
            input?.send(value: events.current.count)
            if let input { Self.keep(input) }
        }
        let (targetInput, target) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = target.subscribe(log.handler)
        let junction = upstream.junction()
        try junction.bind(to: targetInput)
        #expect(events.current == [true])
        junction.rebind()
        #expect(events.current == [true, false, true])
        let fresh = junction.disconnect()
        #expect(events.current == [true, false, true, false])
        #expect(junction.disconnect() == nil)
        #expect(fresh?.send(value: 9) == nil)
        #expect(log.all == ["1", "3", "9"])
        withExtendedLifetime(output) {}
    }

    private static let kept = Shared<[AnyObject]>([])
    private static func keep(_ object: AnyObject) { kept.withLock { $0.append(object) } }

    @Test("A10 a value sent on a connection that is disconnected before it is delivered is dropped")
    func staleQueuedValueDropped() throws {
        let (firstInput, first) = Channel<Int>.createMultiInput()
        let (secondInput, second) = Channel<Int>.createMultiInput()
        let (targetInput, target) = Channel<Int>.create()
        let firstJunction = first.junction()
        let secondJunction = second.junction()
        try firstJunction.bind(to: targetInput)
        let log = ChannelLog<Int>()
        // Kept so that releasing it does not end the target (A7).
        let lastFresh = Shared<ChannelInput<Int>?>(nil)
        let finished = withWatchdog(seconds: 300, "stale value") {
            let output = target.subscribe { result in
                log.append(result)
                guard case .success(0) = result, let fresh = firstJunction.disconnect() else { return }
                // Rewire to `second` while this thread holds the target's turn.
                try? secondJunction.bind(to: fresh)
                // Another thread sends on the new connection: `second` is idle, the target is
                // busy, so the value is queued in the target for this thread to deliver.
                let sent = DispatchSemaphore(value: 0)
                let thread = Thread {
                    secondInput.send(value: 1)
                    sent.signal()
                }
                thread.start()
                sent.wait()
                // Break that connection before the value is delivered: it is stale now.
                lastFresh.set(secondJunction.disconnect())
                log.appendText("disconnected")
            }
            firstInput.send(value: 0)
            withExtendedLifetime(output) {}
        }
        #expect(finished)
        #expect(log.all == ["0", "disconnected"])

    }

    @Test(
        "A10 junction rewiring while values flow on other threads: per-source order kept, no deadlock")
    func rewiringUnderLoad() throws {
        let (targetInput, target) = Channel<Int>.create()
        let sources = (0..<2).map { _ in Channel<Int>.createMultiInput() }
        let junctions = sources.map { $0.channel.junction() }
        // Which sources are bound right now, as the rewiring thread sees it: set before bind is
        // called, cleared once disconnect() returned.
        let bound = Shared([false, false])
        let received = Shared<[[Int]]>([[], []])
        let late = Shared([0, 0])
        let detector = OverlapDetector()
        let output = target.subscribeValues { value in
            detector.enter()
            // Even values come from source 0, odd ones from source 1.
            let source = value % 2
            if !bound.current[source] { late.withLock { $0[source] += 1 } }
            received.withLock { $0[source].append(value / 2) }
            detector.leave()
        }
        let stop = Shared(false)
        let windows = 300
        let finished = withWatchdog(seconds: 120, "rewiring under load") {
            runConcurrently(3) { thread in
                if thread < 2 {
                    // Bounded: sends never wait (A9), so an unbounded sender faster than the
                    // delivering thread would keep that thread draining its queue for ever.
                    for sequence in 0..<300_000 where !stop.current {
                        sources[thread].input.send(value: sequence * 2 + thread)
                    }
                } else {
                    var input: ChannelInput<Int> = targetInput
                    for round in 0..<windows {
                        let source = round % 2
                        bound.withLock { $0[source] = true }
                        do {
                            try junctions[source].bind(to: input)
                        } catch {
                            Issue.record("bind failed: \(error)")
                            break
                        }
                        usleep(50)
                        guard let fresh = junctions[source].disconnect() else {
                            Issue.record("disconnect returned nil")
                            break
                        }
                        bound.withLock { $0[source] = false }
                        input = fresh
                    }
                    stop.set(true)
                }
            }
        }
        #expect(finished)
        #expect(detector.overlapCount == 0)
        for source in 0..<2 {
            let values = received.current[source]
            // Strictly increasing: nothing out of order, nothing twice.
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "source \(source)")
        }
        // From another thread a delivery already under way may finish after disconnect()
        // returned: the sender's own (at most one per window). More than that means stale
        // values were delivered.
        for source in 0..<2 {
            #expect(late.current[source] <= windows / 2, "source \(source): \(late.current[source]) late deliveries")
        }

        withExtendedLifetime((output, sources)) {}
    }
}
