import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// On Linux the test runner's main thread services the main queue (through an async `main`), but
/// it does so from a dispatch worker thread, so `Thread.isMainThread` is false there. These tests
/// therefore check "runs on the main queue" (a queue-specific tag) rather than "on the main
/// thread". What stays uncovered on Linux is the Apple-platform behaviour of a run-loop-driven
/// main thread; the scheduler's logic is the same there.
///
/// The synchronous fast path depends on no other `UIScheduler` work being pending, so the suite is
/// serialized; a parallel test elsewhere that schedules on a `UIScheduler` at the same moment could
/// only turn a synchronous run into a queued one.
@Suite(.checksLiveObjects, .serialized, .timeLimit(.minutes(1)))
struct UISchedulerTests {
    private static let mainTag: DispatchSpecificKey<Int> = {
        let key = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    private static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: mainTag) == 1
    }

    @Test func workScheduledOffTheMainQueueRunsOnIt() async {
        let scheduler = UIScheduler()
        let log = ScheduledLog<Bool>()

        let ran = await Task.detached {
            let done = DispatchSemaphore(value: 0)
            #expect(!Self.isOnMainQueue)
            let disposable = scheduler.schedule {
                log.append(Self.isOnMainQueue)
                done.signal()
            }
            #expect(disposable != nil)
            return waitFor(done)
        }.value

        #expect(ran)
        #expect(log.items == [true])
    }

    @Test func queuedWorkRunsInOrder() async {
        let scheduler = UIScheduler()
        let log = ScheduledLog<Int>()

        let ran = await Task.detached {
            let done = DispatchSemaphore(value: 0)
            for index in 0..<100 {
                scheduler.schedule {
                    log.append(index)
                    if index == 99 { done.signal() }
                }
            }
            return waitFor(done)
        }.value

        #expect(ran)
        #expect(log.items == Array(0..<100))
    }

    @MainActor
    @Test func onTheMainQueueWithNothingPendingItRunsSynchronously() {
        let scheduler = UIScheduler()
        let log = ScheduledLog<String>()

        let disposable = scheduler.schedule { log.append("ran") }
        log.append("returned")

        #expect(disposable == nil)
        #expect(log.items == ["ran", "returned"])
    }

    @MainActor
    @Test func workScheduledFromInsideAnActionRunsAfterIt() async {
        let scheduler = UIScheduler()
        let log = ScheduledLog<String>()
        let done = DispatchSemaphore(value: 0)

        scheduler.schedule {
            log.append("outer start")
            let inner = scheduler.schedule {
                log.append("inner")
                done.signal()
            }
            #expect(inner != nil)
            log.append("outer end")
        }

        // Let the main queue run the inner action, then check the order.
        let ran = await Task.detached { waitFor(done) }.value
        #expect(ran)
        #expect(log.items == ["outer start", "outer end", "inner"])
    }

    @MainActor
    @Test func disposingQueuedWorkBeforeItRunsPreventsIt() async {
        let scheduler = UIScheduler()
        let log = ScheduledLog<String>()
        let done = DispatchSemaphore(value: 0)

        scheduler.schedule {
            let cancelled = scheduler.schedule { log.append("cancelled") }
            scheduler.schedule {
                log.append("kept")
                done.signal()
            }
            cancelled?.dispose()
        }

        let ran = await Task.detached { waitFor(done) }.value
        #expect(ran)
        #expect(log.items == ["kept"])
    }
}
