#if canImport(Testing)
import Foundation
import Rivulet
import Testing

/// A Swift Testing trait that fails a test which leaves Rivulet objects alive: signals,
/// observers, producer starts, operator stages, properties, channel nodes (`LiveObjects`).
///
/// Apply it to a suite (it reaches every test and nested suite in it) or to one test:
///
/// ```swift
/// @Suite(.checksLiveObjects) struct MyOperatorTests { ... }
/// ```
///
/// It checks only when the environment variable `RIVULET_CHECK_LIVE_OBJECTS` is `1`, and the
/// run must then be serial (`swift test --no-parallel`): the counts are global, so a test running
/// alongside would be blamed for the other's objects. A checked test that overlaps another checked
/// test is reported as such rather than checked. Otherwise the trait does nothing.
///
/// When it checks, it reads the counts before the test and, after it, waits (up to
/// `releaseDeadline`) for every kind to come back down, since objects may be freed on other
/// threads a little after the test returns; a kind still higher than before is reported as an
/// issue naming the kinds and how many. Only debug builds of Rivulet count: in a release build a
/// check reports that it cannot check. A test that keeps objects alive on purpose opts out with
/// `.keepsLiveObjects("why")`.
public struct LiveObjectsCheck: TestTrait, SuiteTrait, TestScoping {
    /// The environment variable that turns the check on when it is `1`.
    public static let environmentVariable = "RIVULET_CHECK_LIVE_OBJECTS"

    /// Whether the check is on in this process (see `environmentVariable`).
    public static var isEnabled: Bool {
        ProcessInfo.processInfo.environment[environmentVariable] == "1"
    }

    /// How long to wait after a test for its objects to be freed before calling them leaked.
    public let releaseDeadline: Duration

    /// Every test in a suite that carries the trait is checked.
    public var isRecursive: Bool { true }

    /// A check that waits up to `releaseDeadline` for a test's objects to be freed.
    ///
    /// - Parameter releaseDeadline: how long to wait after the test; 30 seconds unless given.
    public init(releaseDeadline: Duration = .seconds(30)) {
        self.releaseDeadline = releaseDeadline
    }

    /// Runs the test and, when the check is on, compares the live objects before and after it.
    ///
    /// - Parameters:
    ///   - test: the test (or suite) being run.
    ///   - testCase: the test case being run, for a test function.
    ///   - function: runs the test.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard Self.isEnabled, !test.traits.contains(where: { $0 is LiveObjectsKept }) else {
            return try await function()
        }
        guard let before = LiveObjects.current() else {
            Issue.record(
                "Rivulet: LiveObjectsCheck: this build of Rivulet does not count live objects (a release build); check a debug build"
            )
            return try await function()
        }
        let entry = Self.running.withLock { $0.enter() }
        defer { Self.running.withLock { $0.active -= 1 } }
        // A test that throws has failed already: what it left behind is not checked.
        try await function()
        let growth = await leftovers(since: before)
        let overlapped = Self.running.withLock { $0.overlapped(since: entry) }
        if overlapped {
            Issue.record(
                "Rivulet: LiveObjectsCheck: another checked test ran at the same time, so the counts are not this test's; run the check serially (swift test --no-parallel)"
            )
        } else if !growth.isEmpty {
            let kinds = LiveObjects.Kind.allCases.compactMap { kind in growth[kind].map { "\(kind) +\($0)" } }
            Issue.record(
                "Rivulet: LiveObjectsCheck: the test left live objects behind after \(releaseDeadline): \(kinds.joined(separator: ", ")) (before: \(before); after: \(LiveObjects.current().map { "\($0)" } ?? "?"))"
            )
        }
    }

    /// What is still alive beyond `before` once it stops coming down, or at the deadline.
    private func leftovers(since before: LiveObjects.Counts) async -> [LiveObjects.Kind: Int] {
        let clock = ContinuousClock()
        let deadline = clock.now + releaseDeadline
        while true {
            let growth = LiveObjects.current()?.growth(since: before) ?? [:]
            if growth.isEmpty || clock.now >= deadline { return growth }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The checked tests running now, to tell when two overlap.
    private struct Running {
        /// Checked tests running now.
        var active = 0
        /// How many times a checked test began while another ran.
        var overlaps = 0

        /// Counts in a test; returns what `overlapped(since:)` compares with.
        mutating func enter() -> (overlaps: Int, startedAlongside: Bool) {
            active += 1
            if active > 1 { overlaps += 1 }
            return (overlaps, active > 1)
        }

        /// Whether a test that entered with `entry` ran alongside another checked test.
        func overlapped(since entry: (overlaps: Int, startedAlongside: Bool)) -> Bool {
            entry.startedAlongside || overlaps != entry.overlaps
        }
    }

    private static let running = Locked(Running())
}

/// Exempts a test, or every test of a suite, from `LiveObjectsCheck`, with the reason.
///
/// For a test that keeps Rivulet objects alive on purpose, beyond its own end (a timer that lives
/// until the process exits, a cache kept in a global).
public struct LiveObjectsKept: TestTrait, SuiteTrait {
    /// Why the test keeps objects alive.
    public let reason: Comment

    /// Reaches every test of a suite that carries it.
    public var isRecursive: Bool { true }
}

extension Trait where Self == LiveObjectsCheck {
    /// Fails a test that leaves Rivulet objects alive, when the check is on
    /// (`RIVULET_CHECK_LIVE_OBJECTS=1`, serial run); see `LiveObjectsCheck`.
    public static var checksLiveObjects: Self { LiveObjectsCheck() }
}

extension Trait where Self == LiveObjectsKept {
    /// Exempts a test or suite from `LiveObjectsCheck`.
    ///
    /// - Parameter reason: why the test keeps Rivulet objects alive after it ends.
    /// - Returns: the exemption.
    public static func keepsLiveObjects(_ reason: Comment) -> Self { LiveObjectsKept(reason: reason) }
}
#endif
