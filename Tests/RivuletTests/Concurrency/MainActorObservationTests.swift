import Dispatch
import Foundation
import Testing

@testable import Rivulet

/// Observers written `{ @MainActor … }` run on the main actor: in order, one at a time, never
/// concurrently, whatever thread sends; at once when the event is sent on the main actor with
/// nothing queued. The tests live in `UISchedulerTests`, which is serialized, because the
/// synchronous path depends on no other `UIScheduler` work being pending.
extension UISchedulerTests {
    /// Where a main-actor observer ran, and in which order it saw the values.
    @MainActor
    final class MainActorLog {
        var values: [Int] = []
        var allOnMainQueue = true
        var running = 0
        var overlaps = 0

        func record(_ value: Int) {
            running += 1
            if running > 1 { overlaps += 1 }
            allOnMainQueue = allOnMainQueue && UIScheduler.isOnMainQueue
            values.append(value)
            running -= 1
        }
    }

    @MainActor
    @Test func aMainActorObserverGetsValuesSentFromOtherThreadsOnTheMainActorInOrder() async {
        let log = MainActorLog()
        let (signal, input) = Signal<Int, Never>.pipe()
        let disposable = signal.observeValues { @MainActor value in log.record(value) }

        // Four senders at once, 250 values each; each sender's values are in their own range.
        await Task.detached {
            DispatchQueue.concurrentPerform(iterations: 4) { sender in
                for index in 0..<250 { input.send(value: sender * 1_000 + index) }
            }
        }.value

        #expect(await eventually { log.values.count == 1_000 })
        #expect(log.allOnMainQueue)
        #expect(log.overlaps == 0)
        for sender in 0..<4 {
            let own = log.values.filter { $0 / 1_000 == sender }
            #expect(own == (0..<250).map { sender * 1_000 + $0 })
        }
        disposable?.dispose()
    }

    @MainActor
    @Test func aMainActorObserverRunsAtOnceWhenTheValueIsSentOnTheMainActor() {
        let log = MainActorLog()
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.observeValues { @MainActor value in log.record(value) }

        input.send(value: 1)
        #expect(log.values == [1])
        input.send(value: 2)
        #expect(log.values == [1, 2])
        #expect(log.allOnMainQueue)
    }

    @MainActor
    @Test func disposingAMainActorObservationDropsTheValuesStillQueued() async {
        let log = MainActorLog()
        let (signal, input) = Signal<Int, Never>.pipe()
        let disposable = signal.observeValues { @MainActor value in log.record(value) }

        // The main actor is busy with this test, so values sent from another thread now wait in
        // the main queue; disposing before yielding drops them.
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 0..<10 { input.send(value: value) }
            sent.signal()
        }
        #expect(waitFor(sent))
        disposable?.dispose()
        // A marker scheduled after the dropped values: once it ran, they would have run too.
        let marker = ScheduledLog<Bool>()
        UIScheduler().schedule { marker.append(true) }
        #expect(await eventually { marker.count == 1 })
        #expect(log.values.isEmpty)
    }

    @MainActor
    @Test func aMainActorProducerObserverSeesEveryEventKindOnTheMainActor() async {
        final class Ended: Sendable {
            let events = Locked<[String]>([])
        }
        let log = MainActorLog()
        let ended = Ended()
        let producer = SignalProducer<Int, TestError> { observer, _ in
            DispatchQueue.global().async {
                observer.send(value: 1)
                observer.send(value: 2)
                observer.send(error: TestError(7))
            }
        }
        producer.startWithValues { @MainActor value in log.record(value) }
        producer.startWithFailed { @MainActor error in
            ended.events.withLock { $0.append("failed \(error) on main: \(UIScheduler.isOnMainQueue)") }
        }
        producer.startWithResult { @MainActor result in
            if case let .success(value) = result { log.record(value * 10) }
        }

        #expect(await eventually { log.values.count == 4 && ended.events.withLock { $0.count } == 1 })
        #expect(log.values.filter { $0 < 10 } == [1, 2])
        #expect(log.values.filter { $0 >= 10 } == [10, 20])
        #expect(log.allOnMainQueue)
        #expect(ended.events.withLock { $0 } == ["failed TestError(code: 7) on main: true"])
    }

    @MainActor
    @Test func bindingToAMainActorObjectAppliesEachValueOnTheMainActor() async {
        @MainActor
        final class ViewModel {
            let log = MainActorLog()
            let (lifetime, token) = Lifetime.make()
            var title = ""
        }
        let model = ViewModel()
        let titles = MutableProperty("a")
        BindingTarget(lifetime: model.lifetime) { @MainActor [weak model] title in
            model?.title = title
            model?.log.record(title.count)
        } <~ titles
        #expect(model.title == "a")

        await Task.detached { titles.value = "bb" }.value
        #expect(await eventually { model.title == "bb" })
        #expect(model.log.values == [1, 2])
        #expect(model.log.allOnMainQueue)
    }
}
