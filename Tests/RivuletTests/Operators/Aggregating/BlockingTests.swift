import Dispatch
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct BlockingTests {
    typealias Script = [Signal<Int, TestError>.Event]

    private func producer(_ script: Script) -> SignalProducer<Int, TestError> {
        CountingSource<Int, TestError>([script]).producer
    }

    /// Sends `script` from another thread, after a short pause.
    private func asyncProducer(_ script: Script) -> SignalProducer<Int, TestError> {
        SignalProducer { observer, _ in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                for event in script { observer.send(event) }
            }
        }
    }

    @Test func firstReturnsTheFirstValueAndStopsTheStart() {
        let sent = Counter()
        let counting = SignalProducer<Int, TestError> { observer, lifetime in
            for value in 1...100 where !lifetime.hasEnded {
                sent.increment()
                observer.send(value: value)
            }
            observer.sendCompleted()
        }
        #expect(counting.first() == .success(1))
        #expect(sent.value == 1)
        #expect(producer([.completed]).first() == nil)
        #expect(producer([.failed(TestError(2)), .value(1)]).first() == .failure(TestError(2)))
        #expect(producer([.interrupted]).first() == nil)
    }

    @Test func singleNeedsExactlyOneValue() {
        #expect(producer([.value(1), .completed]).single() == .success(1))
        #expect(producer([.value(1), .value(2), .completed]).single() == nil)
        #expect(producer([.completed]).single() == nil)
        #expect(producer([.value(1), .failed(TestError(3))]).single() == .failure(TestError(3)))
        // As in ReactiveSwift: the one value seen before an interruption counts.
        #expect(producer([.value(1), .interrupted]).single() == .success(1))
    }

    @Test func lastReturnsTheLastValue() {
        #expect(producer([.value(1), .value(2), .completed]).last() == .success(2))
        #expect(producer([.completed]).last() == nil)
        #expect(producer([.value(1), .failed(TestError(4))]).last() == .failure(TestError(4)))
        #expect(producer([.value(1), .interrupted]).last() == nil)
    }

    @Test func waitReportsHowTheProducerEnded() {
        #expect(producer([.value(1), .completed]).wait().isSuccess)
        #expect(producer([.failed(TestError(5))]).wait().failure == TestError(5))
        #expect(producer([.interrupted]).wait().isSuccess)
    }

    @Test func blockingFormsDoNotDeadlockOnSynchronousProducers_O6() {
        withWatchdog(seconds: 300, "synchronous producers") {
            let values = SignalProducer<Int, TestError>([1, 2, 3])
            precondition(values.first() == .success(1))
            precondition(values.last() == .success(3))
            precondition(values.single() == nil)
            precondition(values.wait().isSuccess)
        }
    }

    @Test func blockingFormsWaitForAnotherThread() {
        withWatchdog(seconds: 300, "producers sending on another thread") {
            let script: Script = [.value(1), .value(2), .completed]
            precondition(asyncProducer(script).first() == .success(1))
            precondition(asyncProducer(script).last() == .success(2))
            precondition(asyncProducer([.value(7), .completed]).single() == .success(7))
            precondition(asyncProducer([.failed(TestError(1))]).wait().failure == TestError(1))
        }
    }

    @Test func asyncFormsGiveTheSameAnswers() async {
        #expect(await producer([.value(1), .value(2), .completed]).awaitFirst() == .success(1))
        #expect(await producer([.value(1), .value(2), .completed]).awaitSingle() == nil)
        #expect(await producer([.value(1), .value(2), .completed]).awaitLast() == .success(2))
        #expect(await producer([.failed(TestError(6))]).awaitCompletion().failure == TestError(6))
        #expect(await asyncProducer([.value(3), .completed]).awaitSingle() == .success(3))
        #expect(await asyncProducer([.value(1), .value(2), .completed]).awaitLast() == .success(2))
        #expect(await asyncProducer([.completed]).awaitCompletion().isSuccess)
        #expect(await asyncProducer([.completed]).awaitFirst() == nil)
    }

    @Test func cancellingTheAwaitingTaskDisposesOfTheStart_P4() async throws {
        let source = DrivenSource()
        let task = Task { await source.producer.awaitFirst() }
        while source.starts.value == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(source.ends.value == 0)
        task.cancel()
        #expect(await task.value == nil)
        #expect(source.ends.value == 1)
    }

    @Test func anAlreadyCancelledTaskNeverStartsTheWork() async {
        let source = DrivenSource()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await source.producer.awaitCompletion()
        }
        #expect(await task.value.isSuccess)
        #expect(source.starts.value == 0)
    }
}

extension Result {
    fileprivate var isSuccess: Bool { if case .success = self { true } else { false } }
    fileprivate var failure: Failure? { if case let .failure(error) = self { error } else { nil } }
}

/// A value that runs `onRelease` when its last reference goes.
private final class ReleaseProbe: @unchecked Sendable {
    // @unchecked Sendable: `onRelease` is set once, before the probe is shared.
    let onRelease: () -> Void
    init(_ onRelease: @escaping () -> Void) { self.onRelease = onRelease }
    deinit { onRelease() }
}

@Suite(.checksLiveObjects) struct BlockingWaiterTests {
    @Test func aReplacedValueIsReleasedOutsideTheWaitersLock_O7() {
        // `last` replaces its value at each value: the old one may run user code (a deinit) as it
        // goes, which must not happen under the waiter's lock. Here that code reads the outcome,
        // which takes the lock: under it, this would deadlock.
        let finished = withWatchdog(seconds: 300, "releasing a replaced value") {
            let box = Locked<OutcomeWaiter<ReleaseProbe, Never>?>(nil)
            let released = Counter()
            let waiter = OutcomeWaiter<ReleaseProbe, Never>(.last) {}
            box.withLock { $0 = waiter }
            let producer = SignalProducer<ReleaseProbe, Never> { observer, _ in
                for _ in 0..<3 {
                    observer.send(
                        value: ReleaseProbe {
                            _ = box.withLock { $0 }?.outcome
                            released.increment()
                        })
                }
                observer.sendCompleted()
            }
            waiter.start(producer)
            precondition(released.value == 2)
            box.withLock { $0 = nil }
        }
        #expect(finished)
    }
}
