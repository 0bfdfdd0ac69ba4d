import Dispatch
import Foundation

/// Makes two calls of a closure on two threads overlap for certain: the first call to `meet()`
/// waits until a second one arrives (or a generous limit passes), and the second releases it.
///
/// The broken operators that run their closure on two threads at once (`mapWarmingAhead`) break
/// E5 only when the two calls really overlap; with a closure that returns at once, a loaded
/// machine can run them one after the other, and the kit, which sees only overlaps, rightly
/// reports nothing. Meeting inside the closure makes the breach the test expects happen every
/// time.
final class OverlapRendezvous: @unchecked Sendable {
    // @unchecked Sendable: `waiting` is read and written only under `lock`.
    private let lock = NSLock()
    private var waiting: DispatchSemaphore?

    func meet() {
        lock.lock()
        if let partner = waiting {
            waiting = nil
            lock.unlock()
            partner.signal()
            return
        }
        let arrived = DispatchSemaphore(value: 0)
        waiting = arrived
        lock.unlock()
        if arrived.wait(timeout: .now() + 60) == .timedOut {
            lock.lock()
            if waiting === arrived { waiting = nil }
            lock.unlock()
        }
    }
}
