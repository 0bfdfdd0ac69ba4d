import Dispatch
import Foundation
import Testing
@testable import Rivulet

@Suite struct StageMailboxTests {
    @Test func anInputSentFromTheHandlerIsHandledRightAfterTheCurrentOne_E6() {
        var log: [String] = []
        var mailbox: StageMailbox<Int>!
        mailbox = StageMailbox { input in
            log.append("begin \(input)")
            if input == 1 { mailbox.send(2) }
            log.append("end \(input)")
        }
        mailbox.send(1)
        #expect(log == ["begin 1", "end 1", "begin 2", "end 2"])
        mailbox.close()
    }

    @Test func upstreamInputNeverWaitsForABusyThread() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let handled = Locked<[(Int, ThreadID)]>([])
        let mailbox = StageMailbox<Int> { input in
            handled.withLock { $0.append((input, .current)) }
            if input == 1 {
                entered.signal()
                release.wait()
            }
        }
        let busyThread = Locked<ThreadID?>(nil)
        Thread {
            busyThread.withLock { $0 = .current }
            mailbox.send(1)
        }.start()
        entered.wait()
        // The handler is busy on the other thread: this send must return at once.
        let returned = withWatchdog(seconds: 5, "send while another thread handles an input") {
            mailbox.send(2)
        }
        #expect(returned)
        #expect(handled.withLock { $0.map(\.0) } == [1])
        release.signal()
        withWatchdog { while handled.withLock({ $0.count }) < 2 { usleep(1_000) } }
        // The queued input was handled by the busy thread, after its current input.
        #expect(handled.withLock { $0.map(\.0) } == [1, 2])
        #expect(handled.withLock { $0.last?.1 } == busyThread.withLock { $0 })
        mailbox.close()
    }

    @Test func aCallbackWaitsForItsTurnAndIsHandledOnItsOwnThread() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let handled = Locked<[(Int, ThreadID)]>([])
        let mailbox = StageMailbox<Int> { input in
            handled.withLock { $0.append((input, .current)) }
            if input == 1 {
                entered.signal()
                release.wait()
            }
        }
        Thread { mailbox.send(1) }.start()
        entered.wait()
        let callbackDone = DispatchSemaphore(value: 0)
        let callbackThread = Locked<ThreadID?>(nil)
        Thread {
            callbackThread.withLock { $0 = .current }
            mailbox.sendWaitingForTurn(2)
            callbackDone.signal()
        }.start()
        // The callback cannot be handled while input 1 is.
        #expect(callbackDone.wait(timeout: .now() + 0.2) == .timedOut)
        release.signal()
        #expect(callbackDone.wait(timeout: .now() + 10) == .success)
        #expect(handled.withLock { $0.map(\.0) } == [1, 2])
        #expect(handled.withLock { $0.last?.1 } == callbackThread.withLock { $0 })
        mailbox.close()
    }

    @Test func closingDropsLaterInputsAndReleasesTheHandler() {
        let tracked = WeakBox<Tracked>(nil)
        var handled: [Int] = []
        let mailbox: StageMailbox<Int> = {
            let object = Tracked()
            tracked.object = object
            return StageMailbox { input in
                withExtendedLifetime(object) { handled.append(input) }
            }
        }()
        mailbox.send(1)
        mailbox.close()
        mailbox.send(2)
        mailbox.sendWaitingForTurn(3)
        #expect(handled == [1])
        #expect(tracked.object == nil)
    }
}
