import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// Contract S1–S5: how signals start, share and end.
@Suite(.checksLiveObjects) struct SignalContractTests {
    typealias IntSignal = Signal<Int, TestError>

    // MARK: S1

    @Test("S1 the generator runs at creation, before init returns")
    func S1_generatorRunsAtCreation() {
        let runs = Counter()
        let signal = IntSignal { _, _ in runs.increment() }
        #expect(runs.value == 1)
        _ = signal
    }

    @Test("S1 events sent during creation reach no observer")
    func S1_eventsBeforeObservationAreNotReplayed() {
        var keep: IntSignal.Observer?
        let signal = IntSignal { observer, _ in
            observer.send(value: 1)
            keep = observer
        }
        let recorder = EventRecorder<Int, TestError>()
        signal.observe(recorder.observer)
        keep?.send(value: 2)
        #expect(recorder.events == [.value(2)])
        _ = keep
    }

    // MARK: S2

    @Test("S2 observing and disposing of observers has no side effects")
    func S2_observingHasNoSideEffects() {
        let generatorRuns = Counter()
        let endings = Counter()
        var input: IntSignal.Observer?
        let signal = IntSignal { observer, lifetime in
            generatorRuns.increment()
            lifetime.observeEnded { endings.increment() }
            input = observer
        }
        for _ in 0..<3 {
            signal.observeValues { _ in }?.dispose()
        }
        let recorder = EventRecorder<Int, TestError>()
        signal.observe(recorder.observer)
        input?.send(value: 1)
        #expect(generatorRuns.value == 1)
        #expect(endings.value == 0)
        #expect(recorder.values == [1])
        _ = input
    }

    // MARK: S3

    @Test("S3 every observer sees the same events in the same order")
    func S3_observersShareOneTimeline() {
        let (signal, input) = IntSignal.pipe()
        let recorders = (0..<4).map { _ in EventRecorder<Int, TestError>() }
        for recorder in recorders { signal.observe(recorder.observer) }
        runConcurrently(4) { thread in
            for index in 0..<500 { input.send(value: thread * 1_000 + index) }
        }
        input.sendCompleted()
        let first = recorders[0].events
        #expect(first.count == 2_001)
        for recorder in recorders.dropFirst() {
            #expect(recorder.events == first)
        }
    }

    @Test("S3 an observer added later sees only later events")
    func S3_lateObserverSeesLaterEvents() {
        let (signal, input) = IntSignal.pipe()
        let early = EventRecorder<Int, TestError>()
        let late = EventRecorder<Int, TestError>()
        signal.observe(early.observer)
        input.send(value: 1)
        signal.observe(late.observer)
        input.send(value: 2)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
    }

    @Test(
        "S3 observing a terminated signal yields interrupted at once and no disposable",
        arguments: [
            IntSignal.Event.completed, .failed(TestError()), .interrupted,
        ])
    func S3_observingATerminatedSignal(terminal: IntSignal.Event) {
        let (signal, input) = IntSignal.pipe()
        input.send(terminal)
        let recorder = EventRecorder<Int, TestError>(streams: 2)
        let disposable = signal.observe(recorder.observer)
        #expect(disposable == nil)
        #expect(recorder.events == [.interrupted])
        #expect(IntSignal.empty.observe(recorder.observer) == nil)
        #expect(recorder.events == [.interrupted, .interrupted])
    }

    @Test("S3 an observer added while the terminal event is delivered gets interrupted at once")
    func S3_observingDuringTerminalDelivery() {
        let (signal, input) = IntSignal.pipe()
        let late = EventRecorder<Int, TestError>()
        let lateDisposable = Locked<Disposable??>(nil)
        signal.observeCompleted {
            lateDisposable.withLock { $0 = .some(signal.observe(late.observer)) }
        }
        input.sendCompleted()
        #expect(late.events == [.interrupted])
        let recorded = lateDisposable.withLock { $0 }
        guard case .some(.none) = recorded else {
            Issue.record("observe during terminal delivery should return nil, got \(String(describing: recorded))")
            return
        }
    }

    // MARK: S4

    @Test("S4 an unreachable, unobserved signal is disposed of silently")
    func S4_abandonedSignalIsDisposedSilently() {
        let ended = Counter()
        let inputBox = Locked<IntSignal.Observer?>(nil)
        weak var weakSignal: IntSignal?
        do {
            let signal = IntSignal { observer, lifetime in
                inputBox.withLock { $0 = observer }
                lifetime.observeEnded { ended.increment() }
            }
            weakSignal = signal
            #expect(ended.value == 0)
        }
        #expect(weakSignal == nil)
        #expect(ended.value == 1)
        // Sending afterwards is a defined no-op.
        inputBox.withLock { $0 }?.send(value: 1)
    }

    @Test("S4 an observed signal stays alive while unreachable, and stops when the last observer leaves")
    func S4_observedSignalStaysAlive() {
        let ended = Counter()
        let recorder = EventRecorder<Int, TestError>()
        let (input, disposables) = { () -> (IntSignal.Observer, [Disposable]) in
            let (signal, input) = IntSignal.pipe(disposable: AnyDisposable { ended.increment() })
            let first = signal.observe(recorder.observer)!
            let second = signal.observeValues { _ in }!
            return (input, [first, second])
        }()
        input.send(value: 1)
        #expect(recorder.values == [1])
        #expect(ended.value == 0)
        disposables[0].dispose()
        input.send(value: 2)
        #expect(recorder.values == [1])
        #expect(ended.value == 0)
        disposables[1].dispose()
        #expect(ended.value == 1)
        // No event was sent by the silent disposal.
        #expect(recorder.events == [.value(1)])
    }

    @Test("S4 the input observer does not keep the signal object alive")
    func S4_inputDoesNotRetainSignal() {
        weak var weakSignal: IntSignal?
        let input: IntSignal.Observer = {
            let (signal, input) = IntSignal.pipe()
            weakSignal = signal
            return input
        }()
        #expect(weakSignal == nil)
        input.send(value: 1)
    }

    // MARK: S5

    @Test("S5 a terminal event releases observers and what they capture")
    func S5_terminalReleasesObservers() {
        let (signal, input) = IntSignal.pipe()
        let box = WeakBox<Tracked>(nil)
        do {
            let captured = Tracked()
            box.object = captured
            signal.observeValues { _ in _ = captured }
        }
        #expect(box.object != nil)
        input.sendCompleted()
        #expect(box.object == nil)
    }

    @Test("S5 a terminal event disposes of resources after observers receive it")
    func S5_terminalDisposesResourcesAfterDelivery() {
        let order = Locked([String]())
        let (s, input) = IntSignal.pipe(disposable: AnyDisposable { order.withLock { $0.append("disposable") } })
        s.observeCompleted { order.withLock { $0.append("completed") } }
        input.sendCompleted()
        #expect(order.withLock { $0 } == ["completed", "disposable"])
    }

    @Test("S5 the observers are released before the resources are disposed of")
    func S5_observersAreReleasedBeforeTheResources() {
        final class ReleaseLogger: Sendable {
            let log: @Sendable () -> Void
            init(_ log: @escaping @Sendable () -> Void) { self.log = log }
            deinit { log() }
        }
        let order = Locked([String]())
        let (s, input) = IntSignal.pipe(disposable: AnyDisposable { order.withLock { $0.append("disposable") } })
        do {
            let logger = ReleaseLogger { order.withLock { $0.append("observer released") } }
            s.observeCompleted { withExtendedLifetime(logger) { order.withLock { $0.append("completed") } } }
        }
        input.sendCompleted()
        #expect(order.withLock { $0 } == ["completed", "observer released", "disposable"])
    }

    @Test("S5 disposing of an observer releases it and what it captures")
    func S5_disposalReleasesTheObserver() {
        let (signal, input) = IntSignal.pipe()
        let box = WeakBox<Tracked>(nil)
        var disposable: Disposable?
        do {
            let captured = Tracked()
            box.object = captured
            disposable = signal.observeValues { _ in _ = captured }
        }
        disposable?.dispose()
        disposable = nil
        #expect(box.object == nil)
        input.send(value: 1)
    }

    // MARK: Observe and dispose from inside an observer

    @Test("An observer that disposes of itself receives nothing more, not even queued values")
    func disposeSelfInsideObserver() {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        let ownDisposable = Locked<Disposable?>(nil)
        let observerAction: IntSignal.Observer.Action = { event in
            recorder.record(event)
            input.send(value: 99) // queued
            ownDisposable.withLock { $0 }?.dispose()
        }
        let disposable = signal.observe(observerAction)
        ownDisposable.withLock { $0 = disposable }
        withWatchdog { input.send(value: 1) }
        input.send(value: 2)
        #expect(recorder.events == [.value(1)])
        #expect(disposable?.isDisposed == true)
    }

    @Test("An observer that disposes of a later observer stops the current event reaching it")
    func disposeOtherInsideObserver() {
        let (signal, input) = IntSignal.pipe()
        let later = EventRecorder<Int, TestError>()
        let laterDisposable = Locked<Disposable?>(nil)
        signal.observeValues { value in
            if value == 2 { laterDisposable.withLock { $0 }?.dispose() }
        }
        let disposable = signal.observe(later.observer)
        laterDisposable.withLock { $0 = disposable }
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        #expect(later.values == [1])
    }

    @Test("An observer added from inside an observer receives the next events, not the current one", .observerKeepsWhatItObserves)
    func observeInsideObserver() {
        let (signal, input) = IntSignal.pipe()
        let added = EventRecorder<Int, TestError>()
        let didAdd = Locked(false)
        signal.observeValues { value in
            let shouldAdd = didAdd.withLock { done in
                defer { done = true }
                return !done
            }
            if shouldAdd {
                signal.observe(added.observer)
                input.send(value: value + 100) // queued: the new observer is attached by then
            }
        }
        withWatchdog { input.send(value: 1) }
        input.send(value: 2)
        #expect(added.values == [101, 2])
    }

    @Test("Disposing twice, or after termination, is a no-op")
    func disposeIsIdempotent() {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        let disposable = signal.observe(recorder.observer)
        disposable?.dispose()
        disposable?.dispose()
        input.sendCompleted()
        disposable?.dispose()
        #expect(recorder.events == [])
    }

    @Test("Signal.never never terminates and is released when unreachable")
    func neverStaysSilent() {
        let recorder = EventRecorder<Int, TestError>()
        weak var weakSignal: IntSignal?
        do {
            let signal = IntSignal.never
            weakSignal = signal
            let disposable = signal.observe(recorder.observer)
            #expect(disposable != nil)
            disposable?.dispose()
        }
        #expect(weakSignal == nil)
        #expect(recorder.events == [])
    }
}
