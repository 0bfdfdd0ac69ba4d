import Dispatch
import Testing

@testable import Rivulet
import RivuletContracts

/// Issue 18: a producer started with `start(_:)` or a `startWith…` method delivers through a
/// `ProducerStart` (no signal core). These tests pin the contracts that the signal core used to
/// give it: serial, non-recursive delivery (E5, E6), nothing after a terminal event (E1), the
/// observer released after the terminal event and before the resources (S5), interruption on
/// disposal (P4).
@Suite(.checksLiveObjects) struct ProducerStartTests {
    /// Something an observer captures, to tell when the observer is released.
    final class Captured: Sendable {}

    /// A weak reference that closures on any thread may read.
    final class WeakReference: @unchecked Sendable {
        // @unchecked Sendable: `object` is written once, before the reference is shared, and the
        // runtime makes reading a weak reference thread-safe.
        weak var object: Captured?
    }

    static func describe(_ event: Signal<Int, Never>.Event) -> String {
        switch event {
        case let .value(value): "value(\(value))"
        case .completed: "completed"
        case .interrupted: "interrupted"
        }
    }

    @Test func aStartWithValuesDeliversEveryValueThenEnds_P2() {
        let producer = SignalProducer<Int, Never>(values: Array(0..<10)).map { $0 * 2 }.filter { $0 != 6 }
        let values = Locked<[Int]>([])
        let first = producer.startWithValues { value in values.withLock { $0.append(value) } }
        let second = producer.startWithValues { value in values.withLock { $0.append(value) } }
        let expected = [0, 2, 4, 8, 10, 12, 14, 16, 18]
        #expect(values.withLock { $0 } == expected + expected)
        // The start has ended: its lifetime is over.
        #expect(first.isDisposed && second.isDisposed)
    }

    @Test func theObserverIsReleasedAfterTheTerminalEventAndBeforeTheResources_S5() {
        let order = Locked<[String]>([])
        let weakCaptured = WeakReference()
        let (signal, input) = Signal<Int, Never>.pipe()
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded {
                order.withLock {
                    $0.append(weakCaptured.object == nil ? "resources after release" : "resources before release")
                }
            }
            lifetime += signal.observe(observer)
        }
        // The disposable is kept: the observer must go anyway, once the start has ended.
        let disposable: Disposable
        do {
            let captured = Captured()
            weakCaptured.object = captured
            disposable = producer.start { event in
                withExtendedLifetime(captured) {
                    order.withLock { $0.append(event.isTerminating ? "terminal" : "value") }
                }
            }
        }
        // Sent once `start` has returned, so that only the start holds the observer.
        input.send(value: 1)
        input.sendCompleted()
        #expect(order.withLock { $0 } == ["value", "terminal", "resources after release"])
        #expect(weakCaptured.object == nil)
        withExtendedLifetime(disposable) {}
    }

    @Test func aDisposalFromInsideTheObserverInterruptsAfterTheCurrentValue_E6_P4() {
        let log = Locked<[String]>([])
        let depth = Locked(0)
        let startBox = Locked<ProducerStart<Int, Never>?>(nil)
        let start = ProducerStart<Int, Never>(
            eventAction: { event in
                let nested = depth.withLock { depth -> Bool in
                    depth += 1
                    return depth > 1
                }
                log.withLock { $0.append(Self.describe(event) + (nested ? " (nested)" : "")) }
                if case .value(1) = event { startBox.withLock { $0 }?.dispose() }
                depth.withLock { $0 -= 1 }
            }, valueAction: nil)
        startBox.withLock { $0 = start }
        start.send(.value(1))
        // The interruption came after the value, not inside it, and nothing follows it.
        start.send(.value(2))
        start.send(.completed)
        #expect(log.withLock { $0 } == ["value(1)", "interrupted"])
        #expect(start.isDisposed)
        startBox.withLock { $0 = nil }
    }

    @Test func anEventSentFromInsideTheObserverIsDeliveredAfterTheCurrentOne_E6() {
        let log = Locked<[String]>([])
        let startBox = Locked<ProducerStart<Int, Never>?>(nil)
        let start = ProducerStart<Int, Never>(
            eventAction: { event in
                log.withLock { $0.append("begin " + Self.describe(event)) }
                if case .value(1) = event, let start = startBox.withLock({ $0 }) {
                    start.send(.value(2))
                    start.send(.completed)
                    start.send(.value(3))
                }
                log.withLock { $0.append("end " + Self.describe(event)) }
            }, valueAction: nil)
        startBox.withLock { $0 = start }
        start.send(.value(1))
        #expect(
            log.withLock { $0 } == [
                "begin value(1)", "end value(1)", "begin value(2)", "end value(2)", "begin completed", "end completed",
            ])
        startBox.withLock { $0 = nil }
    }

    @Test func nothingIsDeliveredAfterATerminalEvent_E1() {
        let recorder = EventRecorder<Int, TestError>()
        let start = ProducerStart<Int, TestError>(eventAction: recorder.record, valueAction: nil)
        start.send(.value(1))
        start.send(.failed(TestError(1)))
        start.send(.value(2))
        start.send(.completed)
        start.dispose()
        #expect(recorder.events == [.value(1), .failed(TestError(1))])
    }

    @Test func disposingOfAStartWhileAnotherThreadDeliversStress_E5_P4() {
        for _ in 0..<200 {
            let inDelivery = Locked(0)
            let overlapped = Locked(false)
            let recorder = EventRecorder<Int, Never>()
            let start = ProducerStart<Int, Never>(
                eventAction: { event in
                    inDelivery.withLock { count in
                        count += 1
                        if count > 1 { overlapped.withLock { $0 = true } }
                    }
                    recorder.record(event)
                    inDelivery.withLock { $0 -= 1 }
                }, valueAction: nil)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    // A chain's sink: serial sends from one thread.
                    for value in 0..<50 { start.send(.value(value)) }
                    start.send(.completed)
                } else {
                    start.dispose()
                }
            }
            let events = recorder.events
            #expect(!overlapped.withLock { $0 })
            #expect(events.filter(\.isTerminating).count == 1)
            #expect(events.last?.isTerminating == true)
            #expect(events.dropLast().map(\.value) == Array(0..<(events.count - 1)).map { Optional($0) })
            #expect(start.isDisposed)
        }
    }

    @Test func aProducerStartedAndDisposedOnManyThreadsReleasesEveryObserverStress_P4() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let producer = SignalProducer(signal).map { $0 + 1 }
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            weakCaptured = captured
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                for round in 0..<200 {
                    let disposable = producer.startWithValues { _ in withExtendedLifetime(captured) {} }
                    if index == 0 { input.send(value: round) }
                    disposable.dispose()
                }
            }
        }
        #expect(weakCaptured == nil)
    }

    @Test func aCompositeMadeWithoutAnyMemberNeedsNoLockedStateStress() {
        for _ in 0..<200 {
            let composite = CompositeDisposable()
            let disposals = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 0 {
                    composite.dispose()
                } else {
                    composite += { disposals.withLock { $0 += 1 } }
                }
            }
            // Each member is disposed of exactly once, whether added before or after the disposal.
            #expect(disposals.withLock { $0 } == 2)
            #expect(composite.isDisposed)
        }
    }
}
