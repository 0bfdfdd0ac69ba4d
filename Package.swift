// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Rivulet",
    // Swift concurrency's floor. Rivulet's atomics are the compiler's builtins (see
    // Engine/Serialization/AtomicWord.swift) rather than `Synchronization.Atomic`, which would need
    // macOS 15 and its siblings.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Rivulet", targets: ["Rivulet"]),
        .library(name: "RivuletChannels", targets: ["RivuletChannels"]),
        .library(name: "RivuletContracts", targets: ["RivuletContracts"]),
        .executable(name: "RivuletTour", targets: ["RivuletTour"]),
    ],
    targets: [
        // `BuiltinModule`: the atomics' `import Builtin` (as swift-atomics does; see AtomicWord.swift).
        // `RIVULET_TRACKS_LIVE_OBJECTS`: debug builds count live objects (`LiveObjects`); release
        // builds compile none of it.
        .target(
            name: "Rivulet",
            swiftSettings: [
                .enableExperimentalFeature("BuiltinModule"),
                .define("RIVULET_TRACKS_LIVE_OBJECTS", .when(configuration: .debug)),
            ]
        ),
        .target(name: "RivuletChannels", dependencies: ["Rivulet"]),
        .target(name: "RivuletContracts", dependencies: ["Rivulet", "RivuletChannels"]),
        .executableTarget(name: "RivuletTour", dependencies: ["Rivulet", "RivuletChannels"]),
        // `RivuletContracts`: the suites' `.checksLiveObjects` trait.
        .testTarget(name: "RivuletTests", dependencies: ["Rivulet", "RivuletContracts"]),
        // ReactiveSwift users compile in the Swift 5 language mode: code written for ReactiveSwift
        // must compile here as it is, and behave the same.
        .testTarget(
            name: "RivuletSourceCompatibilityTests",
            dependencies: ["Rivulet"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(name: "RivuletChannelsTests", dependencies: ["RivuletChannels", "RivuletContracts"]),
        .testTarget(name: "RivuletContractsTests", dependencies: ["RivuletContracts"]),
    ],
    swiftLanguageModes: [.v6]
)
