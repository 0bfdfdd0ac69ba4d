import ExampleScenarios
import Rivulet
import Testing

/// Virtual time: the tests move a `TestScheduler`'s clock, so what they check does not depend on
/// how fast the machine is.
@Suite struct SearchAsYouTypeTests {
    private typealias Outcome = Result<SearchAsYouType.Answer, SearchAsYouType.SearchError>

    /// A search with a 1 s timeout against a server that answers in 0.5 s, or 5 s for "s"; the
    /// outcomes it delivers; and the queries whose requests were cancelled.
    private static func search(
        clock: TestScheduler
    ) -> (SearchAsYouType, outcomes: Atomic<[Outcome]>, cancelled: Atomic<[String]>) {
        let server = WordServer(words: ["read", "ready", "signal", "swift"], scheduler: clock) { query in
            query == "s" ? 5 : 0.5
        }
        let cancelled = Atomic<[String]>([])
        let search = SearchAsYouType(timeout: 1, on: clock) { query in
            server.search(query).on(interrupted: { cancelled.modify { $0.append(query) } })
        }
        let outcomes = Atomic<[Outcome]>([])
        search.answers.observeValues { outcome in outcomes.modify { $0.append(outcome) } }
        return (search, outcomes, cancelled)
    }

    @Test func onlyTheLatestQueryIsAnsweredAndTheOthersAreCancelled() {
        let clock = TestScheduler()
        let (search, outcomes, cancelled) = Self.search(clock: clock)
        search.type("r")
        search.type("re")
        clock.advance(by: 0.25)
        search.type("rea") // the first two requests are still running
        #expect(cancelled.value == ["r", "re"])

        clock.advance(by: 0.75)
        #expect(outcomes.value == [.success(.init(query: "rea", matches: ["read", "ready"]))])
        clock.run() // the cancelled requests' answers never come
        #expect(outcomes.value.count == 1)
    }

    @Test func aSlowRequestFailsWithATimeoutWhenItsTimeIsUp() {
        let clock = TestScheduler()
        let (search, outcomes, cancelled) = Self.search(clock: clock)
        search.type("s")
        clock.advance(by: .milliseconds(999))
        #expect(outcomes.value.isEmpty)

        clock.advance(by: .milliseconds(1))
        #expect(outcomes.value == [.failure(.timedOut(query: "s"))])
        #expect(cancelled.value == ["s"]) // the request given up on is cancelled
        clock.run() // so the server's late answer never comes
        #expect(outcomes.value.count == 1)
    }

    @Test func aSlowRequestReplacedBeforeItsTimeoutDoesNotTimeOut() {
        let clock = TestScheduler()
        let (search, outcomes, cancelled) = Self.search(clock: clock)
        search.type("s")
        clock.advance(by: 0.9)
        search.type("si")
        clock.run()
        #expect(outcomes.value == [.success(.init(query: "si", matches: ["signal"]))])
        #expect(cancelled.value == ["s"])
    }

    @Test func theSearchGoesOnAfterATimeout() {
        let clock = TestScheduler()
        let (search, outcomes, _) = Self.search(clock: clock)
        search.type("s")
        clock.advance(by: 1)
        search.type("sw")
        clock.advance(by: 0.75)
        #expect(
            outcomes.value == [
                .failure(.timedOut(query: "s")),
                .success(.init(query: "sw", matches: ["swift"])),
            ])
    }
}
