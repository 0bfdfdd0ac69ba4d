import Dispatch
import Foundation
@testable import Rivulet

/// An observer that keeps the thread delivering `trigger` to it waiting, so that a test can act
/// while another thread holds a signal's turn (and any turn it shares). Attached when made: the
/// observers attached after it have not yet received `trigger` while the delivery is held.
final class DeliveryHolder: Sendable {
    private let inside = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)

    init<Value: Equatable & Sendable, Error>(_ trigger: Value, on signal: Signal<Value, Error>) {
        signal.observeValues { [inside, release] value in
            if value == trigger {
                inside.signal()
                release.wait()
            }
        }
    }

    /// Runs `send` on another thread, and `body` once that thread is held inside the delivery of
    /// the trigger; returns once `body` has returned and the sending thread has finished.
    func whileHeld(sentBy send: @escaping @Sendable () -> Void, _ body: () -> Void) {
        let finished = DispatchSemaphore(value: 0)
        let sender = Thread {
            send()
            finished.signal()
        }
        sender.start()
        inside.wait()
        body()
        release.signal()
        finished.wait()
    }
}
