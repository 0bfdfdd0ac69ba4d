import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// Races on the delivery core's lock-free path: an uncontended send claims and gives back the turn
/// with compare-and-swaps on the turn word, and observer changes made meanwhile wait for the turn's
/// owner. CI runs these under Thread Sanitizer (the suite name ends in `StressTests`).
@Suite(.checksLiveObjects) struct TurnWordStressTests {
    typealias IntSignal = Signal<Int, TestError>

    @Test("Observers attached from other threads during uncontended sends miss nothing after they attach")
    func observersAttachedDuringFastSendsSeeAContiguousRun() {
        let (signal, input) = IntSignal.pipe()
        let recorders = Locked<[EventRecorder<Int, TestError>]>([])
        let attachersDone = Locked(0)
        let sent = Locked(0)
        let finished = withWatchdog(seconds: 300, "attach during sends") {
            runConcurrently(3) { thread in
                if thread == 0 {
                    // Sends until both attachers are done, so every attachment races sends.
                    var value = 0
                    while attachersDone.withLock({ $0 }) < 2 {
                        input.send(value: value)
                        value += 1
                    }
                    sent.withLock { $0 = value }
                } else {
                    for _ in 0..<100 {
                        let recorder = EventRecorder<Int, TestError>()
                        signal.observe(recorder.observer)
                        recorders.withLock { $0.append(recorder) }
                        usleep(50)
                    }
                    attachersDone.withLock { $0 += 1 }
                }
            }
        }
        #expect(finished)
        input.sendCompleted()
        let total = sent.withLock { $0 }
        var observersThatSawValues = 0
        for recorder in recorders.withLock({ $0 }) {
            let values = recorder.values
            // Attached at some point, then every later value in order, up to the last one.
            if let first = values.first {
                observersThatSawValues += 1
                #expect(values == Array(first..<total))
            }
            #expect(recorder.terminalCount == 1)
        }
        // The test only means something if attachments raced the sends.
        #expect(observersThatSawValues > 0)
    }

    @Test("Observers that detach themselves and attach others from inside deliveries, under contention")
    func reentrantObserverChangesUnderContention() {
        let (signal, input) = IntSignal.pipe()
        let detector = OverlapDetector()
        let anchor = EventRecorder<Int, TestError>()
        signal.observe(anchor.observer)
        let deliveries = Locked(0)
        // Each delivery attaches a one-shot observer, which detaches itself on its first event.
        signal.observeValues { _ in
            detector.enter()
            let slot = Locked<Disposable?>(nil)
            let received = Locked(0)
            slot.withLock {
                $0 = signal.observeValues { _ in
                    received.withLock { $0 += 1 }
                    deliveries.withLock { $0 += 1 }
                    slot.withLock { $0 }?.dispose()
                }
            }
            detector.leave()
        }
        let finished = withWatchdog(seconds: 300, "re-entrant observer changes") {
            runConcurrently(4) { thread in
                for index in 0..<2_000 { input.send(value: thread * 10_000 + index) }
            }
        }
        #expect(finished)
        #expect(detector.overlapCount == 0)
        #expect(anchor.values.count == 8_000)
        // Every one-shot observer but the last one attached received exactly one event.
        #expect(deliveries.withLock { $0 } == 8_000 - 1)
        // The one-shot observers have detached: only the anchor, the attacher and the last
        // one-shot observer remain.
        #expect(signal.core.observerCount == 3)
    }

    @Test("A signal dropped by its owner while another thread sends stops silently, exactly once")
    func silentDisposalRacingFastSends() {
        /// The signal lives only in the returned box (and through its observation).
        func makeSignal(
            _ disposals: Locked<Int>
        ) -> (box: Locked<IntSignal?>, input: IntSignal.Observer, observation: Locked<Disposable?>) {
            let (output, input) = IntSignal.pipe(disposable: AnyDisposable { disposals.withLock { $0 += 1 } })
            return (Locked(output), input, Locked(output.observeValues { _ in }))
        }
        for _ in 0..<200 {
            let disposals = Locked(0)
            let (box, input, observation) = makeSignal(disposals)
            runConcurrently(2) { thread in
                if thread == 0 {
                    for value in 0..<200 { input.send(value: value) }
                } else {
                    box.withLock { $0 = nil }
                    observation.withLock { $0 }?.dispose()
                }
            }
            // Unreachable and unobserved: disposed of once, and later sends are ignored.
            #expect(disposals.withLock { $0 } == 1)
            input.send(value: -1)
            #expect(disposals.withLock { $0 } == 1)
        }
    }
}
