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

extension DispatchTimeInterval {
    /// The interval in seconds for the time-based channel operator `api`, which stops with a
    /// precondition failure naming `api` when the interval is negative (`.never` is infinite,
    /// and allowed: the operator's timer never fires).
    func channelSeconds(checkedFor api: String) -> TimeInterval {
        let seconds = channelSeconds
        precondition(seconds >= 0, "Rivulet: \(api): interval is \(self); it must be 0 or more")
        return seconds
    }

    /// Checks the interval of a repeating channel timer: positive and not `.never`, as the core's
    /// timers require; the precondition failure names `api`.
    func checkChannelTickInterval(for api: String) {
        let seconds = channelSeconds
        precondition(
            seconds > 0 && seconds.isFinite, "Rivulet: \(api): interval is \(self); it must be greater than 0 and not .never")
    }
}
