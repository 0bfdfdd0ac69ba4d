import Testing
@testable import Rivulet
import RivuletContracts

/// Issue 16: disposing of a producer's start delivers the interruption the way ReactiveSwift
/// does. It enters at the source and flows down through every operator of the fused chain; an
/// operator that delivers on a scheduler stops forwarding and delivers it there.
@Suite(.checksLiveObjects) struct ProducerDisposalTests {
    @Test func disposalAfterObserveOnDeliversInterruptedOnTheScheduler_P4() {
        let scheduler = TestScheduler()
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer<Int, Never>.never.observe(on: scheduler).start(recorder.observer)
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposalDropsValuesNotYetDeliveredByTheScheduler_P4() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer(signal).observe(on: scheduler).start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        input.send(value: 2)
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposalOfNeverInterruptsAtOnce_P4() {
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer<Int, Never>.never.start(recorder.observer)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
    }

    @Test func onCallbacksSeeTheInterruptionBeforeTheObserver_P4() {
        let log = Locked<[String]>([])
        let upstream = ManualProducer<Int, Never>()
        let disposable = upstream.producer
            .on(
                event: { event in log.withLock { $0.append("event \(event)") } },
                interrupted: { log.withLock { $0.append("interrupted") } },
                terminated: { log.withLock { $0.append("terminated") } },
                disposed: { log.withLock { $0.append("disposed") } }
            )
            .map { $0 }
            .start { event in log.withLock { $0.append("observer \(event)") } }
        disposable.dispose()
        #expect(
            log.withLock { $0 } == [
                "event INTERRUPTED", "interrupted", "terminated", "observer INTERRUPTED", "disposed",
            ])
    }

    @Test func stackedOnCallbacksRunFromTheSourceDown_P4() {
        let log = Locked<[String]>([])
        let disposable = SignalProducer<Int, Never>.never
            .on(interrupted: { log.withLock { $0.append("upper") } })
            .on(interrupted: { log.withLock { $0.append("lower") } })
            .startWithInterrupted { log.withLock { $0.append("observer") } }
        disposable.dispose()
        #expect(log.withLock { $0 } == ["upper", "lower", "observer"])
    }

    @Test func onCallbacksAfterObserveOnSeeTheInterruptionOnTheScheduler_P4() {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        let disposable = SignalProducer<Int, Never>.never
            .observe(on: scheduler)
            .on(interrupted: { log.withLock { $0.append("hook") } }, disposed: { log.withLock { $0.append("disposed") } })
            .startWithInterrupted { log.withLock { $0.append("observer") } }
        disposable.dispose()
        #expect(log.withLock { $0 } == [])
        scheduler.advance()
        #expect(log.withLock { $0 } == ["hook", "observer", "disposed"])
    }

    @Test func materializeSeesTheInterruptionOfADisposedStart_P4() {
        let upstream = ManualProducer<Int, TestError>()
        let recorder = EventRecorder<Signal<Int, TestError>.Event, Never>()
        let disposable = upstream.producer.materialize().start(recorder.observer)
        disposable.dispose()
        #expect(recorder.events == [.value(.interrupted), .interrupted])
    }

    @Test func materializeAfterASignalsProducerSeesTheInterruptionOfADisposedStart_P4() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Signal<Int, TestError>.Event, Never>()
        let disposable = signal.producer.materialize().start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        input.send(value: 2)
        #expect(recorder.events == [.value(.value(1)), .value(.interrupted), .interrupted])
    }

    @Test func disposalOfASignalsProducerFromInsideItsObserverComesAfterTheCurrentValue_E6() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Locked<[String]>([])
        let disposable = SerialDisposable()
        disposable.inner = signal.producer
            .materialize()
            .startWithValues { event in
                log.withLock { $0.append("\(event)") }
                if case .value = event { disposable.dispose() }
            }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.withLock { $0 } == ["VALUE 1", "INTERRUPTED"])
    }

    /// ReactiveSwift ends the start's lifetime once the interruption has reached the observer
    /// (checked against ReactiveSwift 7.2.1 with the same scenario).
    @Test func disposalFromInsideTheSourcesDeliveryEndsTheLifetimeAfterTheInterruption_P4() {
        let log = Locked<[String]>([])
        let upstream = ManualProducer<Int, Never>()
        let disposable = SerialDisposable()
        disposable.inner = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { log.withLock { $0.append("end") } }
            lifetime += upstream.producer.start(observer)
        }
        .map { $0 }
        .start { event in
            log.withLock { $0.append("observer \(event)") }
            if case .value = event { disposable.dispose() }
        }
        upstream.send(.value(1))
        #expect(log.withLock { $0 } == ["observer VALUE 1", "observer INTERRUPTED", "end"])
        #expect(disposable.isDisposed)
    }

    @Test func disposalInsideTheSourcesDeliveryEndsTheLifetimeAfterAMaterializedInterruption_P4() {
        let log = Locked<[String]>([])
        let (signal, input) = Signal<Int, Never>.pipe()
        let disposable = SerialDisposable()
        disposable.inner = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { log.withLock { $0.append("end") } }
            lifetime += signal.observe(observer)
        }
        .materialize()
        .filter { if case .value = $0 { return true } else { return false } }
        .start { event in
            log.withLock { $0.append("observer \(event)") }
            if case .value = event { disposable.dispose() }
        }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.withLock { $0 } == ["observer VALUE VALUE 1", "observer INTERRUPTED", "end"])
    }

    @Test func disposalFromInsideTheObserverIsDeliveredAfterTheCurrentEvent_E6() {
        let log = Locked<[String]>([])
        let upstream = ManualProducer<Int, Never>()
        let disposable = SerialDisposable()
        disposable.inner = upstream.producer
            .on(interrupted: { log.withLock { $0.append("hook") } })
            .start { event in
                log.withLock { $0.append("observer \(event)") }
                if case .value = event { disposable.dispose() }
            }
        upstream.send(.value(1))
        upstream.send(.value(2))
        #expect(log.withLock { $0 } == ["observer VALUE 1", "hook", "observer INTERRUPTED"])
    }

    @Test func disposalOfASynchronousChainOverASignalInterruptsItsOutput_P4() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer(signal).map { $0 * 2 }.start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        input.send(value: 2)
        #expect(recorder.events == [.value(2), .interrupted])
    }

    @Test func disposalBeforeTheSchedulerRunsDeliversExactlyOneInterruption_E1() {
        let scheduler = TestScheduler()
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer<Int, Never>(value: 1)
            .observe(on: scheduler)
            .delay(1, on: scheduler)
            .observe(on: scheduler)
            .start(recorder.observer)
        disposable.dispose()
        scheduler.run()
        #expect(recorder.events == [.interrupted])
    }

    @Test func flattenBelowAStageHoldingTheInterruptionEndsAtOnce_P4() {
        let scheduler = TestScheduler()
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer<SignalProducer<Int, Never>, Never>.never
            .observe(on: scheduler)
            .flatten(.latest)
            .start(recorder.observer)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        scheduler.run()
        #expect(recorder.events == [.interrupted])
    }
}
