import Testing

@testable import Rivulet
import RivuletContracts

/// Time intervals of the time-based operators and producers (issue 19, item 6): a negative wait,
/// or a repeating tick that is not positive and finite, stops with a precondition failure that
/// names the API, the argument and the rule. A NaN interval fails the same checks ("0 or more").
@Suite(.checksLiveObjects) struct IntervalMisuseTests {
    @Test func debounceRejectsANegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.never.debounce(-1, on: TestScheduler())
        }
        expectStandardError(
            result, contains: "Rivulet: debounce(_:on:discardWhenCompleted:): interval is -1.0; it must be 0 or more")
    }

    @Test func throttleRejectsANegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.never.throttle(-0.5, on: TestScheduler())
        }
        expectStandardError(result, contains: "Rivulet: throttle(_:on:): interval is -0.5; it must be 0 or more")
    }

    @Test func delayRejectsANaNInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.never.delay(.nan, on: TestScheduler())
        }
        expectStandardError(result, contains: "Rivulet: delay(_:on:): interval is nan; it must be 0 or more")
    }

    @Test func timeoutRejectsANegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, TestError>.never.timeout(after: -1, raising: TestError(), on: TestScheduler())
        }
        expectStandardError(result, contains: "Rivulet: timeout(after:raising:on:): interval is -1.0; it must be 0 or more")
    }

    @Test func retryWithAnIntervalRejectsANegativeCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, TestError>.empty.retry(upTo: -1, interval: 1, on: TestScheduler())
        }
        expectStandardError(result, contains: "Rivulet: retry(upTo:interval:on:): count is -1; it must be 0 or more")
    }

    @Test func retryWithAnIntervalRejectsANegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, TestError>.empty.retry(upTo: 1, interval: -2, on: TestScheduler())
        }
        expectStandardError(result, contains: "Rivulet: retry(upTo:interval:on:): interval is -2.0; it must be 0 or more")
    }

    @Test func aRepeatingProducerRejectsANeverInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.interval([1, 2], interval: .never, on: TestScheduler())
        }
        expectStandardError(
            result, contains: "Rivulet: interval(_:interval:on:): interval is .never; it must be greater than 0 and not .never")
    }

    @Test func aTimerRejectsANegativeLeeway() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer.timer(interval: .seconds(1), on: TestScheduler(), leeway: .seconds(-1))
        }
        expectStandardError(result, contains: "Rivulet: timer(interval:on:leeway:): leeway is seconds(-1); it must be 0 or more")
    }
}
