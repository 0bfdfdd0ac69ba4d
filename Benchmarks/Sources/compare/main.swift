import Foundation
import Workloads

// Runs every workload for Rivulet, OpenCombine and the plain-closure baseline in one process and
// prints one Markdown table with the ratios and the targets; then the channel workloads
// against the core and the baseline, in a second table (ChannelTable.swift). Measure.swift says
// how a cell is timed; Instructions.swift counts instructions under callgrind instead.
//
//     swift run -c release --package-path Benchmarks compare                  # both tables
//     swift run -c release --package-path Benchmarks compare 11               # core workload 11
//     swift run -c release --package-path Benchmarks compare core             # the core table alone
//     swift run -c release --package-path Benchmarks compare channels         # the channel table
//     swift run -c release --package-path Benchmarks compare C2               # channel workload C2
//     swift run -c release --package-path Benchmarks compare --instructions [2 | core | channels | C2]
//     swift run -c release --package-path Benchmarks compare --once 2 rivulet 5000   # one run, untimed
//     swift run -c release --package-path Benchmarks compare --list           # the core workloads' numbers

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--once" {
    runOnce(Array(arguments.dropFirst()))
}
if arguments.first == "--list" {
    print(Workload.all.map { "\($0.number)" }.joined(separator: " "))
    exit(0)
}
if arguments.first == "--instructions" {
    exit(printInstructionTables(filter: arguments.dropFirst().first))
}

// No argument: both tables. A number: that core workload. "core": the core table alone.
// "channels": the channel table alone; "C1"…"C6": that channel workload.
let argument = arguments.first
let filter = argument.flatMap(Int.init)
let coreOnly = argument == "core"
let channelsOnly = argument == "channels" || argument?.hasPrefix("C") == true
let host = ProcessInfo.processInfo
print("Rivulet benchmarks, \(Date()), \(host.activeProcessorCount) cores, \(host.operatingSystemVersionString)")
print(
    """
    Release build; ns, allocations and live bytes per operation. Each cell: the median of \(repetitions) runs \
    (\(wallClockRepetitions) on the wall clock; min–max beside it), the sides of a workload taking turns, each run \
    after a warm-up; time is this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), wall time where the clock column \
    says so; allocations and live bytes: the fewest of the runs; ratios: the median of the runs' ratios.
    """
)
if !channelsOnly {
    print()
    print(
        "| # | workload | per | clock | Rivulet ns | Rivulet min–max | OpenCombine ns | OpenCombine min–max | baseline ns | baseline min–max | Rivulet/OpenCombine | Rivulet/baseline | Rivulet allocs | OpenCombine allocs | Rivulet live B | OpenCombine live B | targets |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
}
for workload in Workload.all where !channelsOnly && (filter == nil || filter == workload.number) {
    let runners = [workload.rivulet, workload.baseline] + (workload.openCombine.map { [$0] } ?? [])
    let results = measure(runners, operations: workload.operations, wallClock: workload.crossesThreads)
    let rivulet = results[0]
    let baseline = results[1]
    let openCombine = results.count > 2 ? results[2] : nil

    var targets: [String] = []
    let target = workload.target
    if target.beatsOpenCombine, let openCombine {
        targets.append("faster than OpenCombine \(verdict(rivulet.ratio(to: openCombine) < 1))")
    }
    if let ratio = target.maxBaselineRatio {
        targets.append("≤\(format(ratio))× baseline \(verdict(rivulet.ratio(to: baseline) <= ratio))")
    }
    if let allocations = target.maxAllocations {
        targets.append("≤\(format(allocations, decimals: 0)) allocs \(verdict(rivulet.allocations <= allocations))")
    }
    if let bytes = target.maxLiveBytes {
        targets.append("≤\(format(bytes, decimals: 0)) B \(verdict(rivulet.liveBytes <= bytes))")
    }
    if let note = workload.note { targets.append("(\(note))") }
    if workload.crossesThreads {
        var cpu = "process CPU ns (all threads): Rivulet \(format(rivulet.processCPU))"
        if let openCombine {
            cpu +=
                ", OpenCombine \(format(openCombine.processCPU)) (\(format(rivulet.processCPURatio(to: openCombine), decimals: 2))×)"
        }
        cpu += ", baseline \(format(baseline.processCPU)) (\(format(rivulet.processCPURatio(to: baseline), decimals: 2))×)"
        targets.append(cpu)
    }

    let notAvailable = "n/a"
    var columns: [String] = ["\(workload.number)", workload.name, workload.operation]
    columns.append(workload.crossesThreads ? "wall" : "CPU")
    columns.append(contentsOf: [format(rivulet.median), rivulet.range])
    columns.append(openCombine.map { format($0.median) } ?? notAvailable)
    columns.append(openCombine?.range ?? notAvailable)
    columns.append(contentsOf: [format(baseline.median), baseline.range])
    columns.append(openCombine.map { format(rivulet.ratio(to: $0), decimals: 2) } ?? notAvailable)
    columns.append(format(rivulet.ratio(to: baseline), decimals: 2))
    columns.append(format(rivulet.allocations, decimals: 2))
    columns.append(openCombine.map { format($0.allocations, decimals: 2) } ?? notAvailable)
    columns.append(format(rivulet.liveBytes, decimals: 0))
    columns.append(openCombine.map { format($0.liveBytes, decimals: 0) } ?? notAvailable)
    columns.append(targets.joined(separator: "; "))
    print("| " + columns.joined(separator: " | ") + " |")
}

if !coreOnly && (argument == nil || channelsOnly) {
    printChannelTable(only: argument == "channels" ? nil : argument)
}
