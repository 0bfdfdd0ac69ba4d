import Dispatch
import Foundation
import MemoryCounter
import Workloads

// Runs every workload for Rivulet, OpenCombine and the plain-closure baseline in one process and
// prints one Markdown table with the ratios and the targets; then the channel workloads
// against the core and the baseline, in a second table (ChannelTable.swift).
//
//     swift run -c release --package-path Benchmarks compare

struct Measurement {
    var nanoseconds = Double.infinity
    var allocations = Double.infinity
    var liveBytes = Double.infinity
}

/// Best of `repetitions` timed runs, each on freshly prepared state, after one warm-up run.
func measure(_ runner: Workload.Runner, operations: Int, repetitions: Int = 5) -> Measurement {
    var checksum = 0
    do {
        let warmUp = runner()
        checksum &+= warmUp(max(operations / 10, 1))
    }
    var best = Measurement()
    for _ in 0..<repetitions {
        let run = runner()
        let mallocsBefore = rivulet_bench_malloc_count()
        let liveBefore = rivulet_bench_live_bytes()
        let start = DispatchTime.now().uptimeNanoseconds
        checksum &+= run(operations)
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        let mallocs = rivulet_bench_malloc_count() - mallocsBefore
        let live = rivulet_bench_live_bytes() - liveBefore
        let count = Double(operations)
        best.nanoseconds = min(best.nanoseconds, Double(elapsed) / count)
        best.allocations = min(best.allocations, Double(mallocs) / count)
        best.liveBytes = min(best.liveBytes, Double(max(live, 0)) / count)
        withExtendedLifetime(run) {}
    }
    if checksum == 42 { print("(checksum)") } // consumes every result
    return best
}

func format(_ value: Double, decimals: Int = 1) -> String {
    String(format: "%.\(decimals)f", value)
}

func verdict(_ met: Bool) -> String { met ? "✅" : "❌" }

// No argument: both tables. A number: that core workload. "channels": the channel table alone;
// "C1"…"C6": that channel workload.
let argument = CommandLine.arguments.dropFirst().first
let filter = argument.flatMap(Int.init)
let channelsOnly = argument == "channels" || argument?.hasPrefix("C") == true
let host = ProcessInfo.processInfo
print("Rivulet benchmarks, \(Date()), \(host.activeProcessorCount) cores, \(host.operatingSystemVersionString)")
print("Best of 5 runs per cell, each after a warm-up; release build; ns and allocations per operation.")
if !channelsOnly {
    print()
    print(
        "| # | workload | per | Rivulet ns | OpenCombine ns | baseline ns | Rivulet/OpenCombine | Rivulet/baseline | Rivulet allocs | OpenCombine allocs | Rivulet live B | OpenCombine live B | targets |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
}
for workload in Workload.all where !channelsOnly && (filter == nil || filter == workload.number) {
    let rivulet = measure(workload.rivulet, operations: workload.operations)
    let openCombine = workload.openCombine.map { measure($0, operations: workload.operations) }
    let baseline = measure(workload.baseline, operations: workload.operations)

    var targets: [String] = []
    let target = workload.target
    if target.beatsOpenCombine, let openCombine {
        targets.append("faster than OpenCombine \(verdict(rivulet.nanoseconds < openCombine.nanoseconds))")
    }
    if let ratio = target.maxBaselineRatio {
        targets.append("≤\(format(ratio))× baseline \(verdict(rivulet.nanoseconds <= ratio * baseline.nanoseconds))")
    }
    if let allocations = target.maxAllocations {
        targets.append("≤\(format(allocations, decimals: 0)) allocs \(verdict(rivulet.allocations <= allocations))")
    }
    if let bytes = target.maxLiveBytes {
        targets.append("≤\(format(bytes, decimals: 0)) B \(verdict(rivulet.liveBytes <= bytes))")
    }
    if let note = workload.note { targets.append("(\(note))") }

    let notAvailable = "n/a"
    var columns: [String] = ["\(workload.number)", workload.name, workload.operation]
    columns.append(format(rivulet.nanoseconds))
    columns.append(openCombine.map { format($0.nanoseconds) } ?? notAvailable)
    columns.append(format(baseline.nanoseconds))
    columns.append(openCombine.map { format(rivulet.nanoseconds / $0.nanoseconds, decimals: 2) } ?? notAvailable)
    columns.append(format(rivulet.nanoseconds / baseline.nanoseconds, decimals: 2))
    columns.append(format(rivulet.allocations, decimals: 2))
    columns.append(openCombine.map { format($0.allocations, decimals: 2) } ?? notAvailable)
    columns.append(format(rivulet.liveBytes, decimals: 0))
    columns.append(openCombine.map { format($0.liveBytes, decimals: 0) } ?? notAvailable)
    columns.append(targets.joined(separator: "; "))
    print("| " + columns.joined(separator: " | ") + " |")
}

if argument == nil || channelsOnly {
    printChannelTable(only: argument == "channels" ? nil : argument)
}
