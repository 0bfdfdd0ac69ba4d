import Dispatch
import Foundation
import Rivulet
import RivuletContracts
import Testing

/// The scheduler contract against Rivulet's schedulers, which must pass, and against schedulers
/// that break one clause each, written the way a plausible bug would be, which must be caught.
@Suite struct SchedulerContractTests {
    /// Broken schedulers that block or deadlock cost the kit one deadline each.
    static let shortDeadline = ContractOptions(deadline: 0.5)

    @Test func queueSchedulerPasses() {
        let report = SchedulerContract.verifyDateScheduler("QueueScheduler") { QueueScheduler() }
        #expect(report.isConforming, "\(report)")
        #expect(report.clausesChecked == [.e1, .e4, .e5, .e6, .e7, .o6, .o7])
    }

    @Test func immediateSchedulerPassesAsImmediate() {
        let report = SchedulerContract.verify("ImmediateScheduler", runsActionsImmediately: true) { ImmediateScheduler() }
        #expect(report.isConforming, "\(report)")
    }

    @Test func immediateSchedulerNotDeclaredImmediateIsCaught_E6() {
        // Without the declaration, running an action nested in the one that scheduled it is E6.
        let report = SchedulerContract.verify("ImmediateScheduler") { ImmediateScheduler() }
        #expect(report.violatedClauses.contains(.e6), "\(report)")
    }

    @Test func testSchedulerPassesWhenDriven() {
        let report = SchedulerContract.verify("TestScheduler", drive: { $0.run() }) { TestScheduler() }
        #expect(report.isConforming, "\(report)")
        let dated = SchedulerContract.verifyDateScheduler("TestScheduler", advance: { $0.advance(by: $1) }) { TestScheduler() }
        #expect(dated.isConforming, "\(dated)")
    }

    /// The main queue is serviced under `swift test` on Linux (see UISchedulerTests), but
    /// UIScheduler's synchronous fast path depends on a process-wide count of pending actions:
    /// run alongside RivuletTests' UISchedulerTests, this check would make their "runs
    /// synchronously with nothing pending" test flaky. It runs when asked for.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["RIVULET_CHECK_UISCHEDULER"] != nil))
    func uiSchedulerPasses() {
        let report = SchedulerContract.verify("UIScheduler") { UIScheduler() }
        #expect(report.isConforming, "\(report)")
    }

    @Test func concurrentSchedulerIsCaught_E5() {
        let report = SchedulerContract.verify("ConcurrentScheduler") { ConcurrentScheduler() }
        #expect(report.violatedClauses.contains(.e5), "\(report)")
    }

    @Test func nestingSchedulerIsCaught_E6() {
        let report = SchedulerContract.verify("NestingScheduler") { NestingScheduler() }
        #expect(report.violatedClauses == [.e6], "\(report)")
    }

    @Test func disposalIgnoringSchedulerIsCaught_E4() {
        let report = SchedulerContract.verify("DisposalIgnoringScheduler") { DisposalIgnoringScheduler() }
        #expect(report.violatedClauses == [.e4], "\(report)")
    }

    @Test func lockHoldingSchedulerIsCaught_O7() {
        let report = SchedulerContract.verify("LockHoldingScheduler", options: Self.shortDeadline) { LockHoldingScheduler() }
        #expect(report.violatedClauses == [.o7], "\(report)")
    }

    @Test func blockingSchedulerIsCaught_O6() {
        let report = SchedulerContract.verify("BlockingScheduler", options: Self.shortDeadline) { BlockingScheduler() }
        #expect(report.violatedClauses == [.o6], "\(report)")
        #expect(report.scenarios.count == 1, "the check stops at the first stuck step")
    }

    @Test func earlyDateSchedulerIsCaught_E7() {
        let report = SchedulerContract.verifyDateScheduler("EarlyScheduler") { EarlyScheduler() }
        #expect(report.violatedClauses.contains(.e7), "\(report)")
        // Running everything at once also loses the date order.
        #expect(report.violatedClauses.contains(.e5), "\(report)")
    }
}

// MARK: Broken schedulers

// Nested in the suite, so that their names cannot clash with other tests of the module.
extension SchedulerContractTests {
    /// Runs each action on a thread of its own: they overlap.
    ///
    /// Not `DispatchQueue.global()`: inside the test process on a two-core Linux machine, dispatch
    /// gives its queues a single worker thread while the test runner's threads wait (measured: even
    /// a private concurrent queue ran 20 blocks one at a time), so no overlap would happen for the
    /// kit to see. The kit can only report concurrency that actually occurs.
    final class ConcurrentScheduler: Scheduler {
        func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
            let disposable = AnyDisposable()
            Thread { if !disposable.isDisposed { action() } }.start()
            return disposable
        }
    }

    /// A serial scheduler that, already on its queue, runs a new action at once "to save a hop":
    /// inside an action, that nests the new one in it.
    final class NestingScheduler: Scheduler {
        private let queue = DispatchQueue(label: "NestingScheduler")
        private let key = DispatchSpecificKey<Bool>()

        init() { queue.setSpecific(key: key, value: true) }

        func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
            if DispatchQueue.getSpecific(key: key) == true {
                action()
                return nil
            }
            let disposable = AnyDisposable()
            queue.async { if !disposable.isDisposed { action() } }
            return disposable
        }
    }

    /// A serial scheduler that hands out a disposable but never looks at it.
    final class DisposalIgnoringScheduler: Scheduler {
        private let queue = DispatchQueue(label: "DisposalIgnoringScheduler")

        func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
            queue.async(execute: action)
            return AnyDisposable()
        }
    }

    /// A serial scheduler whose lock guards its list of pending actions and is also held while it
    /// runs them: scheduling from inside an action waits for itself.
    final class LockHoldingScheduler: Scheduler, @unchecked Sendable {
        // @unchecked Sendable: `pending` is only touched while holding `lock` (a semaphore).
        private let queue = DispatchQueue(label: "LockHoldingScheduler")
        private let lock = DispatchSemaphore(value: 1)
        private var pending: [(disposable: AnyDisposable, action: @Sendable () -> Void)] = []

        func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
            // Bounded, so that the deadlock the kit provokes ends (dropping the action) and frees
            // the queue's thread some time after the test.
            guard lock.wait(timeout: .now() + 300) == .success else { return nil }
            let disposable = AnyDisposable()
            pending.append((disposable, action))
            lock.signal()
            queue.async { [self] in drain() }
            return disposable
        }

        private func drain() {
            lock.wait()
            while !pending.isEmpty {
                let next = pending.removeFirst()
                if !next.disposable.isDisposed { next.action() }
            }
            lock.signal()
        }
    }

    /// A scheduler whose `schedule` waits for a capacity that never frees up.
    final class BlockingScheduler: Scheduler {
        private let capacity = DispatchSemaphore(value: 0)

        func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
            // Bounded, so that the abandoned thread ends some time after the test.
            _ = capacity.wait(timeout: .now() + 10)
            return QueueScheduler().schedule(action)
        }
    }

    /// A date scheduler that treats every date as "as soon as possible".
    final class EarlyScheduler: DateScheduler {
        private let inner = QueueScheduler(name: "EarlyScheduler")

        var currentDate: Date { inner.currentDate }

        func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
            inner.schedule(action)
        }

        func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> Disposable? {
            inner.schedule(action)
        }

        func schedule(
            after date: Date,
            interval: DispatchTimeInterval,
            leeway: DispatchTimeInterval,
            action: @escaping @Sendable () -> Void
        ) -> Disposable? {
            inner.schedule(after: date, interval: interval, leeway: leeway, action: action)
        }
    }
}
