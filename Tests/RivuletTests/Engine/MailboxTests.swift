import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct MailboxWaitForTurnTests {
    @Test func handlesEachInputOnTheSendingThreadBeforeSendReturns_E7() {
        let handled = Locked<[(Int, ThreadID)]>([])
        let mailbox = Mailbox<Int> { input in handled.withLock { $0.append((input, .current)) } }
        mailbox.send(1)
        #expect(handled.withLock { $0.map(\.0) } == [1])
        withWatchdog {
            mailbox.send(2)
            let thread = ThreadID.current
            #expect(handled.withLock { $0.last?.1 } == thread)
        }
        #expect(handled.withLock { $0.map(\.0) } == [1, 2])
    }

    @Test func anInputSentFromTheHandlerIsHandledRightAfterTheCurrentOne_E6() {
        var log: [String] = []
        var mailbox: Mailbox<Int>!
        mailbox = Mailbox { input in
            log.append("begin \(input)")
            if input == 1 {
                mailbox.send(2)
                mailbox.send(3)
            }
            log.append("end \(input)")
        }
        mailbox.send(1)
        #expect(log == ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"])
        mailbox.close()
    }

    @Test func closingIgnoresLaterInputsAndReleasesTheHandler() {
        let tracked = WeakBox<Tracked>(nil)
        var handled: [Int] = []
        let mailbox: Mailbox<Int> = {
            let object = Tracked()
            tracked.object = object
            return Mailbox { input in
                withExtendedLifetime(object) { handled.append(input) }
            }
        }()
        mailbox.send(1)
        mailbox.close()
        mailbox.send(2)
        #expect(handled == [1])
        #expect(tracked.object == nil)
    }

    @Test func closingFromTheHandlerStillHandlesWhatWasAlreadyQueued() {
        var handled: [Int] = []
        var mailbox: Mailbox<Int>!
        mailbox = Mailbox { input in
            handled.append(input)
            if input == 1 {
                mailbox.send(2)
                mailbox.close()
                mailbox.send(3)
            }
        }
        mailbox.send(1)
        mailbox.send(4)
        #expect(handled == [1, 2])
    }
}

@Suite(.checksLiveObjects) struct MailboxQueueForOwnerTests {
    @Test func anInputSentFromTheHandlerIsHandledRightAfterTheCurrentOne_E6() {
        var log: [String] = []
        var mailbox: Mailbox<Int>!
        mailbox = Mailbox(policy: .queueForOwner) { input in
            log.append("begin \(input)")
            if input == 1 { mailbox.send(2) }
            log.append("end \(input)")
        }
        mailbox.send(1)
        #expect(log == ["begin 1", "end 1", "begin 2", "end 2"])
        mailbox.close()
    }

    /// A `queueForOwner` mailbox that records what it handles, on which thread, and blocks in
    /// input 1 until `release` is signalled.
    struct BusyMailbox {
        let release = DispatchSemaphore(value: 0)
        let handled = Locked<[(Int, ThreadID)]>([])
        let mailbox: Mailbox<Int>

        init() {
            let entered = DispatchSemaphore(value: 0)
            let (release, handled) = (self.release, self.handled)
            mailbox = Mailbox<Int>(policy: .queueForOwner) { input in
                handled.withLock { $0.append((input, .current)) }
                if input == 1 {
                    entered.signal()
                    release.wait()
                }
            }
            self.entered = entered
        }

        private let entered: DispatchSemaphore

        /// Sends input 1 from a new thread and returns that thread once the handler is busy with it.
        func occupyOnAnotherThread() -> ThreadID {
            let busyThread = Locked<ThreadID?>(nil)
            let mailbox = self.mailbox
            Thread {
                busyThread.withLock { $0 = .current }
                mailbox.send(1)
            }.start()
            entered.wait()
            return busyThread.withLock { $0! }
        }
    }

    @Test func upstreamInputNeverWaitsForABusyThread() {
        let busy = BusyMailbox()
        let (release, handled, mailbox) = (busy.release, busy.handled, busy.mailbox)
        let busyThread = busy.occupyOnAnotherThread()
        // The handler is busy on the other thread: this send must return at once.
        let returned = withWatchdog(seconds: 300, "send while another thread handles an input") {
            mailbox.send(2)
        }
        #expect(returned)
        #expect(handled.withLock { $0.map(\.0) } == [1])
        release.signal()
        withWatchdog { while handled.withLock({ $0.count }) < 2 { usleep(1_000) } }
        // The queued input was handled by the busy thread, after its current input.
        #expect(handled.withLock { $0.map(\.0) } == [1, 2])
        #expect(handled.withLock { $0.last?.1 } == busyThread)
        mailbox.close()
    }

    @Test func aCallbackWaitsForItsTurnAndIsHandledOnItsOwnThread() {
        let busy = BusyMailbox()
        let (release, handled, mailbox) = (busy.release, busy.handled, busy.mailbox)
        _ = busy.occupyOnAnotherThread()
        let callbackDone = DispatchSemaphore(value: 0)
        let callbackThread = Locked<ThreadID?>(nil)
        Thread {
            callbackThread.withLock { $0 = .current }
            mailbox.send(2, policy: .waitForTurn)
            callbackDone.signal()
        }.start()
        // The callback cannot be handled while input 1 is.
        #expect(callbackDone.wait(timeout: .now() + 0.2) == .timedOut)
        release.signal()
        #expect(callbackDone.wait(timeout: .now() + 300) == .success)
        #expect(handled.withLock { $0.map(\.0) } == [1, 2])
        #expect(handled.withLock { $0.last?.1 } == callbackThread.withLock { $0 })
        mailbox.close()
    }

    @Test func closingDiscardingDropsLaterInputsAndReleasesTheHandler() {
        let tracked = WeakBox<Tracked>(nil)
        var handled: [Int] = []
        let mailbox: Mailbox<Int> = {
            let object = Tracked()
            tracked.object = object
            return Mailbox(policy: .queueForOwner) { input in
                withExtendedLifetime(object) { handled.append(input) }
            }
        }()
        mailbox.send(1)
        mailbox.close(.discardingAcceptedInputs)
        mailbox.send(2)
        mailbox.send(3, policy: .waitForTurn)
        #expect(handled == [1])
        #expect(tracked.object == nil)
    }
}

@Suite(.checksLiveObjects) struct MailboxClosingTests {
    /// Input 1 is being handled on another thread; input 2 waits for the turn (waitForTurn), and
    /// input 3 is queued for the owner (queueForOwner); then the mailbox is closed.
    func closeWhileInputsWait(_ closing: MailboxClosing) -> (handled: [Int], handlerReleased: Bool) {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let handled = Locked<[Int]>([])
        let tracked = WeakBox<Tracked>(nil)
        let mailbox: Mailbox<Int> = {
            let object = Tracked()
            tracked.object = object
            return Mailbox { input in
                withExtendedLifetime(object) { handled.withLock { $0.append(input) } }
                if input == 1 {
                    entered.signal()
                    release.wait()
                }
            }
        }()
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        Thread {
            mailbox.send(1); first.signal()
        }.start()
        entered.wait()
        Thread {
            mailbox.send(2); second.signal()
        }.start()
        // Let the second sender reach the turnstile.
        withWatchdog { while mailbox.storage.withLock({ $0.queue.waiters }) == 0 { usleep(1_000) } }
        mailbox.send(3, policy: .queueForOwner)
        mailbox.close(closing)
        mailbox.send(4, policy: .queueForOwner)
        // The handler is still in use: it is released only when the turn is over.
        let releasedEarly = tracked.object == nil
        release.signal()
        #expect(first.wait(timeout: .now() + 300) == .success)
        #expect(second.wait(timeout: .now() + 300) == .success)
        #expect(!releasedEarly)
        return (handled.withLock { $0 }, tracked.object == nil)
    }

    @Test func closingAfterAcceptedInputsStillHandlesQueuedAndWaitingInputs() {
        let result = closeWhileInputsWait(.afterAcceptedInputs)
        // 3 was queued for the owner; 2 waited for the turn: both were accepted before the close.
        #expect(result.handled == [1, 3, 2])
        #expect(result.handlerReleased)
    }

    @Test func closingDiscardingAcceptedInputsDropsQueuedAndWaitingInputs() {
        let result = closeWhileInputsWait(.discardingAcceptedInputs)
        #expect(result.handled == [1])
        #expect(result.handlerReleased)
    }

    @Test func aCloseFromTheHandlerReleasesTheHandlerWhenTheTurnEnds() {
        let tracked = WeakBox<Tracked>(nil)
        var mailbox: Mailbox<Int>!
        var releasedInsideTheHandler = false
        mailbox = {
            let object = Tracked()
            tracked.object = object
            return Mailbox { input in
                withExtendedLifetime(object) {
                    mailbox.close(.discardingAcceptedInputs)
                    releasedInsideTheHandler = tracked.object == nil
                }
            }
        }()
        mailbox.send(1)
        #expect(!releasedInsideTheHandler)
        #expect(tracked.object == nil)
    }
}

@Suite(.checksLiveObjects) struct MailboxStressTests {
    @Test func concurrentSendersAreHandledOneAtATimeWithNothingLost_E5() {
        let overlap = OverlapDetector()
        let handled = Locked<[Int: [Int]]>([:])
        let mailbox = Mailbox<(sender: Int, value: Int)> { input in
            overlap.enter()
            handled.withLock { $0[input.sender, default: []].append(input.value) }
            overlap.leave()
        }
        withWatchdog {
            runConcurrently(8) { sender in
                for value in 0..<500 { mailbox.send((sender, value)) }
            }
        }
        #expect(overlap.overlapCount == 0)
        let result = handled.withLock { $0 }
        #expect(result.count == 8)
        for sender in 0..<8 {
            #expect(result[sender] == Array(0..<500), "sender \(sender): every value, in its order")
        }
        mailbox.close()
    }
}
