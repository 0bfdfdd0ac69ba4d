import Foundation
import Rivulet
import RivuletContracts
import Testing

/// The process's resident memory, from /proc (Linux); `nil` elsewhere.
func residentBytes() -> Int? {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// What rounds of many cycles (subscribe and dispose, start and dispose, ...) did to the process:
/// how much resident memory and how many live Rivulet objects each round added.
///
/// Two rounds or more: a leak of even the smallest block (32 bytes) per cycle grows resident
/// memory by 32 MB or more per million cycles in every round, while what other tests running
/// meanwhile add to the process (once 28 MB in a CI run on two cores) does not repeat round after
/// round. So the smallest growth is the one compared with a bound.
struct CycleRounds {
    let cycles: Int
    /// Bytes of resident memory each round added (empty where it cannot be read).
    var residentGrowths: [Int] = []
    /// Live objects each round added (empty in a build that does not count them).
    var liveObjectGrowths: [Int] = []

    /// Runs `rounds` rounds of `cycles` calls of `cycle`, then `afterRound(round)` after each
    /// round (for the caller's own checks, such as counting released closures).
    init(cycles: Int, rounds: Int = 2, _ cycle: () -> Void, afterRound: (Int) -> Void = { _ in }) {
        self.cycles = cycles
        for round in 1...rounds {
            let residentBefore = residentBytes()
            let objectsBefore = LiveObjects.total
            for _ in 0..<cycles { cycle() }
            afterRound(round)
            if let residentBefore, let after = residentBytes() { residentGrowths.append(after - residentBefore) }
            if let objectsBefore, let after = LiveObjects.total { liveObjectGrowths.append(after - objectsBefore) }
        }
    }

    /// Expects the rounds to have left neither memory nor live objects behind.
    ///
    /// The live-object count must come back exactly when the suite runs serially with the check on
    /// (`LiveObjectsCheck`); in a parallel run other tests' objects come and go meanwhile, so the
    /// smallest growth must only stay far below one object per cycle. The resident-memory bound is
    /// skipped under a sanitizer, whose allocator keeps freed memory in quarantine.
    func expectFlat(sourceLocation: SourceLocation = #_sourceLocation) {
        if let smallest = liveObjectGrowths.min() {
            if LiveObjectsCheck.isEnabled {
                #expect(
                    liveObjectGrowths.allSatisfy { $0 == 0 },
                    "live objects grew by \(liveObjectGrowths) over rounds of \(cycles) cycles",
                    sourceLocation: sourceLocation)
            } else {
                #expect(
                    smallest < cycles / 10, "live objects grew by \(liveObjectGrowths) over rounds of \(cycles) cycles",
                    sourceLocation: sourceLocation)
            }
        }
        if let smallest = residentGrowths.min(), !isRunningUnderAMemorySanitizer {
            #expect(
                smallest < 24 << 20, "resident memory grew by \(residentGrowths) bytes over rounds of \(cycles) cycles",
                sourceLocation: sourceLocation)
        }
    }
}

extension Trait where Self == LiveObjectsKept {
    /// The opt-out of a test whose observer keeps what it observes (a signal's input, to send
    /// into it; a property, to read or set it; a stage, to feed it): a cycle the test makes on
    /// purpose, as any observer that keeps its own source does, broken only by a terminal event
    /// the test does not send.
    static var observerKeepsWhatItObserves: Self {
        .keepsLiveObjects(
            "an observer keeps the signal input, property or stage it observes: a cycle made on purpose, which only a terminal event the test does not send would break"
        )
    }

    /// The opt-out of a test that leaves work pending on a scheduler it drives by hand (a
    /// `TestScheduler` never run to the end, or a test's own queueing scheduler): a repeating
    /// timer, or the interruption a stage forwards on its scheduler when the input is released.
    /// The scheduler keeps its pending actions, they keep their stage, and the stage keeps the
    /// scheduler.
    static var leavesTestSchedulerWorkPending: Self {
        .keepsLiveObjects(
            "leaves work pending on a scheduler the test drives by hand and never runs to the end: the scheduler keeps its pending actions, they keep their stage, the stage keeps the scheduler"
        )
    }

    /// The opt-out of a test that leaves a producer start running: never disposed of, with an
    /// upstream that never ends. A start lives until it ends or is disposed of (P4), by design.
    static var leavesAStartRunning: Self {
        .keepsLiveObjects(
            "leaves a producer start running (never disposed of, its upstream never ends): a start lives until it ends or is disposed of (P4)"
        )
    }
}
