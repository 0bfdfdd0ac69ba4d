import Workloads

// The channel workloads (RivuletChannels) against the same workloads on Rivulet's core `Signal`
// and on plain closures, in a second table.

/// Prints the channel table; `only` keeps one workload ("C1"…"C6").
func printChannelTable(only: String?) {
    print()
    print("Activation channels (RivuletChannels) against the core `Signal` of the same shape.")
    print()
    print(
        "| # | workload | per | channels ns | channels min–max | core ns | core min–max | baseline ns | baseline min–max | channels/core | channels/baseline | channels allocs | core allocs | targets |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for workload in ChannelWorkload.all where only == nil || only == workload.id {
        let results = measure(
            [workload.channels, workload.core.rivulet, workload.core.baseline], operations: workload.operations,
            wallClock: workload.core.crossesThreads)
        let (channels, core, baseline) = (results[0], results[1], results[2])

        let ratio = channels.ratio(to: core)
        var targets: [String] = []
        if let maxRatio = workload.maxCoreRatio {
            targets.append("≤\(format(maxRatio))× core \(verdict(ratio <= maxRatio))")
        }
        if let allocations = workload.maxAllocations {
            targets.append("≤\(format(allocations, decimals: 0)) allocs \(verdict(channels.allocations <= allocations))")
        } else {
            targets.append("allocs ≤ core's \(verdict(channels.allocations <= core.allocations))")
        }
        if let note = workload.note { targets.append("(\(note))") }

        let columns: [String] = [
            workload.id, workload.name, workload.operation,
            format(channels.median), channels.range, format(core.median), core.range,
            format(baseline.median), baseline.range,
            format(ratio, decimals: 2), format(channels.ratio(to: baseline), decimals: 2),
            format(channels.allocations, decimals: 2), format(core.allocations, decimals: 2),
            targets.joined(separator: "; "),
        ]
        print("| " + columns.joined(separator: " | ") + " |")
    }
}
