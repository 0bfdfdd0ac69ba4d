import Dispatch
import Foundation
import Testing
@testable import Rivulet

@Suite struct SerialInboxTests {
    @Test func handlesEachInputOnTheSendingThreadBeforeSendReturns_E7() {
        let handled = Locked<[(Int, ThreadID)]>([])
        let inbox = SerialInbox<Int> { input in handled.withLock { $0.append((input, .current)) } }
        inbox.send(1)
        #expect(handled.withLock { $0.map(\.0) } == [1])
        withWatchdog {
            inbox.send(2)
            let thread = ThreadID.current
            #expect(handled.withLock { $0.last?.1 } == thread)
        }
        #expect(handled.withLock { $0.map(\.0) } == [1, 2])
    }

    @Test func anInputSentFromTheHandlerIsHandledRightAfterTheCurrentOne_E6() {
        var log: [String] = []
        var inbox: SerialInbox<Int>!
        inbox = SerialInbox { input in
            log.append("begin \(input)")
            if input == 1 {
                inbox.send(2)
                inbox.send(3)
            }
            log.append("end \(input)")
        }
        inbox.send(1)
        #expect(log == ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"])
        inbox.close()
    }

    @Test func closingIgnoresLaterInputsAndReleasesTheHandler() {
        let tracked = WeakBox<Tracked>(nil)
        var handled: [Int] = []
        let inbox: SerialInbox<Int> = {
            let object = Tracked()
            tracked.object = object
            return SerialInbox { input in
                withExtendedLifetime(object) { handled.append(input) }
            }
        }()
        inbox.send(1)
        inbox.close()
        inbox.send(2)
        #expect(handled == [1])
        #expect(tracked.object == nil)
    }

    @Test func closingFromTheHandlerStillHandlesWhatWasAlreadyQueued() {
        var handled: [Int] = []
        var inbox: SerialInbox<Int>!
        inbox = SerialInbox { input in
            handled.append(input)
            if input == 1 {
                inbox.send(2)
                inbox.close()
                inbox.send(3)
            }
        }
        inbox.send(1)
        inbox.send(4)
        #expect(handled == [1, 2])
    }
}

@Suite struct SerialInboxStressTests {
    @Test func concurrentSendersAreHandledOneAtATimeWithNothingLost_E5() {
        let overlap = OverlapDetector()
        let handled = Locked<[Int: [Int]]>([:])
        let inbox = SerialInbox<(sender: Int, value: Int)> { input in
            overlap.enter()
            handled.withLock { $0[input.sender, default: []].append(input.value) }
            overlap.leave()
        }
        withWatchdog {
            runConcurrently(8) { sender in
                for value in 0..<500 { inbox.send((sender, value)) }
            }
        }
        #expect(overlap.overlapCount == 0)
        let result = handled.withLock { $0 }
        #expect(result.count == 8)
        for sender in 0..<8 {
            #expect(result[sender] == Array(0..<500), "sender \(sender): every value, in its order")
        }
        inbox.close()
    }
}
