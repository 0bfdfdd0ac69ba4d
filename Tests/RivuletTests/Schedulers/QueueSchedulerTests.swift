import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct QueueSchedulerTests {
    @Test func runsOnItsQueueAndOffTheCallingThread() throws {
        let scheduler = QueueScheduler(name: "test.queue-scheduler")
        let key = DispatchSpecificKey<Int>()
        scheduler.queue.setSpecific(key: key, value: 42)
        let caller = ThreadID.current
        let log = ScheduledLog<(ThreadID, Int?)>()
        let done = DispatchSemaphore(value: 0)

        scheduler.schedule {
            log.append((ThreadID.current, DispatchQueue.getSpecific(key: key)))
            done.signal()
        }

        #expect(waitFor(done))
        let (thread, queueTag) = try #require(log.items.first)
        #expect(thread != caller)
        #expect(queueTag == 42)
    }

    @Test func actionsRunSeriallyAndInOrderEvenOnAConcurrentTarget() {
        let scheduler = QueueScheduler(targeting: .global())
        let order = ScheduledLog<Int>()
        let inside = Locked(0)
        let overlaps = Locked(0)
        let done = DispatchSemaphore(value: 0)
        let count = 200

        for index in 0..<count {
            scheduler.schedule {
                if inside.withLock({ value -> Bool in
                    value += 1; return value > 1
                }) {
                    overlaps.withLock { $0 += 1 }
                }
                // Give a concurrent execution a chance to show up.
                for _ in 0..<200 { _ = ThreadID.current }
                order.append(index)
                inside.withLock { $0 -= 1 }
                if index == count - 1 { done.signal() }
            }
        }

        #expect(waitFor(done))
        #expect(order.items == Array(0..<count))
        #expect(overlaps.withLock { $0 } == 0)
    }

    @Test func disposingBeforeTheActionRunsPreventsIt() {
        let scheduler = QueueScheduler()
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let log = ScheduledLog<String>()

        // Hold the queue so the next action cannot start before it is disposed of.
        scheduler.schedule { _ = waitFor(gate) }
        let cancelled = scheduler.schedule { log.append("cancelled") }
        scheduler.schedule {
            log.append("kept"); done.signal()
        }
        cancelled?.dispose()
        gate.signal()

        #expect(waitFor(done))
        #expect(log.items == ["kept"])
        #expect(cancelled?.isDisposed == true)
    }

    @Test func scheduleAfterDateRunsNoEarlierThanTheDate() {
        let scheduler = QueueScheduler()
        let due = scheduler.currentDate.addingTimeInterval(0.2)
        let ranAt = ScheduledLog<Date>()
        let done = DispatchSemaphore(value: 0)

        scheduler.schedule(after: due) {
            ranAt.append(Date())
            done.signal()
        }

        #expect(waitFor(done))
        #expect(ranAt.items.count == 1)
        #expect(ranAt.items.allSatisfy { $0 >= due })
    }

    @Test func disposingADelayedActionPreventsIt() {
        let scheduler = QueueScheduler()
        let log = ScheduledLog<String>()
        let done = DispatchSemaphore(value: 0)

        let cancelled = scheduler.schedule(after: scheduler.currentDate.addingTimeInterval(0.05)) {
            log.append("cancelled")
        }
        cancelled?.dispose()
        scheduler.schedule(after: scheduler.currentDate.addingTimeInterval(0.3)) {
            log.append("marker")
            done.signal()
        }

        #expect(waitFor(done))
        #expect(log.items == ["marker"])
    }

    @Test(arguments: [Date.distantPast, Date(timeIntervalSince1970: 0), Date().addingTimeInterval(-1)])
    func aPastDateRunsAsSoonAsPossible(date: Date) {
        let scheduler = QueueScheduler()
        let done = DispatchSemaphore(value: 0)

        scheduler.schedule(after: date) { done.signal() }

        #expect(waitFor(done))
    }

    @Test func repeatingTimerFiresSeveralTimesThenStopsWhenDisposed() throws {
        let scheduler = QueueScheduler()
        let fires = Locked(0)
        let tick = DispatchSemaphore(value: 0)

        let timer = try #require(
            scheduler.schedule(after: scheduler.currentDate, interval: .milliseconds(20)) {
                fires.withLock { $0 += 1 }
                tick.signal()
            }
        )
        for _ in 0..<3 {
            #expect(waitFor(tick))
        }
        timer.dispose()
        // A run already under way finishes; after this barrier none may start.
        scheduler.queue.sync {}
        let firedBeforeDispose = fires.withLock { $0 }
        Thread.sleep(forTimeInterval: 0.2)

        #expect(firedBeforeDispose >= 3)
        #expect(fires.withLock { $0 } == firedBeforeDispose)
        #expect(timer.isDisposed)
    }

    /// As in ReactiveSwift: the scheduler, not the disposable, keeps a repeating timer alive.
    @Test func repeatingActionKeepsRunningWhenItsDisposableIsReleasedWithoutDisposal() {
        let scheduler = QueueScheduler()
        let tick = DispatchSemaphore(value: 0)
        weak var released: Disposable?
        do {
            let disposable = scheduler.schedule(after: scheduler.currentDate, interval: .milliseconds(10)) {
                tick.signal()
            }
            released = disposable
        }
        #expect(released == nil)

        for _ in 0..<5 {
            #expect(waitFor(tick))
        }
    }

    @Test func aSchedulerWithRunningTimersIsReleasedWithItsLastReference() {
        weak var weakScheduler: QueueScheduler?
        weak var weakDisposable: Disposable?
        do {
            let scheduler = QueueScheduler()
            weakScheduler = scheduler
            let disposable = scheduler.schedule(after: scheduler.currentDate, interval: .seconds(60)) {}
            weakDisposable = disposable
            _ = scheduler.schedule(after: scheduler.currentDate, interval: .seconds(60)) {}
        }
        #expect(weakScheduler == nil)
        #expect(weakDisposable == nil)
    }

    @Test func defaultQualityOfServiceIsUnspecified() {
        #expect(QueueScheduler().queue.qos == .unspecified)
        #expect(QueueScheduler(qos: .userInitiated).queue.qos == .userInitiated)
    }

    #if !canImport(Darwin)
    /// ReactiveSwift's `init(queue:name:)` is unavailable on Apple platforms only.
    @Test func initWithATargetQueueMakesASerialQueueOnIt() {
        let target = DispatchQueue(label: "test.target")
        let key = DispatchSpecificKey<Int>()
        target.setSpecific(key: key, value: 7)
        let scheduler = QueueScheduler(queue: target, name: "test.targeting")
        let done = DispatchSemaphore(value: 0)
        let tag = Locked<Int?>(nil)

        scheduler.schedule {
            tag.withLock { $0 = DispatchQueue.getSpecific(key: key) }
            done.signal()
        }

        #expect(waitFor(done))
        #expect(scheduler.queue.label == "test.targeting")
        #expect(tag.withLock { $0 } == 7)
    }
    #endif

    @Test func repeatingTimerActionsAreSerialWithOtherActions() throws {
        let scheduler = QueueScheduler(targeting: .global())
        let inside = Locked(0)
        let overlaps = Locked(0)
        let tick = DispatchSemaphore(value: 0)
        let body: @Sendable () -> Void = {
            if inside.withLock({ value -> Bool in
                value += 1; return value > 1
            }) {
                overlaps.withLock { $0 += 1 }
            }
            for _ in 0..<500 { _ = ThreadID.current }
            inside.withLock { $0 -= 1 }
        }

        let timer = try #require(
            scheduler.schedule(after: scheduler.currentDate, interval: .milliseconds(1), leeway: .nanoseconds(0)) {
                body()
                tick.signal()
            }
        )
        for _ in 0..<500 {
            scheduler.schedule(body)
        }
        for _ in 0..<5 {
            #expect(waitFor(tick))
        }
        timer.dispose()
        scheduler.queue.sync {}

        #expect(overlaps.withLock { $0 } == 0)
    }

    @Test func mainRunsOnTheMainQueue() {
        let mainKey = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: mainKey, value: 7)
        let onMain = ScheduledLog<Bool>()
        let done = DispatchSemaphore(value: 0)

        // `DispatchQueue.main` hands out a fresh wrapper on Linux, so compare labels, not identity.
        #expect(QueueScheduler.main.queue.label == DispatchQueue.main.label)
        DispatchQueue.global().async {
            QueueScheduler.main.schedule {
                onMain.append(DispatchQueue.getSpecific(key: mainKey) == 7)
                done.signal()
            }
        }

        #expect(waitFor(done))
        #expect(onMain.items == [true])
    }

    @Test func currentDateFollowsTheWallClock() {
        let scheduler = QueueScheduler()
        let before = Date()
        let reading = scheduler.currentDate
        let after = Date()

        #expect(before <= reading && reading <= after)
    }

    @Test func repeatingWithANeverIntervalIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = QueueScheduler()
            _ = scheduler.schedule(after: scheduler.currentDate, interval: .never) {}
        }
    }
}
