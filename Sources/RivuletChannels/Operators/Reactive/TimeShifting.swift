#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

extension Channel {
    /// A channel that sends a value only once `interval` has passed without a newer one (the
    /// core's `debounce`); an end is sent at once, dropping a waiting value unless
    /// `flushOnClose`.
    ///
    /// - Parameters:
    ///   - interval: The quiet period; with `.never`, no value is ever sent.
    ///   - flushOnClose: Whether a value still waiting when the channel completes is sent first.
    ///   - context: Whose clock counts, and where values are sent from.
    /// - Returns: The debounced channel.
    /// - Precondition: `interval` is 0 or more.
    public func debounce(interval: DispatchTimeInterval, flushOnClose: Bool = false, context: Exec = .direct)
        -> Channel<Value> where Value: Sendable
    {
        let seconds = interval.channelSeconds(checkedFor: "Channel.debounce(interval:flushOnClose:context:)")
        return Channel(producer.debounce(seconds, on: context.clock, discardWhenCompleted: !flushOnClose))
    }

    /// A channel of this channel's values, each sent `interval` later (the core's `delay`);
    /// a failure is sent at once (E2).
    ///
    /// - Parameters:
    ///   - interval: How much later; with `.never`, no value is ever sent.
    ///   - context: Whose clock counts, and where values are sent from.
    /// - Returns: The delayed channel.
    /// - Precondition: `interval` is 0 or more.
    public func delay(interval: DispatchTimeInterval, context: Exec = .direct) -> Channel<Value> where Value: Sendable {
        let seconds = interval.channelSeconds(checkedFor: "Channel.delay(interval:context:)")
        return Channel(producer.delay(seconds, on: context.clock))
    }

    /// A channel that sends at most one value per `interval`: the latest one at the end of each
    /// interval (the core's `throttle`).
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two values.
    ///   - context: Whose clock counts, and where values are sent from.
    /// - Returns: The throttled channel.
    /// - Precondition: `interval` is 0 or more.
    public func throttle(interval: DispatchTimeInterval, context: Exec = .direct) -> Channel<Value> where Value: Sendable {
        let seconds = interval.channelSeconds(checkedFor: "Channel.throttle(interval:context:)")
        return Channel(producer.throttle(seconds, on: context.clock))
    }

    /// A channel of arrays of `count` values (the last one shorter, sent at completion) (the
    /// core's `collect(count:)`).
    ///
    /// - Parameter count: The number of values per array.
    /// - Returns: The buffering channel.
    /// - Precondition: `count` is greater than 0.
    public func buffer(count: Int) -> Channel<[Value]> where Value: Sendable {
        precondition(count > 0, "Rivulet: Channel.buffer(count:): count is \(count); it must be greater than 0")
        return Channel<[Value]>(producer.collect(count: count))
    }
}

extension Channel where Value == Int {
    /// A channel that, once activated, sends 0, 1, 2… every `interval` (the core's timer).
    ///
    /// - Parameters:
    ///   - interval: The time between two values.
    ///   - context: Whose clock counts, and where values are sent from.
    /// - Returns: The counting channel.
    /// - Precondition: `interval` is greater than 0 and not `.never`.
    public static func interval(_ interval: DispatchTimeInterval, context: Exec = .global) -> Channel<Int> where Value: Sendable {
        interval.checkChannelTickInterval(for: "Channel.interval(_:context:)")
        return Channel(
            SignalProducer<Date, Never>.timer(interval: interval, on: context.clock)
                .scan(-1) { count, _ in count + 1 })
    }
}
