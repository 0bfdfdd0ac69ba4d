#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SignalProducer {
    /// A producer that, when a start fails, waits `interval` seconds and starts this producer
    /// again, up to `count` times; the failure after the last retry is forwarded.
    ///
    /// Values of failed attempts are forwarded as they come. Each start of the result counts its
    /// own retries. Interruption and completion end the start as usual.
    ///
    /// - Parameters:
    ///   - count: The number of retries; not negative (precondition). With 0 this is `self`.
    ///   - interval: The wait before each retry, in seconds; not negative (precondition).
    ///   - scheduler: The clock, and where retries start.
    /// - Returns: A producer whose starts send the values of every attempt, and end with the first
    ///   completion or interruption, or with the failure of the last attempt.
    /// - Precondition: `count` is 0 or more, and `interval` is 0 or more.
    public func retry(upTo count: Int, interval: TimeInterval, on scheduler: DateScheduler) -> SignalProducer<Value, Error>
    where Value: Sendable {
        precondition(count >= 0, "Rivulet: retry(upTo:interval:on:): count is \(count); it must be 0 or more")
        precondition(interval >= 0, "Rivulet: retry(upTo:interval:on:): interval is \(interval); it must be 0 or more")
        guard count > 0 else { return self }
        // Built from `retry(upTo:)` (O2): a failure that will be retried is held back for
        // `interval` on the scheduler, then passed on, and `retry(upTo:)` starts the next attempt
        // from there; the last failure passes at once.
        return .fused({ downstream, lifetime in
            // Per start (P2); attempts run one after another, so the count is touched serially.
            let retriesLeft = Locked(count)
            self.flatMapError { error -> SignalProducer<Value, Error> in
                let retry = retriesLeft.withLock { left in
                    defer { left -= 1 }
                    return left > 0
                }
                guard retry else { return SignalProducer(error: error) }
                return SignalProducer<Value, Error>.empty.delay(interval, on: scheduler).concat(error: error)
            }
            .retry(upTo: count)
            .startInstance(downstream, lifetime)
        })
    }
}
