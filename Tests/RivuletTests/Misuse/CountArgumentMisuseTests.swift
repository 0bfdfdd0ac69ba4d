import Testing

@testable import Rivulet
import RivuletContracts

/// Counts, limits and capacities (issue 19, item 6): a negative count, or a zero where an operator
/// needs at least one, stops with a precondition failure naming the API, the argument and the
/// rule. Each check is tested once, on one of the forms (signal or producer) that share it.
@Suite(.checksLiveObjects) struct CountArgumentMisuseTests {
    @Test func takeFirstRejectsANegativeCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.empty.take(first: -1)
        }
        expectStandardError(result, contains: "Rivulet: take(first:): count is -1; it must be 0 or more")
    }

    @Test func takeLastRejectsANegativeCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.never.take(last: -2)
        }
        expectStandardError(result, contains: "Rivulet: take(last:): count is -2; it must be 0 or more")
    }

    @Test func skipFirstRejectsANegativeCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.empty.skip(first: -1)
        }
        expectStandardError(result, contains: "Rivulet: skip(first:): count is -1; it must be 0 or more")
    }

    @Test func collectCountRejectsZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.never.collect(count: 0)
        }
        expectStandardError(result, contains: "Rivulet: collect(count:): count is 0; it must be greater than 0")
    }

    @Test func retryRejectsANegativeCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, TestError>.empty.retry(upTo: -1)
        }
        expectStandardError(result, contains: "Rivulet: retry(upTo:): count is -1; it must be 0 or more")
    }

    @Test func repeatRejectsANegativeCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.empty.repeat(-3)
        }
        expectStandardError(result, contains: "Rivulet: repeat(_:): count is -3; it must be 0 or more")
    }

    @Test func replayLazilyRejectsANegativeCapacity() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.empty.replayLazily(upTo: -1)
        }
        expectStandardError(result, contains: "Rivulet: replayLazily(upTo:): capacity is -1; it must be 0 or more")
    }

    @Test func concurrentFlatteningRejectsALimitOfZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FlattenStrategy.concurrent(limit: 0)
        }
        expectStandardError(
            result, contains: "Rivulet: FlattenStrategy.concurrent(limit:): limit is 0; it must be greater than 0")
    }

    @Test func bufferingOldestRejectsANegativeLimit() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = AsyncValuesBufferingPolicy.bufferingOldest(-2)
        }
        expectStandardError(
            result, contains: "Rivulet: AsyncValuesBufferingPolicy.bufferingOldest: limit is -2; it must be 0 or more")
    }
}
