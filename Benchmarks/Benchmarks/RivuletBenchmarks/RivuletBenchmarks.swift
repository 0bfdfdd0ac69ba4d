import Benchmark
import Workloads

// The workloads of `compare`, under ordo-one/benchmark: `swift package benchmark` from the
// Benchmarks folder reports wall time, malloc counts and peak memory per workload and library
// (and per channel workload: RivuletChannels).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(2),
        maxIterations: 20
    )
    for workload in Workload.all {
        let implementations: [(String, Workload.Runner?)] = [
            ("Rivulet", workload.rivulet), ("OpenCombine", workload.openCombine), ("baseline", workload.baseline),
        ]
        for (library, runner) in implementations {
            guard let runner else { continue }
            Benchmark(
                "\(workload.number) \(workload.name) [\(library)]",
                configuration: .init(scalingFactor: .kilo)
            ) { benchmark in
                let run = runner()
                benchmark.startMeasurement()
                blackHole(run(benchmark.scaledIterations.count))
                benchmark.stopMeasurement()
            }
        }
    }
    // The channel workloads; their core and baseline runs are the core workloads' above.
    for workload in ChannelWorkload.all {
        Benchmark(
            "\(workload.id) \(workload.name) [channels]",
            configuration: .init(scalingFactor: .kilo)
        ) { benchmark in
            let run = workload.channels()
            benchmark.startMeasurement()
            blackHole(run(benchmark.scaledIterations.count))
            benchmark.stopMeasurement()
        }
    }
}
