import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// O7 for the delivery core itself: what a transition lets go of is released after the lock, so
/// a deinit that sends on the same signal neither deadlocks nor corrupts it.
@Suite(.checksLiveObjects) struct ObserverReleaseTests {
    /// Sends on `input` when it is deinitialized.
    final class SendsOnDeinit: Sendable {
        let input: Signal<Int, Never>.Observer
        let deinitialized: Locked<Bool>
        init(_ input: Signal<Int, Never>.Observer, _ deinitialized: Locked<Bool>) {
            self.input = input
            self.deinitialized = deinitialized
        }
        deinit {
            input.send(value: 99)
            deinitialized.withLock { $0 = true }
        }
    }

    @Test("An observer disposed during the terminal delivery is released after the lock (O7)")
    func observerDisposedDuringTerminalDeliveryIsReleasedOutsideTheLock() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let deinitialized = Locked(false)
        let later = Locked<Disposable?>(nil)
        // The first observer disposes of the second while the terminal event is being delivered:
        // the second is no longer in the observer list, so its detachment waits for the turn's
        // owner, and the detachment is the last thing that holds it.
        signal.observeCompleted {
            let disposable = later.withLock { held in
                defer { held = nil }
                return held
            }
            disposable?.dispose()
        }
        do {
            let capture = SendsOnDeinit(input, deinitialized)
            later.withLock { $0 = signal.observeValues { _ in _ = capture } }
        }
        let finished = withWatchdog(seconds: 300, "release of a detached observer") {
            input.sendCompleted()
        }
        #expect(finished)
        #expect(deinitialized.withLock { $0 })
    }
}
