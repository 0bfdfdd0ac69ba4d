import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// Races that only show up under load. CI runs this suite under Thread Sanitizer:
/// `swift test --sanitize=thread --filter StressTests`.
@Suite(.checksLiveObjects) struct SignalStressTests {
    typealias IntSignal = Signal<Int, TestError>

    @Test("E5 stress: 8 senders, 4 observers, re-entrant sends mixed in", .observerKeepsWhatItObserves)
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
        let finished = withWatchdog(seconds: 300, "concurrent senders") {
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
        let finished = withWatchdog(seconds: 300, "observe/dispose churn") {
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

    @Test(
        "Disposal racing a terminal event: the terminal arrives at most once and last, no call begins at an observer after its disposal returned but the one in flight, resources are disposed of exactly once"
    )
    func disposeRacingTerminal() {
        for round in 0..<400 {
            let resources = CountingDisposable()
            let observers = (0..<2).map { _ in RacingObserver() }
            // The test keeps the input and the observations' handles, never the signal: the holder
            // is its only strong reference, and thread 3 drops it during the race. Once both
            // observations are disposed of and the signal is unreachable, it is disposed of
            // silently (S4), which races the terminal event (S5).
            let (input, handles, holder, captures) = {
                let (signal, input) = IntSignal.pipe(disposable: resources)
                var handles: [any Disposable] = []
                var captures: [WeakBox<Tracked>] = []
                for observer in observers {
                    let captured = Tracked()
                    captures.append(WeakBox(captured))
                    handles.append(
                        signal.observe { event in
                            _ = captured
                            observer.receive(event)
                        }!)
                }
                return (input, handles, Locked<IntSignal?>(signal), captures)
            }()
            resources.onDispose = { observers.allSatisfy { !$0.isInsideTerminal } }
            runConcurrently(4) { thread in
                switch thread {
                case 0:
                    for value in 0..<4 { input.send(value: value) }
                    switch round % 3 {
                    case 0: input.sendCompleted()
                    case 1: input.send(error: TestError(round))
                    default: input.sendInterrupted()
                    }
                    input.send(value: 100)
                case 1, 2:
                    handles[thread - 1].dispose()
                    observers[thread - 1].disposalReturned()
                default:
                    let last = holder.withLock { signal -> IntSignal? in
                        defer { signal = nil }
                        return signal
                    }
                    _ = last
                }
            }
            #expect(resources.disposeCount == 1, "round \(round): resources disposed of \(resources.disposeCount) times")
            #expect(
                resources.disposedDuringATerminalDelivery == false,
                "round \(round): resources disposed of while an observer received the terminal event (S5)")
            for (index, observer) in observers.enumerated() {
                let events = observer.events
                #expect(events.filter(\.isTerminating).count <= 1, "round \(round), observer \(index): \(events)")
                #expect(events.dropLast().allSatisfy { !$0.isTerminating }, "round \(round), observer \(index): \(events)")
                #expect(
                    events.compactMap(\.value) == Array(0..<events.compactMap(\.value).count),
                    "round \(round), observer \(index): \(events)")
                // The detached check happens just before an observer is called, so one event that
                // had passed it may still arrive after `dispose()` returned; never a second.
                #expect(
                    observer.callsStartedAfterDisposal <= 1,
                    "round \(round), observer \(index): \(observer.callsStartedAfterDisposal) calls after disposal returned")
            }
            for capture in captures {
                #expect(capture.object == nil, "round \(round): an observer's closure outlived the race")
            }
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

/// Counts every call to `dispose()`, unlike `AnyDisposable`, which runs its action only once and so
/// would hide a second disposal.
private final class CountingDisposable: Disposable {
    private struct State {
        var count = 0
        var onDispose: (@Sendable () -> Bool)?
        var disposedDuringATerminalDelivery = false
    }
    private let state = Locked(State())

    var disposeCount: Int { state.withLock { $0.count } }
    var isDisposed: Bool { disposeCount > 0 }
    var disposedDuringATerminalDelivery: Bool { state.withLock { $0.disposedDuringATerminalDelivery } }
    /// Checked at each disposal; returns whether the moment is allowed.
    var onDispose: (@Sendable () -> Bool)? {
        get { state.withLock { $0.onDispose } }
        set { state.withLock { $0.onDispose = newValue } }
    }

    func dispose() {
        let check = state.withLock { state -> (@Sendable () -> Bool)? in
            state.count += 1
            return state.onDispose
        }
        if let check, !check() {
            state.withLock { $0.disposedDuringATerminalDelivery = true }
        }
    }
}

/// An observer in `disposeRacingTerminal`: records its events, whether it is inside a terminal
/// event, and how many calls began after its disposal returned.
private final class RacingObserver: Sendable {
    private struct State {
        var events: [Signal<Int, TestError>.Event] = []
        var disposed = false
        var callsStartedAfterDisposal = 0
        var insideTerminal = false
    }
    private let state = Locked(State())

    var events: [Signal<Int, TestError>.Event] { state.withLock { $0.events } }
    var callsStartedAfterDisposal: Int { state.withLock { $0.callsStartedAfterDisposal } }
    var isInsideTerminal: Bool { state.withLock { $0.insideTerminal } }

    func receive(_ event: Signal<Int, TestError>.Event) {
        state.withLock { state in
            if state.disposed { state.callsStartedAfterDisposal += 1 }
            state.insideTerminal = event.isTerminating
        }
        // Widen the window in which the resources could be disposed of too early.
        for _ in 0..<20 { _ = ThreadID.current }
        state.withLock { state in
            state.events.append(event)
            state.insideTerminal = false
        }
    }

    func disposalReturned() {
        state.withLock { $0.disposed = true }
    }
}
