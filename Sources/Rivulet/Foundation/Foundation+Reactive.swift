import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NotificationCenter: ReactiveExtensionsProvider {}

extension Reactive where Base: NotificationCenter {
    /// A signal of the notifications posted with `name` (and from `object`, if given).
    ///
    /// The registration lasts as long as the signal: it is removed when the signal is disposed of,
    /// which happens once it is neither reachable nor observed (S4). Notifications are delivered
    /// on the posting thread.
    public func notifications(forName name: Notification.Name?, object: AnyObject? = nil) -> Signal<Notification, Never> {
        let center = base
        return Signal { input, lifetime in
            let registration = center.addObserver(forName: name, object: object, queue: nil) { notification in
                input.send(value: notification)
            }
            // nonisolated(unsafe): the registration token is only handed back to the center, whose
            // `removeObserver` is thread-safe; the token itself is never read or mutated here.
            nonisolated(unsafe) let token = registration
            lifetime.observeEnded { center.removeObserver(token) }
        }
    }
}

extension URLSession: ReactiveExtensionsProvider {}

extension Reactive where Base: URLSession {
    /// A producer that, on each start, loads `request` and sends the data and response, then
    /// completes; or fails with the loading error. Disposing of a start cancels its task.
    public func data(with request: URLRequest) -> SignalProducer<(Data, URLResponse), Swift.Error> {
        let session = base
        return SignalProducer { observer, lifetime in
            let task = session.dataTask(with: request) { data, response, error in
                if let data, let response {
                    observer.send(value: (data, response))
                    observer.sendCompleted()
                } else {
                    observer.send(error: error ?? URLError(.badServerResponse))
                }
            }
            lifetime.observeEnded {
                // Cancelling a finished task crashes swift-corelibs-foundation on Linux.
                if task.state == .running || task.state == .suspended { task.cancel() }
            }
            task.resume()
        }
    }
}
