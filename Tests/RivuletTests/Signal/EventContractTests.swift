import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// Contract E1–E7: the event grammar and how events are delivered.
@Suite(.checksLiveObjects) struct EventContractTests {
    typealias IntSignal = Signal<Int, TestError>

    // MARK: E1

    @Test(
        "E1 values, then one terminal, then nothing",
        arguments: [
            IntSignal.Event.completed, .failed(TestError(1)), .interrupted,
        ])
    func E1_nothingAfterTheTerminalEvent(terminal: IntSignal.Event) {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        input.send(terminal)
        input.send(value: 3)
        input.sendCompleted()
        input.send(error: TestError(9))
        input.sendInterrupted()
        #expect(recorder.events == [.value(1), .value(2), terminal])
    }

    @Test("E1 a terminal sent from inside an observer ends the stream; later sends are ignored")
    func E1_reentrantTerminalEndsTheStream() {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.observeValues { value in
            if value == 1 {
                input.send(value: 5)
                input.sendCompleted()
                input.send(value: 6)
            }
        }
        signal.observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 7)
        #expect(recorder.events == [.value(1), .value(5), .completed])
    }

    // MARK: E2, E3, E4

    @Test("E2 a failure reaches observers at once, before send returns")
    func E2_failurePropagatesImmediately() {
        let (signal, input) = IntSignal.pipe()
        let failed = Counter()
        signal.observeFailed { error in
            #expect(error == TestError(4))
            failed.increment()
        }
        input.send(error: TestError(4))
        #expect(failed.value == 1)
    }

    @Test("E3 completion is reported as completion, not as failure or interruption")
    func E3_completionMeansSuccess() {
        let (signal, input) = IntSignal.pipe()
        let completed = Counter()
        let failed = Counter()
        let interrupted = Counter()
        signal.observeCompleted { completed.increment() }
        signal.observeFailed { _ in failed.increment() }
        signal.observeInterrupted { interrupted.increment() }
        input.sendCompleted()
        #expect((completed.value, failed.value, interrupted.value) == (1, 0, 0))
    }

    @Test("E4 interruption reaches observers at once and disposes of the signal's resources")
    func E4_interruptionCancelsWork() {
        let cancelled = Counter()
        let (signal, input) = IntSignal.pipe(disposable: AnyDisposable { cancelled.increment() })
        let recorder = EventRecorder<Int, TestError>()
        signal.observe(recorder.observer)
        input.send(value: 1)
        #expect(cancelled.value == 0)
        input.sendInterrupted()
        #expect(recorder.events == [.value(1), .interrupted])
        #expect(cancelled.value == 1)
    }

    @Test("E4 releasing the last input observer interrupts the signal: nobody can send any more")
    func E4_releasingTheInputInterrupts() {
        let recorder = EventRecorder<Int, TestError>()
        var input: IntSignal.Observer? = nil
        let signal = IntSignal { observer, _ in input = observer }
        signal.observe(recorder.observer)
        input?.send(value: 1)
        input = nil
        #expect(recorder.events == [.value(1), .interrupted])
    }

    // MARK: E5

    @Test("E5 eight threads sending at once: every value delivered, never two deliveries at once")
    func E5_concurrentSendsAreSerialized() {
        let (signal, input) = Signal<(thread: Int, index: Int), Never>.pipe()
        let detector = OverlapDetector()
        let received = Locked([[Int]](repeating: [], count: 8))
        signal.observeValues { value in
            detector.enter()
            received.withLock { $0[value.thread].append(value.index) }
            detector.leave()
        }
        let perThread = 2_000
        runConcurrently(8) { thread in
            for index in 0..<perThread { input.send(value: (thread, index)) }
        }
        #expect(detector.overlapCount == 0)
        let lists = received.withLock { $0 }
        for thread in 0..<8 {
            // Nothing lost, and each thread's values arrive in the order that thread sent them.
            #expect(lists[thread] == Array(0..<perThread), "thread \(thread)")
        }
    }

    // MARK: E6

    @Test("E6 a value sent from inside an observer is queued and delivered right after, in order", .observerKeepsWhatItObserves)
    func E6_reentrantSendsAreQueuedInOrder() {
        let recorder = EventRecorder<Int, TestError>()
        let depth = Locked(0)
        let maxDepth = Locked(0)
        withWatchdog {
            let (signal, input) = IntSignal.pipe()
            signal.observeValues { value in
                let current = depth.withLock {
                    $0 += 1; return $0
                }
                maxDepth.withLock { $0 = max($0, current) }
                if value < 10 {
                    input.send(value: value * 10 + 1)
                    input.send(value: value * 10 + 2)
                }
                depth.withLock { $0 -= 1 }
            }
            signal.observe(recorder.observer)
            input.send(value: 1)
            input.send(value: 2)
        }
        // Both observers see 1 before either queued value; the queue drains before send(1) returns.
        #expect(recorder.values == [1, 11, 12, 2, 21, 22])
        #expect(maxDepth.withLock { $0 } == 1, "delivery was recursive")
    }

    @Test("E6 the queued values are delivered before the outer send returns", .observerKeepsWhatItObserves)
    func E6_queueDrainsBeforeSendReturns() {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.observeValues { if $0 == 1 { input.send(value: 2) } }
        signal.observe(recorder.observer)
        withWatchdog { input.send(value: 1) }
        #expect(recorder.values == [1, 2])
    }

    @Test("E6 ping-pong between two signals on one thread never deadlocks and keeps order", .observerKeepsWhatItObserves)
    func E6_crossSignalReentrancy() {
        let (a, inputA) = IntSignal.pipe()
        let (b, inputB) = IntSignal.pipe()
        let seen = Locked([String]())
        a.observeValues { value in
            seen.withLock { $0.append("a\(value)") }
            if value < 4 { inputB.send(value: value + 1) }
        }
        b.observeValues { value in
            seen.withLock { $0.append("b\(value)") }
            if value < 4 { inputA.send(value: value + 1) }
            if value < 100 { inputB.send(value: 100 + value) } // re-entrant on b itself
        }
        let finished = withWatchdog { inputA.send(value: 0) }
        #expect(finished)
        // b's own re-entrant value is delivered before control returns to a's queue.
        #expect(seen.withLock { $0 } == ["a0", "b1", "b101", "a2", "b3", "b103", "a4"])
    }

    // MARK: E7

    @Test("E7 observers run synchronously on the sending thread, before send returns")
    func E7_synchronousOnTheSendingThread() {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.observe(recorder.observer)
        for value in 0..<5 {
            input.send(value: value)
            #expect(recorder.values.count == value + 1)
        }
        #expect(Set(recorder.threads) == [ThreadID.current])
    }

    /// Makes the delivery of `value` block inside an observer: `inside` is signalled when it
    /// starts, and it continues once `release` is signalled.
    static func blockDelivery(of value: Int, on signal: IntSignal) -> (inside: DispatchSemaphore, release: DispatchSemaphore) {
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        signal.observeValues { received in
            if received == value {
                inside.signal()
                release.wait()
            }
        }
        return (inside, release)
    }

    @Test("E7 a sender on another thread waits its turn, is delivered on its own thread, and returns after")
    func E7_otherThreadWaitsItsTurn() {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        let (insideFirst, releaseFirst) = Self.blockDelivery(of: 1, on: signal)
        signal.observe(recorder.observer)

        let firstThread = Locked<ThreadID?>(nil)
        let secondThread = Locked<ThreadID?>(nil)
        let secondReturned = DispatchSemaphore(value: 0)
        let recordedWhenSecondReturned = Locked<[Int]>([])
        Thread {
            firstThread.withLock { $0 = ThreadID.current }
            input.send(value: 1)
        }.start()
        insideFirst.wait()
        Thread {
            secondThread.withLock { $0 = ThreadID.current }
            input.send(value: 2)
            recordedWhenSecondReturned.withLock { $0 = recorder.values }
            secondReturned.signal()
        }.start()
        // The second sender must still be waiting while the first delivery is in progress.
        #expect(secondReturned.wait(timeout: .now() + 0.2) == .timedOut)
        #expect(recorder.values == [])
        releaseFirst.signal()
        #expect(secondReturned.wait(timeout: .now() + 300) == .success)
        #expect(recordedWhenSecondReturned.withLock { $0 } == [1, 2])
        let threads = recorder.threads
        #expect(threads.count == 2)
        #expect(threads.first == firstThread.withLock { $0 })
        #expect(threads.last == secondThread.withLock { $0 })
    }

    /// A pipe whose value 1 is being delivered, on another thread, to an observer blocked until
    /// `releaseFirst` is signalled; `recorder` observes after it.
    static func deliveringOneOnAnotherThread() -> (
        signal: IntSignal, input: IntSignal.Observer, recorder: EventRecorder<Int, TestError>,
        releaseFirst: DispatchSemaphore
    ) {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        let (insideFirst, releaseFirst) = blockDelivery(of: 1, on: signal)
        signal.observe(recorder.observer)
        Thread { input.send(value: 1) }.start()
        insideFirst.wait()
        return (signal, input, recorder, releaseFirst)
    }

    @Test("E1 a terminal event sent during a delivery overtakes the values other threads wait to send, as in ReactiveSwift")
    func E1_aTerminalEventOvertakesValuesWaitingForTheTurn() {
        let (signal, input, recorder, releaseFirst) = Self.deliveringOneOnAnotherThread()
        let secondReturned = DispatchSemaphore(value: 0)
        Thread {
            input.send(value: 2)
            secondReturned.signal()
        }.start()
        let waiting: @Sendable () -> Int = { signal.core.storage.withTurnLock { state, _ in state.mailbox.waiters } }
        withWatchdog { while waiting() == 0 { usleep(1_000) } }
        input.sendInterrupted()
        releaseFirst.signal()
        #expect(secondReturned.wait(timeout: .now() + 300) == .success)
        #expect(recorder.events == [.value(1), .interrupted], "the waiting value is refused, not delivered first")
    }

    @Test("E7 a terminal event from another thread does not wait; it is delivered after the current event")
    func E7_terminalFromAnotherThreadDoesNotBlock() {
        let (_, input, recorder, releaseFirst) = Self.deliveringOneOnAnotherThread()
        let returned = withWatchdog(seconds: 300, "sendInterrupted from another thread") {
            input.sendInterrupted()
        }
        #expect(returned)
        #expect(recorder.events == [])
        releaseFirst.signal()
        let deadline = Date().addingTimeInterval(10)
        while recorder.events.count < 2 && Date() < deadline { usleep(1000) }
        #expect(recorder.events == [.value(1), .interrupted])
    }
}
