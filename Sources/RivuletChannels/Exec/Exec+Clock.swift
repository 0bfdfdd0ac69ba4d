import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Exec {
    /// The scheduler that keeps time for a time-based channel operator: the context's own when it
    /// has a clock, else a shared queue scheduler (a `.direct` or `.main` context has no clock of
    /// its own, so the operator's timed deliveries come from that queue).
    var clock: any DateScheduler {
        (scheduler as? any DateScheduler) ?? Exec.sharedClock
    }

    private static let sharedClock = QueueScheduler(name: "org.rivulet.Exec.clock", targeting: .global())
}

extension DispatchTimeInterval {
    /// The interval in seconds (`.never` is infinite).
    var channelSeconds: TimeInterval {
        switch self {
        case let .seconds(count): return TimeInterval(count)
        case let .milliseconds(count): return TimeInterval(count) / 1_000
        case let .microseconds(count): return TimeInterval(count) / 1_000_000
        case let .nanoseconds(count): return TimeInterval(count) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }
}
