import Dispatch
import Foundation
import Rivulet

/// A disposable that only remembers whether it was disposed of: the kit hands it to a subject's
/// input as the input's resources, to see when the input is released (S4, S5, P4).
final class DisposalFlag: Disposable, Sendable {
    private let disposed = Locked(false)

    var isDisposed: Bool { disposed.withLock { $0 } }

    func dispose() {
        disposed.withLock { $0 = true }
    }
}

/// Runs `body` on one of the kit's threads and waits at most `seconds` for it to finish.
///
/// Returns `false` if the deadline passed: the thread is then abandoned (it may be blocked for
/// good, which is what the kit reports), and whatever it touches later is kept alive by `body`.
func runOnKitThread(deadline seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let finished = DispatchSemaphore(value: 0)
    KitThread.start {
        body()
        finished.signal()
    }
    return finished.wait(timeout: .now() + seconds) == .success
}

/// A thread the kit runs its calls on. Each check runs hundreds of scenarios, each on a few
/// threads, so a thread that has finished its job waits for the next one instead of exiting:
/// starting a thread costs more than most scenarios. A thread whose job never returns (a subject
/// that blocks) simply never comes back.
final class KitThread: Sendable {
    private static let idle = Locked<[KitThread]>([])

    private let wakeUp = DispatchSemaphore(value: 0)
    private let job = Locked<(@Sendable () -> Void)?>(nil)

    /// Runs `body` on an idle kit thread, or on a new one if none is idle.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let thread = idle.withLock { $0.popLast() } ?? KitThread()
        thread.job.withLock { $0 = body }
        thread.wakeUp.signal()
    }

    private init() {
        let thread = Thread { [self] in
            while true {
                wakeUp.wait()
                job.withLock { $0.take() }?()
                Self.idle.withLock { $0.append(self) }
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// Waits until `condition` holds or `seconds` pass; returns whether it holds.
func wait(upTo seconds: Double, until condition: () -> Bool) -> Bool {
    let end = DispatchTime.now() + seconds
    while !condition() {
        if DispatchTime.now() >= end { return condition() }
        usleep(1_000)
    }
    return true
}

/// A probe that runs a scenario in steps, each on a new kit thread under the deadline
/// (`SchedulerContract`, `PropertyContract`).
protocol SteppingProbe: Sendable {
    func label(currentThreadAs label: String)
    /// The clause and explanation for a step that never finished.
    func blocked(deadline: Double) -> (ContractClause, String)
    func violation(_ clause: ContractClause, _ explanation: String)
}

extension SteppingProbe {
    /// Runs `body` on a new kit thread and waits up to `deadline`; a step that does not finish is
    /// reported as `blocked(deadline:)` says. Returns whether it finished.
    func runStep(deadline: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let finished = runOnKitThread(deadline: deadline) { [self] in
            label(currentThreadAs: "kit thread")
            body()
        }
        if !finished {
            let (clause, explanation) = blocked(deadline: deadline)
            violation(clause, explanation)
        }
        return finished
    }
}
