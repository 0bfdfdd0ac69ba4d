#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: State machine

/// The state of one start of `retry(upTo:interval:on:)`.
struct RetryIntervalState {
    /// What the driver must do after an attempt's failure.
    enum Decision: Equatable {
        /// Wait, then start the next attempt.
        case retryLater
        /// Forward the failure: no retry is left.
        case giveUp
    }

    private(set) var retriesLeft: Int
    /// Numbers the attempts, so that events from a finished attempt are ignored.
    private(set) var attempt = 0

    init(retries: Int) {
        retriesLeft = retries
    }

    mutating func attemptFailed() -> Decision {
        guard retriesLeft > 0 else { return .giveUp }
        retriesLeft -= 1
        return .retryLater
    }

    /// A new attempt begins; returns its number.
    mutating func beginAttempt() -> Int {
        attempt += 1
        return attempt
    }
}

/// An input of one start of `retry(upTo:interval:on:)`.
enum RetryIntervalInput<Value, Error: Swift.Error> {
    /// An event of the attempt with this number.
    case event(attempt: Int, Signal<Value, Error>.Event)
    /// Time to start an attempt.
    case start
}

// MARK: Operator

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
    public func retry(upTo count: Int, interval: TimeInterval, on scheduler: DateScheduler) -> SignalProducer<Value, Error> {
        precondition(count >= 0, "Rivulet: retry(upTo:interval:on:) needs a non-negative count, got \(count)")
        precondition(interval >= 0, "Rivulet: retry(upTo:interval:on:) needs a non-negative interval, got \(interval)")
        guard count > 0 else { return self }
        return .fused({ downstream, lifetime in
            var state = RetryIntervalState(retries: count)
            // The running attempt's resources, replaced (and so disposed of) by the next attempt.
            let currentAttempt = SerialDisposable()
            lifetime += currentAttempt
            let pendingRetry = SerialDisposable()
            lifetime += pendingRetry
            var inboxReference: SerialInbox<RetryIntervalInput<Value, Error>>?
            let inbox = SerialInbox<RetryIntervalInput<Value, Error>> { input in
                guard let inbox = inboxReference else { return }
                switch input {
                case .start:
                    guard !lifetime.hasEnded else { return }
                    let number = state.beginAttempt()
                    let resources = CompositeDisposable()
                    currentAttempt.inner = resources
                    self.startInstance({ event in inbox.send(.event(attempt: number, event)) }, Lifetime(resources))
                case let .event(number, event):
                    guard number == state.attempt else { return }
                    switch event {
                    case .value:
                        downstream(event)
                    case .failed where state.attemptFailed() == .retryLater:
                        currentAttempt.inner = nil
                        pendingRetry.inner = scheduler.schedule(after: scheduler.currentDate.addingTimeInterval(interval)) {
                            inbox.send(.start)
                        }
                    case .failed, .completed, .interrupted:
                        inboxReference = nil
                        inbox.close()
                        downstream(event)
                    }
                }
            }
            inboxReference = inbox
            lifetime.observeEnded { inbox.close() }
            inbox.send(.start)
        })
    }
}
