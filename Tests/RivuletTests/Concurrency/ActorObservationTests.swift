import Dispatch
import Foundation
import Testing

@testable import Rivulet
import RivuletContracts

/// Observation on an actor (`observe(isolatedTo:_:)` and its siblings): the closure runs on the
/// actor with the actor as its `isolated` parameter, events arrive in order, one at a time, each
/// once, the terminal event last, and nothing starts after disposal.
///
/// No timing assertion: the tests wait (up to 300 s, for a starved two-core machine) only for
/// events that must happen. "Nothing after disposal" is checked where it is deterministic: the
/// actor is held inside a delivery while the later events are queued and the observation is
/// disposed of, so the drain can only find the mark when it resumes.
@Suite(.checksLiveObjects) struct ActorObservationTests {
    /// One value of one sending thread.
    struct Sent: Sendable, Equatable {
        let sender: Int
        let sequence: Int
    }

    /// State that the closures mutate synchronously: this compiles only because they run
    /// isolated to the actor.
    actor Model<Value: Sendable> {
        var values: [Value] = []
        var terminals: [String] = []
        var eventsAfterTerminal = 0
        let overlap = OverlapDetector()

        func record<Error>(_ event: Signal<Value, Error>.Event) {
            if !terminals.isEmpty { eventsAfterTerminal += 1 }
            switch event {
            case .value(let value): values.append(value)
            case .failed: terminals.append("failed")
            case .completed: terminals.append("completed")
            case .interrupted: terminals.append("interrupted")
            }
        }

        var isFinished: Bool { !terminals.isEmpty }
        var count: Int { values.count }
    }

    // MARK: Order

    @Test func eventsFromFourThreadsArriveInEachSendersOrderOneAtATimeEachOnce() async {
        let model = Model<Sent>()
        let (signal, input) = Signal<Sent, Never>.pipe()
        let disposable = signal.observe(isolatedTo: model) { model, event in
            model.assertIsolated()
            model.overlap.enter()
            model.record(event)
            model.overlap.leave()
        }
        #expect(disposable != nil)

        let perSender = 2_500
        await onThread("four senders") {
            runConcurrently(4) { sender in
                for sequence in 0..<perSender {
                    input.send(value: Sent(sender: sender, sequence: sequence))
                }
            }
            input.sendCompleted()
        }

        await waitUntil("the completion arrives") { await model.isFinished }
        let values = await model.values
        #expect(values.count == 4 * perSender)
        for sender in 0..<4 {
            #expect(values.filter { $0.sender == sender }.map(\.sequence) == Array(0..<perSender))
        }
        #expect(await model.terminals == ["completed"])
        #expect(await model.eventsAfterTerminal == 0)
        #expect(model.overlap.overlapCount == 0)
    }

    @Test func aProducersEventsArriveInOrderOnTheActorThenItsFailure() async {
        let model = Model<Int>()
        let producer = SignalProducer<Int, TestError> { observer, _ in
            for value in 0..<1_000 { observer.send(value: value) }
            observer.send(error: TestError(1))
        }
        producer.start(isolatedTo: model) { model, event in
            model.assertIsolated()
            model.record(event)
        }
        await waitUntil("the failure arrives") { await model.isFinished }
        #expect(await model.values == Array(0..<1_000))
        #expect(await model.terminals == ["failed"])
        #expect(await model.eventsAfterTerminal == 0)
    }

    @Test func valuesOnlyClosuresSeeEveryValueInOrder() async {
        let model = Model<Int>()
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.observeValues(isolatedTo: model) { model, value in model.values.append(value) }
        SignalProducer(0..<300).startWithValues(isolatedTo: model) { model, value in
            model.values.append(value + 1_000)
        }
        for value in 0..<300 { input.send(value: value) }
        await waitUntil("600 values arrive") { await model.count == 600 }
        let values = await model.values
        #expect(values.filter { $0 < 1_000 } == Array(0..<300))
        #expect(values.filter { $0 >= 1_000 } == Array(1_000..<1_300))
    }

    @Test func aPropertyDeliversItsCurrentValueThenEveryChange() async {
        let model = Model<Int>()
        let property = MutableProperty(10)
        let disposable = property.observeValues(isolatedTo: model) { model, value in
            model.values.append(value)
        }
        for value in 11...20 { property.value = value }
        await waitUntil("eleven values arrive") { await model.count == 11 }
        #expect(await model.values == Array(10...20))
        disposable.dispose()
    }

    // MARK: Terminal events and disposal

    @Test func observingATerminatedSignalDeliversInterruptedOnTheActor() async {
        let model = Model<Int>()
        let (signal, input) = Signal<Int, Never>.pipe()
        input.sendCompleted()
        let disposable = signal.observe(isolatedTo: model) { model, event in model.record(event) }
        #expect(disposable == nil)
        await waitUntil("the interruption arrives") { await model.isFinished }
        #expect(await model.terminals == ["interrupted"])
    }

    @Test func disposingStopsDeliveryAndTheRunningEventFinishes() async {
        let model = Model<Int>()
        let (signal, input) = Signal<Int, Never>.pipe()
        let entered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let disposable = signal.observe(isolatedTo: model) { model, event in
            if case .value(1) = event {
                entered.signal()
                // Holds the actor while the test queues more events and disposes.
                resume.wait()
            }
            model.record(event)
        }
        guard let disposable else {
            Issue.record("the signal had not terminated")
            return
        }
        await onThread("dispose during a delivery") {
            input.send(value: 1)
            _ = waitFor(entered, seconds: 300)
            input.send(value: 2)
            input.send(value: 3)
            disposable.dispose()
            input.send(value: 4)
            input.sendCompleted()
            resume.signal()
        }
        // This job runs on the actor after the drain's turn, which ended at the disposal mark.
        #expect(await model.values == [1])
        #expect(await model.terminals == [])
        #expect(disposable.isDisposed)
    }

    @Test func disposingFromInsideTheClosureStopsTheEventsAlreadyQueued() async {
        let model = Model<Int>()
        let (signal, input) = Signal<Int, Never>.pipe()
        let handle = Locked<Disposable?>(nil)
        let disposable = signal.observe(isolatedTo: model) { model, event in
            model.record(event)
            if case .value(1) = event { handle.withLock { $0 }?.dispose() }
        }
        handle.withLock { $0 = disposable }
        await onThread("send a burst") {
            for value in 1...100 { input.send(value: value) }
            input.sendCompleted()
        }
        await waitUntil("the first value arrives") { await model.count == 1 }
        // The disposal happened in the delivery of 1; the same turn on the actor then found the
        // mark, so this later job sees the final state.
        #expect(await model.values == [1])
        #expect(await model.terminals == [])
    }

    @Test func disposingAProducersStartInterruptsItWithoutDeliveringTheInterruption() async {
        let model = Model<Int>()
        let interrupted = Counter()
        let (signal, input) = Signal<Int, Never>.pipe()
        let producer = SignalProducer(signal).on(interrupted: { interrupted.increment() })
        let disposable = producer.start(isolatedTo: model) { model, event in model.record(event) }
        input.send(value: 1)
        await waitUntil("the value arrives") { await model.count == 1 }
        disposable.dispose()
        #expect(interrupted.value == 1)
        input.send(value: 2)
        #expect(await model.values == [1])
        #expect(await model.terminals == [])
    }

    @Test func theClosureIsReleasedOnceTheTerminalEventIsDelivered() async {
        let model = Model<Int>()
        let (signal, input) = Signal<Int, Never>.pipe()
        var tracked: Tracked? = Tracked()
        let watch = WeakBox(tracked)
        let disposable = signal.observe(isolatedTo: model) { [tracked] model, event in
            withExtendedLifetime(tracked) { model.record(event) }
        }
        tracked = nil
        input.send(value: 1)
        input.sendCompleted()
        await waitUntil("the completion arrives") { await model.isFinished }
        // The mailbox lets go of the closure in the same turn on the actor, after the delivery.
        _ = await model.count
        #expect(watch.object == nil)
        withExtendedLifetime(disposable) {}
    }

    @Test func theClosureIsReleasedWhenTheObservationIsDisposedOf() {
        let model = Model<Int>()
        let (signal, input) = Signal<Int, Never>.pipe()
        var tracked: Tracked? = Tracked()
        let watch = WeakBox(tracked)
        let disposable = signal.observe(isolatedTo: model) { [tracked] model, event in
            withExtendedLifetime(tracked) { model.record(event) }
        }
        tracked = nil
        let aliveWhileObserved = watch.object != nil
        #expect(aliveWhileObserved)
        disposable?.dispose()
        #expect(disposable?.isDisposed == true)
        #expect(watch.object == nil)
        withExtendedLifetime(input) {}
    }

    // MARK: Overloads

    @Test func observeOnASchedulerStillReturnsASignal() async {
        let model = Model<Int>()
        let (signal, input) = Signal<Int, Never>.pipe()
        // The operator with a scheduler returns a signal; the actor observation takes a closure.
        let moved: Signal<Int, Never> = signal.observe(on: ActorScheduler(model))
        let producer: SignalProducer<Int, Never> = SignalProducer(0..<3).observe(on: ImmediateScheduler())
        moved.observeValues(isolatedTo: model) { model, value in model.values.append(value) }
        producer.startWithValues(isolatedTo: model) { model, value in model.values.append(100 + value) }
        input.send(value: 7)
        await waitUntil("four values arrive") { await model.count == 4 }
        #expect(await model.values.sorted() == [7, 100, 101, 102])
    }
}

// MARK: Main actor

/// The main actor is an actor (`MainActor.shared`), but a closure with an `isolated MainActor`
/// parameter may not touch `@MainActor` state in Swift 6.3: the overloads that take a
/// `@MainActor` closure give that access. On Linux the test runner services the main queue, as
/// UISchedulerTests rely on.
@MainActor
@Suite(.checksLiveObjects) struct MainActorObservationTests {
    @MainActor final class ViewModel {
        var values: [Int] = []
        var terminals = 0
    }

    @Test func aMainActorClosureReachesMainActorState() async {
        let viewModel = ViewModel()
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.observe(isolatedTo: MainActor.shared) { event in
            switch event {
            case .value(let value): viewModel.values.append(value)
            case .completed, .interrupted: viewModel.terminals += 1
            }
        }
        let property = MutableProperty(0)
        let disposable = property.observeValues(isolatedTo: MainActor.shared) { value in
            viewModel.values.append(1_000 + value)
        }
        await onThread("send from another thread") {
            for value in 1...100 { input.send(value: value) }
            input.sendCompleted()
            property.value = 1
        }
        await waitUntil("every event arrives") { viewModel.terminals == 1 && viewModel.values.count == 102 }
        #expect(viewModel.values.filter { $0 < 1_000 } == Array(1...100))
        #expect(viewModel.values.filter { $0 >= 1_000 } == [1_000, 1_001])
        disposable.dispose()
    }

    @Test func theGenericFormRunsIsolatedToTheMainActor() async {
        let log = ScheduledLog<Int>()
        let disposable = SignalProducer(0..<50).startWithValues(isolatedTo: MainActor.shared) { main, value in
            main.assertIsolated()
            MainActor.assertIsolated()
            log.append(value)
        }
        await waitUntil("fifty values arrive") { log.count == 50 }
        #expect(log.items == Array(0..<50))
        withExtendedLifetime(disposable) {}
    }
}

/// Waits until `condition` holds, for up to `seconds` (a guard against a hang on a starved machine,
/// not a timing assertion).
func waitUntil(
    isolation: isolated (any Actor)? = #isolation,
    _ what: String,
    within seconds: Double = 300,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async -> Bool
) async {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1_000_000_000)
    while await !condition() {
        if DispatchTime.now().uptimeNanoseconds > deadline {
            Issue.record("\(what): did not happen within \(seconds)s", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
}

/// Runs `body` on a new thread and waits for it without blocking a thread of the cooperative pool
/// (which has two threads on a two-core machine, and which the actors under test need).
func onThread(_ what: String, _ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            body()
            continuation.resume()
        }
        thread.stackSize = 1 << 22
        thread.start()
    }
}
