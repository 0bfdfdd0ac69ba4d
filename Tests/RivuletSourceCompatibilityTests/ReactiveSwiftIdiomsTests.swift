import Foundation
import Testing
import Rivulet

/// Everyday ReactiveSwift code, written as ReactiveSwift users write it, must compile unchanged and
/// behave as they expect (the migration promise: change the import).
@Suite struct ReactiveSwiftIdiomsTests {
    @Test func searchAsYouTypeChain() {
        let scheduler = TestScheduler()
        let (queries, input) = Signal<String, Never>.pipe()
        var results: [String] = []
        // `@Sendable`: an operator's closure may run on any sending thread. Without it, this
        // ReactiveSwift code still compiles in the Swift 5 mode, with a warning that says so.
        let lookup: @Sendable (String) -> SignalProducer<String, Never> = { query in
            SignalProducer(value: "results for \(query)").delay(1, on: scheduler)
        }
        queries
            .skipRepeats()
            .filter { !$0.isEmpty }
            .debounce(0.5, on: scheduler)
            .flatMap(.latest, lookup)
            .observeValues { results.append($0) }
        input.send(value: "r")
        input.send(value: "ri")
        scheduler.advance(by: .milliseconds(500))
        input.send(value: "riv")
        scheduler.advance(by: .milliseconds(500)) // "ri"'s lookup is replaced before it delivers
        scheduler.advance(by: .seconds(1))
        #expect(results == ["results for riv"])
    }

    @Test func combiningProducersAndCollecting() {
        let names = SignalProducer<String, Never>(values: "a", "b")
        let counts = SignalProducer<Int, Never>(values: [1, 2, 3])
        var pairs: [String] = []
        SignalProducer.combineLatest(names, counts)
            .map { "\($0)\($1)" }
            .collect()
            .startWithValues { pairs = $0 }
        // The argument list starts in order; `names` has completed before `counts` sends.
        #expect(pairs == ["b1", "b2", "b3"])

        var zipped: [String] = []
        SignalProducer.zip(names, counts).map { "\($0)\($1)" }.startWithValues { zipped.append($0) }
        #expect(zipped == ["a1", "b2"])

        var merged: [Int] = []
        SignalProducer.merge(counts, counts.map { $0 * 10 }).startWithValues { merged.append($0) }
        #expect(merged == [1, 2, 3, 10, 20, 30])
    }

    @Test func errorHandlingChain() throws {
        struct Failure: Swift.Error, Equatable {}
        let attempts = Counter()
        let flaky = SignalProducer<Int, Failure> { observer, _ in
            if attempts.increment() < 3 {
                observer.send(error: Failure())
            } else {
                observer.send(value: 42)
                observer.sendCompleted()
            }
        }
        let result = flaky.retry(upTo: 5).map { $0 + 1 }.first()
        #expect(try result?.get() == 43)
        #expect(attempts.value == 3)

        let recovered = SignalProducer<Int, Failure>(error: Failure())
            .flatMapError { _ in SignalProducer<Int, Never>(value: -1) }
            .single()
        #expect(recovered == .success(-1))
    }

    @Test func sideEffectsThenAndLifetimes() {
        // `on(…)`'s callbacks may run on any sending thread, so mutating a captured `var` in them
        // draws a warning in the Swift 5 mode: the lines go into an object.
        final class Log { var lines: [String] = [] }
        let log = Log()
        let (lifetime, token) = Lifetime.make()
        let (values, input) = Signal<Int, Never>.pipe()
        values.take(during: lifetime)
            .on(completed: { log.lines.append("completed") }, value: { log.lines.append("value \($0)") })
            .observe { _ in }
        input.send(value: 1)
        token.dispose()
        input.send(value: 2)
        SignalProducer<Int, Never>(value: 1)
            .then(SignalProducer<String, Never>(value: "then"))
            .startWithValues { log.lines.append($0) }
        #expect(log.lines == ["value 1", "completed", "then"])
    }

    @Test func replayLazilySharesOneStart() {
        let starts = Counter()
        let shared = SignalProducer<Int, Never> { observer, _ in
            starts.increment()
            observer.send(value: 7)
            observer.sendCompleted()
        }.replayLazily(upTo: 1)
        var seen: [Int] = []
        shared.startWithValues { seen.append($0) }
        shared.startWithValues { seen.append($0) }
        #expect(seen == [7, 7])
        #expect(starts.value == 1)
    }
}
