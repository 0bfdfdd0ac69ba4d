import Testing
@testable import Rivulet
import RivuletContracts

/// Issue 17: `values` on signals, producers and properties, as `AsyncSequence`s with the stream's
/// own failure type, a buffering policy, and disposal when the iteration ends early (P4).
@Suite(.checksLiveObjects) struct AsyncValuesTests {
    @Test func producerValuesAreIteratedWithoutTryWhenTheErrorIsNever() async {
        var seen: [Int] = []
        for await value in SignalProducer(values: 1, 2, 3).values {
            seen.append(value)
        }
        #expect(seen == [1, 2, 3])
    }

    @Test func theStreamsFailureIsThrownWithItsOwnTypeAfterTheValuesBeforeIt() async {
        let failing = SignalProducer<Int, TestError> { observer, _ in
            observer.send(value: 1)
            observer.send(value: 2)
            observer.send(error: TestError(7))
        }
        var seen: [Int] = []
        do {
            for try await value in failing.values {
                seen.append(value)
            }
            Issue.record("the iteration should have thrown")
        } catch {
            // `error` is a `TestError`: the sequence's failure type is the producer's.
            let failure: TestError = error
            #expect(failure == TestError(7))
        }
        #expect(seen == [1, 2])
    }

    @Test func anIteratorThrowsTheFailureOnceThenEnds() async throws {
        var iterator = SignalProducer<Int, TestError>(error: TestError(1)).values.makeAsyncIterator()
        await #expect(throws: TestError(1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func eachIterationStartsTheProducerAnew_P2() async {
        let starts = Counter()
        let producer = SignalProducer<Int, Never> { observer, _ in
            observer.send(value: starts.increment())
            observer.sendCompleted()
        }
        var first: [Int] = []
        for await value in producer.values { first.append(value) }
        var second: [Int] = []
        for await value in producer.values { second.append(value) }
        #expect(first == [1])
        #expect(second == [2])
    }

    @Test func aSignalsValuesStartWhenTheIterationStarts() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let values = signal.values
        input.send(value: 0)
        var iterator = values.makeAsyncIterator()
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    @Test func interruptionEndsTheIteration() async throws {
        let (signal, input) = Signal<Int, TestError>.pipe()
        var iterator = signal.values.makeAsyncIterator()
        input.send(value: 1)
        input.sendInterrupted()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == nil)
    }

    @Test(arguments: [
        (AsyncValuesBufferingPolicy.unbounded, [1, 2, 3, 4]),
        (.bufferingNewest(2), [3, 4]),
        (.bufferingOldest(2), [1, 2]),
        (.bufferingNewest(0), []),
        (.bufferingOldest(0), []),
    ])
    func valuesWaitingForTheTaskAreKeptAsThePolicySays(policy: AsyncValuesBufferingPolicy, expected: [Int]) async {
        let (signal, input) = Signal<Int, Never>.pipe()
        var iterator = signal.values(bufferingPolicy: policy).makeAsyncIterator()
        for value in 1...4 { input.send(value: value) }
        input.sendCompleted()
        var seen: [Int] = []
        while let value = await iterator.next() { seen.append(value) }
        #expect(seen == expected)
    }

    @Test func aValueSentWhileTheTaskWaitsReachesItWhateverThePolicy() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let values = signal.values(bufferingPolicy: .bufferingNewest(0))
        let received = Locked<Int?>(nil)
        let task = Task {
            var iterator = values.makeAsyncIterator()
            let value = await iterator.next()
            received.withLock { $0 = value }
        }
        // A policy that keeps nothing drops what is sent before the task waits in `next()`; keep
        // sending until the task has received a value, which it can only get while waiting.
        var sends = 0
        while received.withLock({ $0 }) == nil, sends < 1_000_000 {
            input.send(value: 5)
            sends += 1
            await Task.yield()
        }
        // Never hangs the suite: a task that got nothing is cancelled, and the expectation fails.
        if received.withLock({ $0 }) == nil { task.cancel() }
        await task.value
        #expect(received.withLock { $0 } == 5)
    }

    @Test func cancellingTheIteratingTaskDisposesOfTheStart_P4() async {
        let (started, startedInput) = AsyncStream<Void>.makeStream()
        let ended = Locked(false)
        let producer = SignalProducer<Int, Never> { _, lifetime in
            lifetime.observeEnded { ended.withLock { $0 = true } }
            startedInput.yield()
        }
        let task = Task {
            var count = 0
            for await _ in producer.values { count += 1 }
            return count
        }
        for await _ in started { break }
        task.cancel()
        #expect(await task.value == 0)
        #expect(ended.withLock { $0 })
    }

    @Test func droppingTheIteratorDisposesOfTheObservation_P4() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        do {
            var iterator = signal.values.makeAsyncIterator()
            input.send(value: 1)
            #expect(await iterator.next() == 1)
            #expect(observerCount(signal) == 1)
        }
        #expect(observerCount(signal) == 0)
    }

    @Test func aPropertysValuesStartWithItsCurrentValue() async {
        let property = MutableProperty(1)
        var iterator = property.values.makeAsyncIterator()
        property.value = 2
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
    }

    @Test func aNegativeBufferLimitIsAProgrammingErrorNamingTheRule() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = AsyncValuesBufferingPolicy.bufferingNewest(-1)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Rivulet: AsyncValuesBufferingPolicy.bufferingNewest: limit is -1; it must be 0 or more"))
        await #expect(processExitsWith: .failure) {
            _ = AsyncValuesBufferingPolicy.bufferingOldest(-2)
        }
    }
}
