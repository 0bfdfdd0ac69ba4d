import Dispatch
import Testing
@testable import Rivulet
import RivuletContracts

/// A log of side effects, in the order they happened.
private final class CallLog: Sendable {
    private let entries = Locked<[String]>([])
    var all: [String] { entries.withLock { $0 } }
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
}

@Suite(.checksLiveObjects) struct OnEventsTests {
    private func logged<E>(
        _ log: CallLog
    ) -> (Signal<Int, E>) -> Signal<Int, E> {
        { signal in
            signal.on(
                event: { log.add("event \($0)") },
                failed: { log.add("failed \($0)") },
                completed: { log.add("completed") },
                interrupted: { log.add("interrupted") },
                terminated: { log.add("terminated") },
                disposed: { log.add("disposed") },
                value: { log.add("value \($0)") }
            )
        }
    }

    private func loggedProducer<E>(_ log: CallLog) -> (SignalProducer<Int, E>) -> SignalProducer<Int, E> {
        { producer in
            producer.on(
                starting: { log.add("starting") },
                started: { log.add("started") },
                event: { log.add("event \($0)") },
                failed: { log.add("failed \($0)") },
                completed: { log.add("completed") },
                interrupted: { log.add("interrupted") },
                terminated: { log.add("terminated") },
                disposed: { log.add("disposed") },
                value: { log.add("value \($0)") }
            )
        }
    }

    @Test func signalCallbacksRunInOrderBeforeTheEventIsForwarded() {
        let log = CallLog()
        let (signal, input) = Signal<Int, TestError>.pipe()
        logged(log)(signal).observe { log.add("observer \($0)") }
        input.send(value: 1)
        input.sendCompleted()
        #expect(
            log.all == [
                "event VALUE 1", "value 1", "observer VALUE 1",
                "event COMPLETED", "completed", "terminated", "observer COMPLETED", "disposed",
            ])
    }

    @Test func signalFailureAndInterruptionCallbacks_E2_E4() {
        let log = CallLog()
        let (signal, input) = Signal<Int, TestError>.pipe()
        logged(log)(signal).observe { log.add("observer \($0)") }
        input.send(error: TestError(3))
        #expect(
            log.all == [
                "event FAILED TestError(code: 3)", "failed TestError(code: 3)", "terminated",
                "observer FAILED TestError(code: 3)", "disposed",
            ])
        let interruptions = CallLog()
        let (other, otherInput) = Signal<Int, TestError>.pipe()
        logged(interruptions)(other).observe { interruptions.add("observer \($0)") }
        otherInput.sendInterrupted()
        #expect(
            interruptions.all == [
                "event INTERRUPTED", "interrupted", "terminated", "observer INTERRUPTED", "disposed",
            ])
    }

    @Test func onForwardsEveryEventUnchanged_P3() {
        expectOperator(
            [.value(1), .value(2), .failed(TestError(1))] as [Signal<Int, TestError>.Event],
            signal: { $0.on(value: { _ in }) },
            producer: { $0.on(value: { _ in }) },
            yields: [.value(1), .value(2), .failed(TestError(1))]
        )
    }

    @Test func producerStartingRunsBeforeTheWorkAndStartedAfter() {
        let log = CallLog()
        let producer = SignalProducer<Int, Never> { observer, _ in
            log.add("work")
            observer.send(value: 1)
            observer.sendCompleted()
        }
        loggedProducer(log)(producer).start { log.add("observer \($0)") }
        #expect(
            log.all == [
                "starting", "work",
                "event VALUE 1", "value 1", "observer VALUE 1",
                "event COMPLETED", "completed", "terminated", "observer COMPLETED", "disposed",
                "started",
            ])
    }

    @Test func disposingAProducerStartRunsTheInterruptionCallbacksBeforeTheObserver_P4() {
        // Even for an upstream that never sends `interrupted` itself (a signal's producer): as in
        // ReactiveSwift, the callbacks see the interruption first, then the observer (issue 16).
        let log = CallLog()
        let (signal, input) = Signal<Int, Never>.pipe()
        let disposable = loggedProducer(log)(signal.producer).start { log.add("observer \($0)") }
        input.send(value: 1)
        disposable.dispose()
        input.send(value: 2)
        #expect(
            log.all == [
                "starting", "started",
                "event VALUE 1", "value 1", "observer VALUE 1",
                "event INTERRUPTED", "interrupted", "terminated", "observer INTERRUPTED",
                "disposed",
            ])
    }

    @Test func callbacksBelowObserveOnSeeADisposedStartsInterruptionOnTheScheduler_P4() {
        // As in ReactiveSwift (issue 16): the interruption comes down the chain, so callbacks
        // below a stage that delivers on a scheduler see it there, before the observer.
        let scheduler = makeTestScheduler()
        let log = CallLog()
        let upstream = ManualProducer<Int, Never>()
        let disposable = upstream.producer
            .on(interrupted: { log.add("above") })
            .observe(on: scheduler)
            .on(interrupted: { log.add("below") }, disposed: { log.add("disposed") })
            .start { log.add("observer \($0)") }
        disposable.dispose()
        #expect(log.all == ["above"])
        scheduler.advance()
        #expect(log.all == ["above", "below", "observer INTERRUPTED", "disposed"])
    }

    @Test func stackedCallbacksSeeADisposedStartsInterruptionFromTheSourceDown_P4() {
        let log = CallLog()
        let disposable = SignalProducer<Int, Never>.never
            .on(interrupted: { log.add("upper") })
            .map { $0 }
            .on(interrupted: { log.add("lower") })
            .start { log.add("observer \($0)") }
        disposable.dispose()
        #expect(log.all == ["upper", "lower", "observer INTERRUPTED"])
    }

    @Test func anOperatorFurtherDownEndingTheStartInterruptsUpstreamCallbacks() {
        let log = CallLog()
        SignalProducer<Int, Never>(1...100)
            .on(interrupted: { log.add("interrupted") }, disposed: { log.add("disposed") }, value: { log.add("value \($0)") })
            .take(first: 2)
            .start()
        #expect(log.all == ["value 1", "value 2", "interrupted", "disposed"])
    }

    @Test func disposalDuringACallbackRunsTheEndOnTheSendingThreadRightAfter() {
        // The disposing thread does not wait for the callback; the sending thread runs the end as
        // soon as its event is done (as ReactiveSwift hands a terminal event to the sender).
        let log = CallLog()
        let inside = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let waited = Locked<DispatchTimeoutResult?>(nil)
        let sender = Locked<ThreadID?>(nil)
        let (signal, input) = Signal<Int, Never>.pipe()
        let disposable = signal.producer.on(
            interrupted: { log.add("interrupted \(ThreadID.current == sender.withLock { $0 })") },
            disposed: { log.add("disposed \(ThreadID.current == sender.withLock { $0 })") },
            value: { value in
                log.add("value \(value)")
                if value == 1 {
                    inside.signal()
                    waited.withLock { $0 = proceed.wait(timeout: .now() + 300) }
                }
            }
        ).start()
        DispatchQueue.global().async {
            inside.wait()
            disposable.dispose()
            proceed.signal()
        }
        sender.withLock { $0 = ThreadID.current }
        input.send(value: 1)
        input.send(value: 2)
        #expect(waited.withLock { $0 } == .success)
        #expect(log.all == ["value 1", "interrupted true", "disposed true"])
    }

    @Test func producerCallbacksRunOncePerStart_P2() {
        let log = CallLog()
        let producer = loggedProducer(log)(SignalProducer<Int, Never>(value: 7))
        producer.start()
        producer.start()
        #expect(log.all.filter { $0 == "starting" }.count == 2)
        #expect(log.all.filter { $0 == "disposed" }.count == 2)
        #expect(log.all.filter { $0 == "value 7" }.count == 2)
    }

    @Test func callbacksAreReleasedWhenTheStreamEnds_S5() {
        let tracked = WeakBox<Tracked>(nil)
        let (signal, input) = Signal<Int, Never>.pipe()
        let probe = GateProbe<Int, Never>()
        let disposable: Disposable
        do {
            let object = Tracked()
            tracked.object = object
            signal.on(value: { _ in _ = object }).observe { _ in }
            disposable = probe.producer.on(value: { _ in _ = object }).start()
        }
        #expect(tracked.object != nil)
        input.sendCompleted()
        disposable.dispose()
        #expect(tracked.object == nil)
    }
}

@Suite(.checksLiveObjects) struct OnEventsStressTests {
    @Test("on(…) stress: disposal races 7 senders; callbacks never overlap, one terminal, disposed last")
    func disposalRacingSenders() {
        for _ in 0..<30 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let detector = OverlapDetector()
            let log = CallLog()
            let values = Counter()
            let disposable = signal.producer.on(
                terminated: {
                    detector.enter(); log.add("terminated"); detector.leave()
                },
                disposed: {
                    detector.enter(); log.add("disposed"); detector.leave()
                },
                value: { _ in
                    detector.enter(); values.increment(); log.add("value"); detector.leave()
                }
            ).start()
            let finished = withWatchdog(seconds: 300, "on(…) senders") {
                runConcurrently(8) { thread in
                    for index in 0..<200 {
                        if thread == 7 {
                            if index == 100 { disposable.dispose() }
                        } else {
                            input.send(value: index)
                        }
                    }
                }
            }
            #expect(finished)
            #expect(detector.overlapCount == 0)
            // No value callback after the end, which runs once.
            let entries = log.all
            #expect(entries.suffix(2) == ["terminated", "disposed"])
            #expect(entries.dropLast(2).allSatisfy { $0 == "value" })
            #expect(entries.count - 2 == values.value)
            #expect(values.value <= 7 * 200)
        }
    }

    @Test("on(…) stress: disposal from another thread while a synchronous producer sends")
    func disposalRacingASynchronousProducer() {
        for _ in 0..<50 {
            let detector = OverlapDetector()
            let log = CallLog()
            let started = DispatchSemaphore(value: 0)
            let disposable = Locked<Disposable?>(nil)
            let producer = SignalProducer<Int, Never>(0..<20_000).on(
                completed: {
                    detector.enter(); log.add("completed"); detector.leave()
                },
                interrupted: {
                    detector.enter(); log.add("interrupted"); detector.leave()
                },
                disposed: {
                    detector.enter(); log.add("disposed"); detector.leave()
                },
                value: { value in
                    detector.enter()
                    if value == 0 { started.signal() }
                    log.add("value")
                    detector.leave()
                }
            )
            let finished = withWatchdog(seconds: 300, "on(…) with a synchronous producer") {
                runConcurrently(2) { thread in
                    if thread == 0 {
                        producer.startWithSignal { signal, interrupter in
                            signal.observe { _ in }
                            disposable.withLock { $0 = interrupter }
                        }
                    } else {
                        _ = started.wait(timeout: .now() + 300)
                        disposable.withLock { $0 }?.dispose()
                    }
                }
            }
            #expect(finished)
            #expect(detector.overlapCount == 0)
            let entries = log.all
            #expect(
                entries.suffix(2) == ["interrupted", "disposed"] || entries.suffix(2) == ["completed", "disposed"],
                "\(entries.suffix(4)) \(entries.count)")
            #expect(entries.dropLast(2).allSatisfy { $0 == "value" })
        }
    }
}
