import Foundation
import Rivulet

/// Search as you type: every query the user types starts a request, only the latest query's
/// answer is shown, and a request that takes too long ends with a timeout error.
///
/// Two operators carry the rules:
/// - `flatMap(.latest)` starts a request for each query and, when a newer query arrives, disposes
///   of the request still running, so an old answer can never arrive after a newer one.
/// - `timeout(after:raising:on:)` fails a request that has not finished in time.
///
/// A failed request must not end the whole search, so each request's outcome is turned into a
/// value (`materializeResults`) before the requests are flattened: `answers` never fails.
///
/// The scheduler is a parameter: the app passes a `QueueScheduler` (real time), the tests a
/// `TestScheduler` (virtual time, moved forward by the test), and the code is the same.
public final class SearchAsYouType: Sendable {
    /// A request's answer: the query and the words found for it.
    public struct Answer: Equatable, Sendable {
        /// The query the answer is for.
        public var query: String
        /// The words found.
        public var matches: [String]

        /// An answer to `query`: `matches`.
        public init(query: String, matches: [String]) {
            self.query = query
            self.matches = matches
        }
    }

    /// Why a request gave no answer.
    public enum SearchError: Error, Equatable, Sendable {
        /// The request for `query` took longer than the time allowed.
        case timedOut(query: String)
    }

    private let queries: Signal<String, Never>.Observer

    /// The outcome of each request that was not replaced by a newer query before it finished.
    public let answers: Signal<Result<Answer, SearchError>, Never>

    /// A search that sends each query to `request`.
    ///
    /// - Parameters:
    ///   - timeout: The time a request is allowed, in seconds.
    ///   - scheduler: The scheduler whose clock measures the timeout, and on which a timeout is
    ///     reported.
    ///   - request: Starts a request for a query: the producer sends the matches and completes.
    public init(
        timeout: TimeInterval,
        on scheduler: DateScheduler,
        request: @escaping @Sendable (String) -> SignalProducer<[String], Never>
    ) {
        let (typed, queries) = Signal<String, Never>.pipe()
        self.queries = queries
        answers = typed.flatMap(.latest) { query in
            request(query)
                .timeout(after: timeout, raising: SearchError.timedOut(query: query), on: scheduler)
                .map { Answer(query: query, matches: $0) }
                .materializeResults()
        }
    }

    /// Sends `query`, replacing the previous query's request if it is still running.
    public func type(_ query: String) {
        queries.send(value: query)
    }
}
