import Dispatch
import Foundation
import Testing

@testable import Rivulet
import RivuletContracts

/// `ActorScheduler`: actions run on the actor, one at a time, in the order they were scheduled;
/// a disposed action does not run. Cancellation is checked deterministically: the actor is held
/// inside an action while the later actions are scheduled and one of them is disposed of.
@Suite(.checksLiveObjects) struct ActorSchedulerTests {
    actor Worker {
        var log: [Int] = []
        func append(_ value: Int) { log.append(value) }
    }

    @Test func actionsRunOnTheActorOneAtATimeInFIFOOrder() async {
        let worker = Worker()
        let scheduler = ActorScheduler(worker)
        let overlap = OverlapDetector()
        let log = ScheduledLog<Int>()
        await onThread("scheduling") {
            for index in 0..<2_000 {
                scheduler.schedule {
                    worker.assertIsolated()
                    overlap.enter()
                    log.append(index)
                    overlap.leave()
                }
            }
        }
        await waitUntil("every action runs") { log.count == 2_000 }
        #expect(log.items == Array(0..<2_000))
        #expect(overlap.overlapCount == 0)
    }

    @Test func anActionScheduledFromAnActionRunsAfterIt() async {
        let worker = Worker()
        let scheduler = ActorScheduler(worker)
        let log = ScheduledLog<String>()
        scheduler.schedule {
            scheduler.schedule { log.append("inner") }
            log.append("outer")
        }
        scheduler.schedule { log.append("second") }
        await waitUntil("three actions run") { log.count == 3 }
        #expect(log.items == ["outer", "second", "inner"])
    }

    @Test func aDisposedActionDoesNotRun() async {
        let worker = Worker()
        let scheduler = ActorScheduler(worker)
        let log = ScheduledLog<Int>()
        let entered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        await onThread("cancel while the actor is busy") {
            scheduler.schedule {
                entered.signal()
                // Holds the actor while the test schedules and cancels.
                resume.wait()
                log.append(1)
            }
            _ = waitFor(entered, seconds: 300)
            let second = scheduler.schedule { log.append(2) }
            scheduler.schedule {
                log.append(3)
                done.signal()
            }
            second?.dispose()
            #expect(second?.isDisposed == true)
            resume.signal()
            #expect(waitFor(done, seconds: 300))
        }
        #expect(log.items == [1, 3])
    }

    @Test func observeOnTheSchedulerDeliversFourSendersEventsInTheirOrderOnTheActor() async {
        let worker = Worker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let overlap = OverlapDetector()
        let completed = Counter()
        signal.observe(on: ActorScheduler(worker)).observe { event in
            worker.assertIsolated()
            overlap.enter()
            switch event {
            case .value(let value): worker.assumeIsolated { $0.log.append(value) }
            case .completed, .interrupted: completed.increment()
            }
            overlap.leave()
        }
        let perSender = 2_500
        await onThread("four senders") {
            runConcurrently(4) { sender in
                for sequence in 0..<perSender { input.send(value: sender * perSender + sequence) }
            }
            input.sendCompleted()
        }
        await waitUntil("the completion arrives") { completed.value == 1 }
        let log = await worker.log
        #expect(log.count == 4 * perSender)
        for sender in 0..<4 {
            let range = (sender * perSender)..<((sender + 1) * perSender)
            #expect(log.filter { range.contains($0) } == Array(range))
        }
        #expect(overlap.overlapCount == 0)
    }

    @MainActor
    @Test func onTheMainActorActionsRunOnIt() async {
        let scheduler = ActorScheduler(MainActor.shared)
        let log = ScheduledLog<Int>()
        await onThread("schedule from another thread") {
            for index in 0..<100 {
                scheduler.schedule {
                    MainActor.assertIsolated()
                    log.append(index)
                }
            }
        }
        await waitUntil("every action runs") { log.count == 100 }
        #expect(log.items == Array(0..<100))
    }
}
