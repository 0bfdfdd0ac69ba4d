import Dispatch
import Foundation
import Testing
@testable import Rivulet

/// Races that only show up under load. CI runs this suite under Thread Sanitizer:
/// `swift test --sanitize=thread --filter StressTests`.
@Suite struct SignalStressTests {
    typealias IntSignal = Signal<Int, TestError>

    @Test("E5 stress: 8 senders, 4 observers, re-entrant sends mixed in")
    func E5_concurrentSendersWithReentrancy() {
        let (signal, input) = IntSignal.pipe()
        let detector = OverlapDetector()
        let recorders = (0..<4).map { _ in EventRecorder<Int, TestError>() }
        signal.observeValues { value in
            detector.enter()
            // Every 100th value echoes a re-entrant one, negative so it can be told apart.
            if value >= 0, value % 100 == 0 { input.send(value: -value - 1) }
            detector.leave()
        }
        for recorder in recorders { signal.observe(recorder.observer) }
        let finished = withWatchdog(seconds: 60, "concurrent senders") {
            runConcurrently(8) { thread in
                for index in 0..<1_000 { input.send(value: thread * 10_000 + index) }
            }
        }
        #expect(finished)
        #expect(detector.overlapCount == 0)
        let values = recorders[0].values
        #expect(values.count == 8_000 + 80)
        for recorder in recorders.dropFirst() { #expect(recorder.values == values) }
        // Each echo arrives right after the value that caused it (E6), even under contention.
        for (index, value) in values.enumerated() where value >= 0 && value % 100 == 0 {
            #expect(values[index + 1] == -value - 1)
        }
    }

    @Test("Observers attached and detached from other threads while values flow")
    func concurrentObserveAndDisposeDuringDelivery() {
        let (signal, input) = IntSignal.pipe()
        let stop = Locked(false)
        let anchor = EventRecorder<Int, TestError>()
        signal.observe(anchor.observer)
        let finished = withWatchdog(seconds: 60, "observe/dispose churn") {
            runConcurrently(4) { thread in
                if thread == 0 {
                    for value in 0..<20_000 { input.send(value: value) }
                    stop.withLock { $0 = true }
                } else {
                    while !stop.withLock({ $0 }) {
                        let recorder = EventRecorder<Int, TestError>()
                        let disposable = signal.observe(recorder.observer)
                        disposable?.dispose()
                        let countAtDisposal = recorder.values.count
                        // After dispose returns, at most an event already in flight can arrive.
                        usleep(10)
                        #expect(recorder.values.count <= countAtDisposal + 1)
                        // Whatever arrived is an increasing run of the sent values.
                        let seen = recorder.values
                        #expect(seen == seen.sorted())
                    }
                }
            }
        }
        #expect(finished)
        #expect(anchor.values == Array(0..<20_000))
    }

    @Test("Terminal racing terminal: every observer receives exactly one terminal event")
    func terminalRacingTerminal() {
        for round in 0..<300 {
            let (signal, input) = IntSignal.pipe()
            let recorders = (0..<3).map { _ in EventRecorder<Int, TestError>() }
            for recorder in recorders { signal.observe(recorder.observer) }
            runConcurrently(4) { thread in
                input.send(value: thread)
                switch thread % 3 {
                case 0: input.sendCompleted()
                case 1: input.send(error: TestError(thread))
                default: input.sendInterrupted()
                }
                input.send(value: 100 + thread)
            }
            for recorder in recorders {
                let events = recorder.events
                #expect(recorder.terminalCount == 1, "round \(round): \(events)")
                #expect(events.last?.isTerminating == true, "round \(round): \(events)")
                #expect(events == recorders[0].events)
            }
        }
    }

    @Test("Observers attached while a terminal races in end with exactly one terminal event")
    func observeRacingTerminal() {
        for _ in 0..<300 {
            let (signal, input) = IntSignal.pipe()
            let recorders = Locked([EventRecorder<Int, TestError>]())
            runConcurrently(3) { thread in
                if thread == 0 {
                    input.send(value: 1)
                    input.sendCompleted()
                } else {
                    for _ in 0..<5 {
                        let recorder = EventRecorder<Int, TestError>()
                        recorders.withLock { $0.append(recorder) }
                        signal.observe(recorder.observer)
                    }
                }
            }
            for recorder in recorders.withLock({ $0 }) {
                #expect(recorder.terminalCount == 1, "\(recorder.events)")
                #expect(recorder.events.last?.isTerminating == true)
            }
        }
    }

    @Test("Disposal racing a terminal event: resources are disposed of exactly once")
    func disposeRacingTerminal() {
        for _ in 0..<300 {
            let disposed = Counter()
            let (signal, input) = IntSignal.pipe(disposable: AnyDisposable { disposed.increment() })
            let disposables = (0..<2).map { _ in signal.observeValues { _ in }! }
            let signalBox = Locked<IntSignal?>(signal)
            runConcurrently(4) { thread in
                switch thread {
                case 0: input.sendInterrupted()
                case 1: disposables[0].dispose()
                case 2: disposables[1].dispose()
                default: signalBox.withLock { $0 = nil }
                }
            }
            _ = signal
            #expect(disposed.value == 1)
        }
    }

    @Test("The last reference to a signal going away while others send: no crash, resources disposed once")
    func deinitRacingSends() {
        for _ in 0..<200 {
            let disposed = Counter()
            let (input, holder): (IntSignal.Observer, Locked<IntSignal?>) = {
                let (signal, input) = IntSignal.pipe(disposable: AnyDisposable { disposed.increment() })
                return (input, Locked(signal))
            }()
            runConcurrently(3) { thread in
                if thread == 0 {
                    holder.withLock { $0 = nil }
                } else {
                    for value in 0..<50 { input.send(value: value) }
                }
            }
            #expect(disposed.value == 1)
        }
    }

    @Test("Released resources: observers and captured objects are freed after termination under contention")
    func observersReleasedAfterConcurrentTermination() {
        let box = WeakBox<Tracked>(nil)
        do {
            let (signal, input) = IntSignal.pipe()
            let captured = Tracked()
            box.object = captured
            signal.observeValues { _ in _ = captured }
            runConcurrently(4) { thread in
                for value in 0..<200 { input.send(value: value) }
                if thread == 3 { input.sendCompleted() }
            }
        }
        #expect(box.object == nil)
    }
}
