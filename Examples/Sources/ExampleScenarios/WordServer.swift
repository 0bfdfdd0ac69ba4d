import Foundation
import Rivulet

/// A stand-in for a search service on the network: it answers a query with the words that start
/// with it, after a delay, on a scheduler.
///
/// `search(_:)` shows how an asynchronous request becomes a `SignalProducer`: nothing happens
/// until the producer is started; each start schedules its own answer; and disposing of a start
/// (as `flatMap(.latest)` does when a newer query arrives) cancels the scheduled answer.
public struct WordServer: Sendable {
    /// The words the server knows.
    public let words: [String]

    /// The scheduler the answers arrive on, and whose clock measures the delays.
    public let scheduler: DateScheduler

    /// How long the server takes to answer a query, in seconds.
    public let latency: @Sendable (String) -> TimeInterval

    /// A server that knows `words` and answers on `scheduler` after `latency(query)` seconds.
    public init(words: [String], scheduler: DateScheduler, latency: @escaping @Sendable (String) -> TimeInterval) {
        self.words = words
        self.scheduler = scheduler
        self.latency = latency
    }

    /// A request for the words that start with `query`: each start sends one answer after the
    /// server's latency, then completes.
    public func search(_ query: String) -> SignalProducer<[String], Never> {
        SignalProducer { [words, scheduler, latency] observer, lifetime in
            let matches = words.filter { $0.hasPrefix(query) }
            let answerDate = scheduler.currentDate.addingTimeInterval(latency(query))
            // Ending the start's lifetime (disposing of it) disposes of the scheduled answer.
            lifetime += scheduler.schedule(after: answerDate) {
                observer.send(value: matches)
                observer.sendCompleted()
            }
        }
    }
}
