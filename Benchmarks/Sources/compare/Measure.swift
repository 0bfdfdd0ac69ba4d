import Dispatch
import Foundation
import MemoryCounter
import Workloads

// How `compare` times a workload: the sides of a workload (Rivulet, OpenCombine, the baseline)
// take turns, one repetition each, so that a slow phase of the machine lands on every side alike;
// each repetition runs on freshly prepared state; the time is the CPU time of this thread
// (`CLOCK_THREAD_CPUTIME_ID`), which does not count the time the thread spends descheduled, except
// for the workloads whose work runs on other threads too, which are timed on the wall clock.

/// How many timed runs each side of a workload gets; the table shows their median and range.
let repetitions = 11
/// The same for the workloads timed on the wall clock, which other processes disturb more.
let wallClockRepetitions = 21

/// Nanoseconds of CPU time this thread has used so far.
func threadCPUTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Nanoseconds of CPU time every thread of this process has used so far.
func processCPUTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Nanoseconds on a monotonic wall clock.
func wallTime() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// The repetitions of one side of a workload, per operation.
struct Measurement {
    /// Nanoseconds per operation of each repetition, in the order they ran.
    var samples: [Double] = []
    /// For the wall-clock workloads: the process's CPU time (every thread) per operation of each
    /// repetition, which other processes on the machine disturb less than the wall clock.
    var processCPUSamples: [Double] = []
    /// The fewest allocations per operation of any repetition.
    var allocations = Double.infinity
    /// The fewest bytes per operation still allocated after any repetition.
    var liveBytes = Double.infinity

    var median: Double { Measurement.median(samples) }
    var fastest: Double { samples.min() ?? .nan }
    var slowest: Double { samples.max() ?? .nan }

    /// "min–max" with one decimal.
    var range: String { "\(format(fastest))–\(format(slowest))" }

    /// This side's time over `other`'s: the median of the ratios of the repetitions, each of
    /// which ran the two back to back, so that a slow phase of the machine cancels.
    func ratio(to other: Measurement) -> Double {
        Measurement.median(zip(samples, other.samples).map { $0 / $1 })
    }

    /// The process's CPU time per operation (median), for the wall-clock workloads.
    var processCPU: Double { Measurement.median(processCPUSamples) }

    /// `ratio(to:)` in the process's CPU time.
    func processCPURatio(to other: Measurement) -> Double {
        Measurement.median(zip(processCPUSamples, other.processCPUSamples).map { $0 / $1 })
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Times each of `runners` (the sides of one workload) `repetitions` times, in turns, each after
/// one warm-up run; `wallClock` for workloads whose work runs on other threads too.
func measure(_ runners: [Workload.Runner], operations: Int, wallClock: Bool) -> [Measurement] {
    let clock = wallClock ? wallTime : threadCPUTime
    var checksum = 0
    for runner in runners {
        let warmUp = runner()
        checksum &+= warmUp(max(operations / 10, 1))
    }
    var results = Array(repeating: Measurement(), count: runners.count)
    let count = Double(operations)
    for _ in 0..<(wallClock ? wallClockRepetitions : repetitions) {
        for (index, runner) in runners.enumerated() {
            let run = runner()
            let mallocsBefore = rivulet_bench_malloc_count()
            let liveBefore = rivulet_bench_live_bytes()
            let processStart = wallClock ? processCPUTime() : 0
            let start = clock()
            checksum &+= run(operations)
            let elapsed = clock() - start
            if wallClock { results[index].processCPUSamples.append(Double(processCPUTime() - processStart) / count) }
            let mallocs = rivulet_bench_malloc_count() - mallocsBefore
            let live = rivulet_bench_live_bytes() - liveBefore
            results[index].samples.append(Double(elapsed) / count)
            results[index].allocations = min(results[index].allocations, Double(mallocs) / count)
            results[index].liveBytes = min(results[index].liveBytes, Double(max(live, 0)) / count)
            withExtendedLifetime(run) {}
        }
    }
    if checksum == 42 { print("(checksum)") } // consumes every result
    return results
}

/// Allocations per operation of one side, counted as `measure` counts them (the fewest of `runs`
/// runs, each on freshly prepared state, after one warm-up run), without timing: the allocation
/// columns of `compare --instructions`.
func allocationsPerOperation(_ runner: Workload.Runner, operations: Int, runs: Int = 3) -> Double {
    var checksum = runner()(max(operations / 10, 1))
    var fewest = Double.infinity
    for _ in 0..<runs {
        let run = runner()
        let before = rivulet_bench_malloc_count()
        checksum &+= run(operations)
        let mallocs = rivulet_bench_malloc_count() - before
        fewest = min(fewest, Double(mallocs) / Double(operations))
        withExtendedLifetime(run) {}
    }
    if checksum == 42 { print("(checksum)") } // consumes every result
    return fewest
}

func format(_ value: Double, decimals: Int = 1) -> String {
    String(format: "%.\(decimals)f", value)
}

func verdict(_ met: Bool) -> String { met ? "✅" : "❌" }
