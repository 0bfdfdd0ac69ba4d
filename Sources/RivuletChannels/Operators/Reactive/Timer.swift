#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

extension Channel {
    /// A channel that, once activated, waits `interval`, sends `value` and completes. With no
    /// value it only completes, except on a `Channel<Void>`, where it sends `()`. Each
    /// activation starts the count afresh.
    ///
    /// - Parameters:
    ///   - interval: How long to wait after activation; with `.never`, the channel never sends.
    ///   - value: The value to send.
    ///   - context: Whose clock counts, and where the value is sent from.
    /// - Returns: The timer channel.
    /// - Precondition: `interval` is 0 or more.
    public static func timer(interval: DispatchTimeInterval, value: Value? = nil, context: Exec = .global) -> Channel<Value>
    where Value: Sendable {
        let seconds = interval.channelSeconds(checkedFor: "Channel.timer(interval:value:context:)")
        let clock = context.clock
        let payload = UncheckedSendable(value ?? (() as? Value))
        return Channel(
            SignalProducer<Value, Never> { observer, lifetime in
                let sink = UncheckedSendable(observer)
                lifetime += clock.schedule(after: clock.currentDate.addingTimeInterval(seconds)) {
                    if let value = payload.value { sink.value.send(value: value) }
                    sink.value.sendCompleted()
                }
            })
    }

    /// A channel of this channel's results that ends with
    /// `.other(ChannelReactiveError.timeout)` when `interval` passes without a value (counted
    /// from activation, and again from each value when `resetOnValue`).
    ///
    /// - Parameters:
    ///   - interval: The longest wait; with `.never`, the channel never times out.
    ///   - resetOnValue: Whether each value restarts the count.
    ///   - context: Whose clock counts.
    /// - Returns: The channel with a timeout.
    /// - Precondition: `interval` is 0 or more.
    public func timeout(interval: DispatchTimeInterval, resetOnValue: Bool = true, context: Exec = .direct)
        -> Channel<Value> where Value: Sendable
    {
        let seconds = interval.channelSeconds(checkedFor: "Channel.timeout(interval:resetOnValue:context:)")
        let clock = context.clock
        let upstream = self
        return Channel(
            SignalProducer<Value, ChannelEnd> { observer, lifetime in
                let sink = UncheckedSendable(observer)
                let timer = SerialDisposable()
                let arm: @Sendable () -> Void = {
                    timer.inner = clock.schedule(after: clock.currentDate.addingTimeInterval(seconds)) {
                        sink.value.send(error: .other(ChannelReactiveError.timeout))
                    }
                }
                arm()
                let output = upstream.subscribe { result in
                    switch result {
                    case let .success(value):
                        observer.send(value: value)
                        if resetOnValue { arm() }
                    case .failure(.complete):
                        observer.sendCompleted()
                    case let .failure(end):
                        observer.send(error: end)
                    }
                }
                lifetime += timer
                lifetime += output
            })
    }
}
