/// One benchmark workload, written three times: with Rivulet, with OpenCombine, and with plain
/// Swift closures (the physical limit: the same arithmetic, with direct calls).
///
/// Each implementation is a `Runner`: it sets up (untimed) and returns the loop to time, which
/// performs `operations` operations and returns a checksum of every result, so that nothing can be
/// optimised away.
public struct Workload: Sendable {
    public typealias Runner = @Sendable () -> (_ operations: Int) -> Int

    /// The number for it (1–10), or 0 for an extra workload.
    public let number: Int
    public let name: String
    /// What one operation is ("send", "delivery", "start", …).
    public let operation: String
    /// How many operations a timed run performs.
    public let operations: Int
    public let rivulet: Runner
    /// `nil` where OpenCombine 0.14 has no equivalent (said in `note`).
    public let openCombine: Runner?
    public let baseline: Runner
    public let target: Target
    public let note: String?
    /// Whether the work runs on other threads too (a queue, the cooperative pool), so that
    /// `compare` times it on the wall clock; every other workload is timed in the CPU time of the
    /// thread that runs it.
    public let crossesThreads: Bool

    /// The goals the issue sets for Rivulet on this workload.
    public struct Target: Sendable {
        /// Rivulet's time at most this many times the baseline's.
        public var maxBaselineRatio: Double?
        /// Rivulet's allocations per operation at most this.
        public var maxAllocations: Double?
        /// Bytes still allocated per operation afterwards at most this (for the memory workload).
        public var maxLiveBytes: Double?
        /// Rivulet faster than OpenCombine.
        public var beatsOpenCombine = true

        public init(
            maxBaselineRatio: Double? = nil, maxAllocations: Double? = nil, maxLiveBytes: Double? = nil,
            beatsOpenCombine: Bool = true
        ) {
            self.maxBaselineRatio = maxBaselineRatio
            self.maxAllocations = maxAllocations
            self.maxLiveBytes = maxLiveBytes
            self.beatsOpenCombine = beatsOpenCombine
        }
    }

    public init(
        number: Int, name: String, operation: String, operations: Int, target: Target, note: String? = nil,
        crossesThreads: Bool = false, rivulet: @escaping Runner, openCombine: Runner?, baseline: @escaping Runner
    ) {
        self.number = number
        self.name = name
        self.operation = operation
        self.operations = operations
        self.target = target
        self.note = note
        self.crossesThreads = crossesThreads
        self.rivulet = rivulet
        self.openCombine = openCombine
        self.baseline = baseline
    }
}

/// Where observers put what they receive. Only the thread running a workload touches it (the
/// cross-thread workload uses its own synchronisation).
///
/// @unchecked Sendable: that one thread is the whole argument; observers that capture a sink run
/// on it, synchronously, and the workload reads `total` after its sends have returned.
public final class Sink: @unchecked Sendable {
    // No runtime exclusivity checks: they would add the same few nanoseconds to every side of a
    // workload and so flatter the ratios against the baseline.
    @exclusivity(unchecked) public var total = 0
    public init() {}
}

/// The eight alternating map/filter stages of the chain workload, as plain functions (every
/// filter passes for non-negative input).
@inlinable public func stage1(_ value: Int) -> Int { value &+ 1 }
@inlinable public func stage2(_ value: Int) -> Bool { value >= 0 }
@inlinable public func stage3(_ value: Int) -> Int { value &* 3 }
@inlinable public func stage4(_ value: Int) -> Bool { value != -7 }
@inlinable public func stage5(_ value: Int) -> Int { value &- 2 }
@inlinable public func stage6(_ value: Int) -> Bool { value >= 0 }
@inlinable public func stage7(_ value: Int) -> Int { value &+ 5 }
@inlinable public func stage8(_ value: Int) -> Bool { value != -7 }
