import Dispatch
import Testing

@testable import Rivulet
import RivuletContracts

/// Issue 17, item 5: producers from async code. Each start runs its work in a new task (P2);
/// disposing of the start cancels the task and interrupts the start (P4, E4); nothing arrives
/// after the interruption (E1, checked by `EventRecorder`).
///
/// No timing assertion: the tests wait (with a generous limit) only for events that must happen,
/// and the cancellation handshakes are explicit (the work records what it saw).
@Suite(.checksLiveObjects) struct ProducerFromAsyncTests {
    // MARK: - An async operation

    @Test func anAsyncOperationSendsItsValueThenCompletes() async {
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError> { () async throws(TestError) -> Int in
            await Task.yield()
            return 42
        }
        .start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events == [.value(42), .completed])
    }

    @Test func anAsyncOperationFailsWithItsTypedError() async {
        let recorder = EventRecorder<Int, TestError>()
        let producer: SignalProducer<Int, TestError> = SignalProducer { () async throws(TestError) -> Int in
            await Task.yield()
            throw TestError(3)
        }
        producer.start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events == [.failed(TestError(3))])
    }

    @Test func aNonThrowingAsyncClosureFitsAProducerThatCannotFail() async {
        let recorder = EventRecorder<Int, Never>()
        let producer: SignalProducer<Int, Never> = SignalProducer {
            await Task.yield()
            return 1
        }
        producer.start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func anUntypedThrowingAsyncClosureFitsAnyError() async {
        let recorder = EventRecorder<Int, any Swift.Error>()
        let producer: SignalProducer<Int, any Swift.Error> = SignalProducer { try await failing(TestError(5)) }
        producer.start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events.count == 1)
        #expect(recorder.events.first?.error as? TestError == TestError(5))
    }

    @Test func aNonThrowingAsyncClosureFitsATypedError() async {
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError> {
            await Task.yield()
            return 2
        }
        .start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events == [.value(2), .completed])
    }

    @Test func eachStartRunsTheOperationAgainInItsOwnTask_P2() async {
        let runs = Counter()
        let recorder = EventRecorder<Int, Never>(streams: 2)
        let producer = SignalProducer<Int, Never> { () async -> Int in runs.increment() }
        // Nothing runs before a start (P1).
        #expect(runs.value == 0)
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        await eventually("both starts end") { recorder.terminalCount == 2 }
        #expect(runs.value == 2)
        #expect(Set(recorder.values) == [1, 2])
        #expect(recorder.events.filter { $0 == .completed }.count == 2)
    }

    @Test func disposingOfTheStartCancelsTheOperationsTask_P4() async {
        let started = Counter()
        let sawCancellation = Counter()
        let finishedCancelled = Counter()
        let recorder = EventRecorder<Int, Never>()
        let producer = SignalProducer<Int, Never> { () async -> Int in
            started.increment()
            await withTaskCancellationHandler {
                await sleepUntilCancelled()
            } onCancel: {
                sawCancellation.increment()
            }
            if Task.isCancelled { finishedCancelled.increment() }
            // Returned after the disposal: never sent (E1).
            return 7
        }
        let disposable = producer.start(recorder.observer)
        await eventually("the operation starts") { started.value == 1 }
        disposable.dispose()
        // The interruption is sent by the disposal itself, at once (E4).
        #expect(recorder.events == [.interrupted])
        await eventually("the task sees the cancellation") { finishedCancelled.value == 1 }
        #expect(sawCancellation.value == 1)
        #expect(recorder.events == [.interrupted])
    }

    @Test func aCancellationErrorFromAnUncancelledTaskIsAFailure() async {
        let recorder = EventRecorder<Int, any Swift.Error>()
        SignalProducer<Int, any Swift.Error> { () async throws -> Int in throw CancellationError() }
            .start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events.first?.error is CancellationError)
    }

    @Test func aValueReturnedAfterTheDisposalIsNeverSent_P4() async {
        // The operation ignores the cancellation and returns only once the test has disposed of
        // the start: the task and the disposal cannot race, so the outcome is fixed. (Disposing
        // right after `start` without such a gate is a race the task may win: it can send its
        // value and complete before `dispose()` runs, which is correct too.)
        let recorder = EventRecorder<Int, Never>()
        let started = Counter()
        let disposed = Counter()
        let returned = Counter()
        let producer = SignalProducer<Int, Never> { () async -> Int in
            started.increment()
            while disposed.value == 0 { await Task.yield() }
            returned.increment()
            return 1
        }
        let disposable = producer.start(recorder.observer)
        await eventually("the operation starts") { started.value == 1 }
        disposable.dispose()
        disposed.increment()
        #expect(recorder.events == [.interrupted])
        await eventually("the operation returns its value") { returned.value == 1 }
        // The task decides right after the operation returns; the recorder reports an event
        // sent after the interruption as an E1 violation whenever it arrives.
        #expect(recorder.events == [.interrupted])
    }

    // MARK: - Synchronous closures keep their initialisers

    @Test func synchronousClosuresStillPickTheSynchronousInitialisers_E7() {
        // Each start below delivers before `start` returns, on this thread: only the
        // synchronous initialisers do (the async ones deliver from a task).
        let plain = EventRecorder<Int, Never>()
        SignalProducer { 42 }.start(plain.observer)
        #expect(plain.events == [.value(42), .completed])

        let throwing = EventRecorder<Int, any Swift.Error>()
        SignalProducer<Int, any Swift.Error> { () throws -> Int in throw TestError(1) }.start(throwing.observer)
        #expect(throwing.events.first?.error as? TestError == TestError(1))

        let inferredThrowing = EventRecorder<Int, any Swift.Error>()
        let producer: SignalProducer<Int, any Swift.Error> = SignalProducer { try Result<Int, TestError>.success(2).get() }
        producer.start(inferredThrowing.observer)
        #expect(inferredThrowing.values == [2])

        let handler = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError> { observer, _ in
            observer.send(value: 3)
            observer.sendCompleted()
        }
        .start(handler.observer)
        #expect(handler.events == [.value(3), .completed])

        let sequence = EventRecorder<Int, Never>()
        SignalProducer([4, 5]).start(sequence.observer)
        #expect(sequence.events == [.value(4), .value(5), .completed])
    }

    // MARK: - An AsyncSequence

    @Test func anAsyncStreamGivesAProducerThatCannotFail() async {
        let recorder = EventRecorder<Int, Never>()
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let producer = SignalProducer(stream)
        let typed: SignalProducer<Int, Never> = producer
        typed.start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func anAsyncThrowingStreamFailsWithItsError() async {
        let recorder = EventRecorder<Int, any Swift.Error>()
        let stream = AsyncThrowingStream<Int, any Swift.Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError(4))
        }
        let producer: SignalProducer<Int, any Swift.Error> = SignalProducer(stream)
        producer.start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.values == [1])
        #expect(recorder.events.last?.error as? TestError == TestError(4))
    }

    @Test func aTypedFailureIsKept() async {
        let recorder = EventRecorder<Int, TestError>()
        let producer = SignalProducer(Countdown(from: 2, failure: TestError(6)))
        let typed: SignalProducer<Int, TestError> = producer
        typed.start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events == [.value(2), .value(1), .failed(TestError(6))])
    }

    @Test func eachStartIteratesTheSequenceAfresh_P2() async {
        let recorder = EventRecorder<Int, TestError>(streams: 2)
        let producer = SignalProducer(Countdown(from: 3, failure: nil))
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        await eventually("both starts end") { recorder.terminalCount == 2 }
        #expect(recorder.values.sorted() == [1, 1, 2, 2, 3, 3])
        #expect(recorder.events.filter { $0 == .completed }.count == 2)
    }

    @Test func disposingOfTheStartCancelsTheIteration_P4() async {
        let terminations = Locked<[String]>([])
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { reason in
            let name: String
            switch reason {
            case .cancelled: name = "cancelled"
            case .finished: name = "finished"
            @unknown default: name = "unknown"
            }
            terminations.withLock { $0.append(name) }
        }
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer(stream).start(recorder.observer)
        continuation.yield(1)
        await eventually("the first element arrives") { recorder.values == [1] }
        disposable.dispose()
        #expect(recorder.events == [.value(1), .interrupted])
        await eventually("the iterating task is cancelled") { !terminations.withLock { $0.isEmpty } }
        #expect(terminations.withLock { $0 } == ["cancelled"])
        // Elements after the disposal go nowhere (E1).
        continuation.yield(2)
        #expect(recorder.events == [.value(1), .interrupted])
    }

    // MARK: - An async start handler

    @Test func anAsyncStartHandlerSendsItsEvents() async {
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError> { observer, _ async in
            await Task.yield()
            observer.send(value: 1)
            await Task.yield()
            observer.send(value: 2)
            observer.sendCompleted()
        }
        .start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func anErrorThrownByAnAsyncStartHandlerIsTheFailure() async {
        let recorder = EventRecorder<Int, TestError>()
        SignalProducer<Int, TestError> { (observer, _) async throws(TestError) in
            observer.send(value: 1)
            await Task.yield()
            throw TestError(8)
        }
        .start(recorder.observer)
        await eventually("the start ends") { recorder.terminalCount == 1 }
        #expect(recorder.events == [.value(1), .failed(TestError(8))])
    }

    @Test func eachStartRunsTheAsyncStartHandlerAgain_P2() async {
        let runs = Counter()
        let recorder = EventRecorder<Int, Never>(streams: 2)
        let producer = SignalProducer<Int, Never> { observer, _ async in
            observer.send(value: runs.increment())
            observer.sendCompleted()
        }
        #expect(runs.value == 0)
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        await eventually("both starts end") { recorder.terminalCount == 2 }
        #expect(Set(recorder.values) == [1, 2])
    }

    @Test func disposingOfTheStartCancelsTheStartHandlersTask_P4() async {
        let started = Counter()
        let sawCancellation = Counter()
        let sentAfterCancellation = Counter()
        let lifetimeEnded = Counter()
        let recorder = EventRecorder<Int, Never>()
        let producer = SignalProducer<Int, Never> { observer, lifetime async in
            lifetime.observeEnded { lifetimeEnded.increment() }
            observer.send(value: 1)
            started.increment()
            await withTaskCancellationHandler {
                await sleepUntilCancelled()
            } onCancel: {
                sawCancellation.increment()
            }
            // Sent after the disposal: dropped (E1).
            observer.send(value: 2)
            observer.sendCompleted()
            if Task.isCancelled { sentAfterCancellation.increment() }
        }
        let disposable = producer.start(recorder.observer)
        await eventually("the handler starts") { started.value == 1 }
        disposable.dispose()
        #expect(lifetimeEnded.value == 1)
        await eventually("the handler's task sees the cancellation") { sentAfterCancellation.value == 1 }
        #expect(sawCancellation.value == 1)
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func aTerminalEventFromTheHandlerCancelsItsStillRunningTask() async {
        let sawCancellation = Counter()
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never> { observer, _ async in
            observer.send(value: 1)
            observer.sendCompleted()
            await sleepUntilCancelled()
            if Task.isCancelled { sawCancellation.increment() }
        }
        .start(recorder.observer)
        await eventually("the handler's task is cancelled") { sawCancellation.value == 1 }
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func aHandlerThatThrowsOnceCancelledEndsWithInterruptedNotAFailure() async {
        let started = Counter()
        let threw = Counter()
        let recorder = EventRecorder<Int, any Swift.Error>()
        let producer = SignalProducer<Int, any Swift.Error> { observer, _ async throws in
            started.increment()
            do {
                try await Task.sleep(nanoseconds: 3_600_000_000_000)
            } catch {
                threw.increment()
                throw error
            }
        }
        let disposable = producer.start(recorder.observer)
        await eventually("the handler starts") { started.value == 1 }
        disposable.dispose()
        await eventually("the handler throws") { threw.value == 1 }
        #expect(recorder.events.count == 1)
        #expect(recorder.events.first?.isTerminating == true)
        #expect(recorder.events.first?.error == nil)
    }
}

// MARK: - Helpers

/// A countdown from `from` to 1, then the end or `failure`: an `AsyncSequence` with a typed
/// failure whose every iterator starts again from the top.
private struct Countdown: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = TestError

    let from: Int
    let failure: TestError?

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = TestError
        var next: Int
        let failure: TestError?

        mutating func next() async throws(TestError) -> Int? {
            await Task.yield()
            if next > 0 {
                defer { next -= 1 }
                return next
            }
            if let failure { throw failure }
            return nil
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestError) -> Int? {
            try await next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(next: from, failure: failure) }
}

/// Throws `error` after a suspension.
private func failing(_ error: some Swift.Error) async throws -> Int {
    await Task.yield()
    throw error
}

/// Suspends until the current task is cancelled (or an hour has passed).
private func sleepUntilCancelled() async {
    try? await Task.sleep(nanoseconds: 3_600_000_000_000)
}

/// Waits until `condition` holds, polling; records an issue if it does not within `seconds`.
/// For events that must happen: the limit only turns a hang into a failure.
///
/// The limit is long because the work runs on the cooperative thread pool, which has one thread
/// per core. In one CI run on a two-core machine, with a 20-second limit, no task of these tests
/// ran for over 20 seconds while other suites' long synchronous tests (the contract kit's) were
/// running, presumably holding both threads; the whole suite ends within a minute.
private func eventually(
    _ what: String,
    within seconds: Double = 300,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1_000_000_000)
    while !condition() {
        if DispatchTime.now().uptimeNanoseconds > deadline {
            Issue.record("\(what): did not happen within \(seconds)s", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
}
