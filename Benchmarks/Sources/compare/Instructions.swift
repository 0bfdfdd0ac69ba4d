import Foundation
import Workloads

// Instruction counts per operation, from valgrind's callgrind, which counts deterministically:
// `compare --instructions` runs this binary under callgrind once per workload side in the
// single-run mode (`compare --once ID SIDE COUNT`), with a count n and with 2n, and divides the
// difference of the two totals by n, so that process start-up and the workload's set-up cancel.
// Beside the counts, each row has the allocations per operation of each side, counted in this
// process (not under callgrind) with the same counter and the same rule as the timed table: the
// fewest of three runs of the workload's full operation count.

/// The sides of a core workload, by the names `--once` takes.
let coreSides = ["rivulet", "opencombine", "baseline"]
/// The sides of a channel workload, by the names `--once` takes.
let channelSides = ["channels", "core", "baseline"]

/// The runner of one side of a workload ("1"…"11", "C1"…"C6"), or `nil` if there is none.
func runner(workload id: String, side: String) -> Workload.Runner? {
    var sides: [String: Workload.Runner] = [:]
    if let number = Int(id), let workload = Workload.all.first(where: { $0.number == number }) {
        sides = ["rivulet": workload.rivulet, "baseline": workload.baseline]
        sides["opencombine"] = workload.openCombine
    } else if let workload = ChannelWorkload.all.first(where: { $0.id == id }) {
        sides = ["channels": workload.channels, "core": workload.core.rivulet, "baseline": workload.core.baseline]
    }
    return sides[side]
}

/// `compare --once ID SIDE COUNT`: prepares that side and runs it once for COUNT operations,
/// without warm-up or timing (what callgrind runs), then exits.
func runOnce(_ arguments: [String]) -> Never {
    guard arguments.count == 3, let count = Int(arguments[2]), count > 0,
        let runner = runner(workload: arguments[0], side: arguments[1])
    else {
        print("usage: compare --once WORKLOAD SIDE COUNT (SIDE: \((coreSides + channelSides).joined(separator: ", ")))")
        exit(2)
    }
    let run = runner()
    let checksum = run(count)
    if checksum == 42 { print("(checksum)") } // consumes the result
    // Exits with the workload's state alive: its teardown is not timed in the table either, and
    // for the memory workload it would grow with the count.
    withExtendedLifetime(run) { exit(0) }
}

/// The binary callgrind runs: this one, or, where valgrind cannot read its debug information, a
/// copy stripped of it (`compare.callgrind` next to it; symbols stay, so profiles keep names).
func callgrindBinary() -> String? {
    guard let binary = Bundle.main.executablePath else { return nil }
    if ProcessInfo.processInfo.environment["RIVULET_BENCH_NO_STRIP"] != nil { return binary }
    let stripped = binary + ".callgrind"
    guard shell(["strip", "--strip-debug", "-o", stripped, binary]) == 0 else { return binary }
    return stripped
}

/// Runs a command (looked up in PATH) with its output discarded; its exit status.
@discardableResult
func shell(_ command: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = command
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        return -1
    }
    process.waitUntilExit()
    return process.terminationStatus
}

/// Total instructions callgrind counts for one run of one side, or `nil` if the run failed.
func instructions(binary: String, workload: String, side: String, count: Int, directory: String) -> Double? {
    let output = "\(directory)/\(workload)-\(side)-\(count).out"
    let status = shell([
        "valgrind", "--tool=callgrind", "--callgrind-out-file=\(output)", binary, "--once", workload, side, "\(count)",
    ])
    guard status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
        if let total = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { return total }
    }
    return nil
}

/// Instructions per operation of one side: (total at 2n − total at n) / n.
func instructionsPerOperation(binary: String, workload: String, side: String, count: Int, directory: String)
    -> Double?
{
    guard let one = instructions(binary: binary, workload: workload, side: side, count: count, directory: directory),
        let two = instructions(binary: binary, workload: workload, side: side, count: 2 * count, directory: directory)
    else { return nil }
    return (two - one) / Double(count)
}

/// The count n for a workload: a hundredth of its timed operations (callgrind runs some 50 times
/// slower), a multiple of 100 so that fan-out's sends (100 deliveries each) divide it.
func callgrindCount(operations: Int) -> Int {
    max(operations / 100 / 100, 1) * 100
}

/// The allocations-per-operation cell of one side, or "n/a" where the side does not exist.
func allocationsCell(_ runner: Workload.Runner?, operations: Int) -> String {
    guard let runner else { return "n/a" }
    return format(allocationsPerOperation(runner, operations: operations), decimals: 2)
}

/// `compare --instructions [N | core | channels | CN]`: the callgrind table(s), filtered like the timed ones.
func printInstructionTables(filter argument: String?) -> Int32 {
    guard shell(["valgrind", "--version"]) == 0 else {
        print("compare --instructions: valgrind is not on PATH")
        return 1
    }
    guard let binary = callgrindBinary() else {
        print("compare --instructions: cannot find this binary")
        return 1
    }
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("rivulet-callgrind-\(ProcessInfo.processInfo.processIdentifier)").path
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }

    let channelsOnly = argument == "channels" || argument?.hasPrefix("C") == true
    let coreOnly = argument == "core"
    let number = argument.flatMap(Int.init)
    func cell(_ value: Double?) -> String { value.map { format($0, decimals: 0) } ?? "n/a" }
    func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
        guard let numerator, let denominator, denominator > 0 else { return "n/a" }
        return format(numerator / denominator, decimals: 2)
    }

    print(
        "Instructions per operation (callgrind; each side run alone with n and 2n operations, the difference over n); "
            + "allocations per operation (malloc, calloc, realloc; counted in this process, not under callgrind: "
            + "the fewest of three runs of the timed table's operation count)."
    )
    if !channelsOnly {
        print()
        print(
            "| # | workload | per | n | Rivulet instr | OpenCombine instr | baseline instr | Rivulet/OpenCombine | Rivulet/baseline | Rivulet allocs | OpenCombine allocs | baseline allocs |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for workload in Workload.all where number == nil || number == workload.number {
            let count = callgrindCount(operations: workload.operations)
            let counts = coreSides.map { side in
                side == "opencombine" && workload.openCombine == nil
                    ? nil
                    : instructionsPerOperation(
                        binary: binary, workload: "\(workload.number)", side: side, count: count, directory: directory)
            }
            let runners: [Workload.Runner?] = [workload.rivulet, workload.openCombine, workload.baseline]
            let allocations = runners.map { allocationsCell($0, operations: workload.operations) }
            let columns =
                [
                    "\(workload.number)", workload.name, workload.operation, "\(count)",
                    cell(counts[0]), cell(counts[1]), cell(counts[2]),
                    ratio(counts[0], counts[1]), ratio(counts[0], counts[2]),
                ] + allocations
            print("| " + columns.joined(separator: " | ") + " |")
        }
    }
    if !coreOnly && (argument == nil || channelsOnly) {
        let only = argument == "channels" ? nil : argument
        print()
        print(
            "| # | workload | per | n | channels instr | core instr | baseline instr | channels/core | channels/baseline | channels allocs | core allocs | baseline allocs |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for workload in ChannelWorkload.all where only == nil || only == workload.id {
            let count = callgrindCount(operations: workload.operations)
            let counts = channelSides.map { side in
                instructionsPerOperation(binary: binary, workload: workload.id, side: side, count: count, directory: directory)
            }
            let runners: [Workload.Runner?] = [workload.channels, workload.core.rivulet, workload.core.baseline]
            let allocations = runners.map { allocationsCell($0, operations: workload.operations) }
            let columns =
                [
                    workload.id, workload.name, workload.operation, "\(count)",
                    cell(counts[0]), cell(counts[1]), cell(counts[2]),
                    ratio(counts[0], counts[1]), ratio(counts[0], counts[2]),
                ] + allocations
            print("| " + columns.joined(separator: " | ") + " |")
        }
    }
    return 0
}
