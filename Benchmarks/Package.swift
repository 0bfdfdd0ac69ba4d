// swift-tools-version:6.1
import PackageDescription

// Rivulet's benchmarks: the same workloads for Rivulet, OpenCombine and plain Swift closures, and
// Rivulet's activation channels (RivuletChannels) against its core `Signal` and plain closures.
// A separate package, so that the root package keeps no dependencies.
//
// - `swift run -c release --package-path Benchmarks compare` prints one Markdown table with
//   ns, allocations and live bytes per operation, the ratios, and the targets.
// - `swift package --package-path Benchmarks --allow-writing-to-package-directory benchmark`
//   runs the same workloads under ordo-one/benchmark, with its statistics (percentiles, malloc
//   counts, peak memory).
// - `Tools/bench/compare-cmo.sh [--instructions] [N…]` builds `compare` a second time with
//   `-Xswiftc -cross-module-optimization` (into Benchmarks/.build-cmo: a dependency cannot get
//   that flag from this manifest) and prints the default and the CMO build's figures side by side.
// - `Tools/bench/instructions.sh [--cmo] [core | channels | N]` prints instructions (callgrind)
//   and allocations per operation for every side of every workload.
// Neither script runs in CI.

// The root package's identity is the name of the folder it is checked out in.
let rivuletPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "Rivulet"

let package = Package(
    name: "RivuletBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "Rivulet", package: rivuletPackage),
                .product(name: "RivuletChannels", package: rivuletPackage),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ]
        ),
        .target(name: "MemoryCounter"),
        .executableTarget(name: "compare", dependencies: ["Workloads", "MemoryCounter"]),
        .executableTarget(
            name: "RivuletBenchmarks",
            dependencies: ["Workloads", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/RivuletBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
