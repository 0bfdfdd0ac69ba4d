// swift-tools-version:6.0
import PackageDescription

// Rivulet's examples: the three scenarios people reach for a reactive library for, each as a small
// library type (ExampleScenarios), a program that runs it and prints what happens, and its tests.
// A separate package, so that the root package's products stay the library's own.
//
// - `swift run --package-path Examples enabled-control`: a control enabled by two pieces of state.
// - `swift run --package-path Examples shared-store`: a thread-safe store observed by many readers.
// - `swift run --package-path Examples latest-request`: a request with a timeout; the latest wins.
// - `swift test --package-path Examples`: the scenarios' tests.

// The root package's identity is the name of the folder it is checked out in.
let rivuletPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "Rivulet"
let rivulet = Target.Dependency.product(name: "Rivulet", package: rivuletPackage)

let package = Package(
    name: "RivuletExamples",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "ExampleScenarios", dependencies: [rivulet]),
        .executableTarget(name: "enabled-control", dependencies: ["ExampleScenarios", rivulet]),
        .executableTarget(name: "shared-store", dependencies: ["ExampleScenarios", rivulet]),
        .executableTarget(name: "latest-request", dependencies: ["ExampleScenarios", rivulet]),
        .testTarget(name: "ExampleScenariosTests", dependencies: ["ExampleScenarios", rivulet]),
    ],
    swiftLanguageModes: [.v6]
)
