import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct FoundationReactiveTests {
    @Test func notificationsAreSentWhileTheSignalLives() {
        let center = NotificationCenter()
        let name = Notification.Name("rivulet.test")
        let received = Locked<[String]>([])
        let disposable = center.reactive.notifications(forName: name).observeValues { notification in
            let id = notification.userInfo?["id"] as? String ?? "?"
            received.withLock { $0.append(id) }
        }
        center.post(name: name, object: nil, userInfo: ["id": "a"])
        center.post(name: Notification.Name("other"), object: nil, userInfo: ["id": "x"])
        center.post(name: name, object: nil, userInfo: ["id": "b"])
        disposable?.dispose()
        center.post(name: name, object: nil, userInfo: ["id": "c"])
        #expect(received.withLock { $0 } == ["a", "b"])
    }

    @Test func notificationsFilterByObject() {
        let center = NotificationCenter()
        let name = Notification.Name("rivulet.object")
        let sender = NSObject()
        let counter = Counter()
        let disposable = center.reactive.notifications(forName: name, object: sender).observeValues { _ in
            counter.increment()
        }
        center.post(name: name, object: NSObject())
        center.post(name: name, object: sender)
        #expect(counter.value == 1)
        disposable?.dispose()
    }

    @Test func urlSessionDataFailsWithTheLoadingError() {
        // No network in the test environment: an unsupported scheme fails without one.
        let finished = DispatchSemaphore(value: 0)
        let recorded = Locked<[String]>([])
        let request = URLRequest(url: URL(string: "rivulet-unsupported://example")!)
        URLSession.shared.reactive.data(with: request).start { event in
            switch event {
            case .value: recorded.withLock { $0.append("value") }
            case let .failed(error): recorded.withLock { $0.append("failed \((error as? URLError)?.code == .unsupportedURL)") }
            case .completed: recorded.withLock { $0.append("completed") }
            case .interrupted: recorded.withLock { $0.append("interrupted") }
            }
            if event.isTerminating { finished.signal() }
        }
        #expect(finished.wait(timeout: .now() + 300) == .success)
        #expect(recorded.withLock { $0 } == ["failed true"])
    }

    @Test func disposingAURLSessionStartInterruptsIt_P4() {
        let recorder = EventRecorder<(Data, URLResponse), Swift.Error>()
        let request = URLRequest(url: URL(string: "http://192.0.2.1/never")!, timeoutInterval: 1)
        URLSession.shared.reactive.data(with: request).start(recorder.observer).dispose()
        #expect(recorder.events.count == 1)
        #expect(recorder.events.first.map { if case .interrupted = $0 { true } else { false } } == true)
    }
}

@Suite(.checksLiveObjects) struct UnserializedAliasTests {
    @Test(.observerKeepsWhatItObserves) func unserializedSignalsAreStillSerializedAndQueueReentrantSends_E6() {
        let (signal, input) = Signal<Int, Never>.reentrantUnserializedPipe()
        let seen = Locked<[Int]>([])
        signal.observeValues { value in
            seen.withLock { $0.append(value) }
            if value == 1 { input.send(value: 2) }
            seen.withLock { $0.append(-value) }
        }
        input.send(value: 1)
        #expect(seen.withLock { $0 } == [1, -1, 2, -2])
    }

    @Test func unserializedProducerRunsItsStartHandler() {
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never>.unserialized { observer, _ in
            observer.send(value: 1)
            observer.sendCompleted()
        }.start(recorder.observer)
        #expect(recorder.events == [.value(1), .completed])
    }
}
