// swift-tools-version:6.0
import PackageDescription

// A stop-gap measurement of the delivery engine until the Benchmarks package exists:
// ns per send and mallocs per send, from a client package built in release mode.
let package = Package(
    name: "SendProbe",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Rivulet", path: "../..")],
    targets: [
        .target(name: "MallocCounter"),
        .executableTarget(
            name: "SendProbe",
            dependencies: [
                "MallocCounter", .product(name: "Rivulet", package: "Rivulet"),
                .product(name: "RivuletChannels", package: "Rivulet"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
