// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Rivulet",
    // Rivulet's internal lock needs `Synchronization.Atomic` (macOS 15 and its siblings).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Rivulet", targets: ["Rivulet"]),
        .library(name: "RivuletChannels", targets: ["RivuletChannels"]),
        .library(name: "RivuletContracts", targets: ["RivuletContracts"]),
        .executable(name: "RivuletTour", targets: ["RivuletTour"]),
    ],
    targets: [
        // `BuiltinModule`: the atomics' `import Builtin` (as swift-atomics does; see AtomicWord.swift).
        .target(name: "Rivulet", swiftSettings: [.enableExperimentalFeature("BuiltinModule")]),
        .target(name: "RivuletChannels", dependencies: ["Rivulet"]),
        .target(name: "RivuletContracts", dependencies: ["Rivulet", "RivuletChannels"]),
        .executableTarget(name: "RivuletTour", dependencies: ["Rivulet", "RivuletChannels"]),
        .testTarget(name: "RivuletTests", dependencies: ["Rivulet"]),
        // ReactiveSwift users compile in the Swift 5 language mode: code written for ReactiveSwift
        // must compile here as it is, and behave the same.
        .testTarget(
            name: "RivuletSourceCompatibilityTests",
            dependencies: ["Rivulet"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(name: "RivuletChannelsTests", dependencies: ["RivuletChannels"]),
        .testTarget(name: "RivuletContractsTests", dependencies: ["RivuletContracts"]),
    ],
    swiftLanguageModes: [.v6]
)
