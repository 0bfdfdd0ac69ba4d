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
    ///
    /// - Parameters:
    ///   - name: The notifications' name, or `nil` for all.
    ///   - object: The only sender to listen to, or `nil` for any; not retained.
    /// - Returns: A signal of the notifications, which never ends by itself.
    public func notifications(forName name: Notification.Name?, object: AnyObject? = nil) -> Signal<Notification, Never> {
        let center = base
        return Signal { input, lifetime in
            // The center calls the block on each posting thread; the input serializes those sends
            // (E5) and delivers each notification on the thread that posted it, as the center does.
            let sink = UncheckedTransfer(input)
            let registration = center.addObserver(forName: name, object: object, queue: nil) { notification in
                sink.value.send(value: notification)
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
    /// completes; or fails with the loading error.
    ///
    /// Disposing of a start interrupts it at once. On Apple platforms it also cancels the task; on
    /// Linux the task runs to its end and its result is ignored, because cancelling a finishing task
    /// can crash swift-corelibs-foundation.
    ///
    /// - Parameter request: The request to load on each start.
    /// - Returns: A producer of the loaded data with its response.
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
            #if canImport(FoundationNetworking)
            // swift-corelibs-foundation can crash when a task is cancelled while it finishes
            // ("a task that is not in the registry"), so on Linux a disposed start lets the load
            // finish and ignores its result: the start has already ended, so nothing more is sent.
            _ = lifetime
            #else
            lifetime.observeEnded { task.cancel() }
            #endif
            task.resume()
        }
    }
}
