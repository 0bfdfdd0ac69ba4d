import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Conversions between `DispatchTimeInterval`, `TimeInterval` and `Date`, shared by the schedulers
// and the time-based operators.
//
// `.never` has one meaning everywhere: an interval longer than any other. As seconds it is
// `.infinity`; added to a date it gives `Date.distantFuture`; as nanoseconds it is `nil`.
// Repeating schedules reject it (see `DispatchTimeInterval.checkedRepeatInterval`).
//
// The cases are matched with `if case` rather than an exhaustive `switch`: the enum is frozen on
// Linux but not in Apple's SDKs, where a `switch` would need an `@unknown default` that Linux
// reports as unreachable.

extension DispatchTimeInterval {
    /// The interval in seconds; `.infinity` for `.never`.
    var timeInterval: TimeInterval {
        if case let .seconds(count) = self { return TimeInterval(count) }
        if case let .milliseconds(count) = self { return TimeInterval(count) / 1_000 }
        if case let .microseconds(count) = self { return TimeInterval(count) / 1_000_000 }
        if case let .nanoseconds(count) = self { return TimeInterval(count) / 1_000_000_000 }
        return .infinity
    }

    /// The interval in whole nanoseconds, saturating at the bounds of `Int64`; `nil` for `.never`.
    var nanosecondCount: Int64? {
        if case let .seconds(count) = self { return Int64(count).saturatingMultiplied(by: 1_000_000_000) }
        if case let .milliseconds(count) = self { return Int64(count).saturatingMultiplied(by: 1_000_000) }
        if case let .microseconds(count) = self { return Int64(count).saturatingMultiplied(by: 1_000) }
        if case let .nanoseconds(count) = self { return Int64(count) }
        return nil
    }

    /// Whether this is `.never`.
    var isNever: Bool { nanosecondCount == nil }

    /// The interval closest to `seconds`, with nanosecond resolution.
    ///
    /// `.infinity` gives `.never`; other values beyond the range of `Int` nanoseconds saturate.
    /// `seconds` must not be NaN.
    init(seconds: TimeInterval) {
        precondition(!seconds.isNaN, "Rivulet: a time interval in seconds: seconds is \(seconds); it must not be NaN")
        if seconds == .infinity {
            self = .never
            return
        }
        let nanoseconds = (seconds * 1_000_000_000).rounded()
        if nanoseconds >= TimeInterval(Int.max) {
            self = .nanoseconds(.max)
        } else if nanoseconds <= TimeInterval(Int.min) {
            self = .nanoseconds(.min)
        } else {
            self = .nanoseconds(Int(nanoseconds))
        }
    }

    /// The interval scaled by `factor`, in nanoseconds; `.never` stays `.never`.
    ///
    /// Used for the default leeway of repeating schedules (10% of the interval).
    static func * (lhs: DispatchTimeInterval, rhs: Double) -> DispatchTimeInterval {
        guard let nanoseconds = lhs.nanosecondCount else { return .never }
        return DispatchTimeInterval(seconds: TimeInterval(nanoseconds) * rhs / 1_000_000_000)
    }

    /// Validates the interval of a repeating schedule and returns it in nanoseconds.
    ///
    /// A repeating schedule needs a positive, finite interval: `.never` would never repeat and a
    /// zero or negative interval would repeat without end at one instant. Both are programming
    /// errors and stop with a precondition failure naming `caller`.
    func checkedRepeatInterval(for caller: String) -> Int64 {
        guard let nanoseconds = nanosecondCount else {
            preconditionFailure(
                "Rivulet: \(caller): interval is .never; it must be greater than 0 and not .never, schedule a single action instead"
            )
        }
        precondition(nanoseconds > 0, "Rivulet: \(caller): interval is \(self); it must be greater than 0 and not .never")
        return nanoseconds
    }
}

extension Int64 {
    /// `self * factor`, clamped to `Int64.min ... Int64.max`.
    func saturatingMultiplied(by factor: Int64) -> Int64 {
        let (result, overflow) = multipliedReportingOverflow(by: factor)
        guard overflow else { return result }
        return (self < 0) == (factor < 0) ? .max : .min
    }

    /// `self + other`, clamped to `Int64.min ... Int64.max`.
    func saturatingAdding(_ other: Int64) -> Int64 {
        let (result, overflow) = addingReportingOverflow(other)
        guard overflow else { return result }
        return other < 0 ? .min : .max
    }
}

extension Date {
    /// The date `interval` after this one; `Date.distantFuture` for `.never`.
    func addingTimeInterval(_ interval: DispatchTimeInterval) -> Date {
        interval.isNever ? .distantFuture : addingTimeInterval(interval.timeInterval)
    }

    /// The date `interval` after `date`; `Date.distantFuture` for `.never`.
    static func + (date: Date, interval: DispatchTimeInterval) -> Date {
        date.addingTimeInterval(interval)
    }

    /// The date `interval` before `date`; `Date.distantPast` for `.never`.
    static func - (date: Date, interval: DispatchTimeInterval) -> Date {
        interval.isNever ? .distantPast : date.addingTimeInterval(-interval.timeInterval)
    }
}

extension DispatchWallTime {
    /// The wall-clock deadline for `date`.
    ///
    /// Dates up to 1970 give "now" (dispatch reads a zero time as a special value, not as a past
    /// deadline); dates too far ahead for the wall clock give `DispatchWallTime.distantFuture`.
    init(date: Date) {
        let seconds = date.timeIntervalSince1970
        if seconds <= 1 {
            self = .now()
        } else if seconds >= 9_000_000_000 {
            // Beyond what dispatch can count in nanoseconds since 1970 (about the year 2262).
            self = .distantFuture
        } else {
            let whole = seconds.rounded(.down)
            let nanoseconds = min(((seconds - whole) * 1_000_000_000).rounded(.up), 999_999_999)
            self.init(timespec: timespec(tv_sec: Int(whole), tv_nsec: Int(nanoseconds)))
        }
    }
}
