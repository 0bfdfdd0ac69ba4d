import Foundation
import Testing

@testable import Rivulet
import RivuletContracts

/// Misuse of lifecycles (issue 19, item 6): what happens after a terminal event or a disposal is
/// defined, and the remaining programming errors stop with a message naming the API and the rule.
@Suite(.checksLiveObjects) struct LifecycleEdgeTests {
    @Test func eventsSentAfterATerminalEventAreIgnored_E1() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.observe(recorder.observer)
        input.sendCompleted()
        input.send(value: 1)
        input.send(error: TestError())
        input.sendInterrupted()
        input.sendCompleted()
        #expect(recorder.events == [.completed])
    }

    @Test func observingATerminatedSignalYieldsInterruptedAtOnce_S3() {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.sendCompleted()
        let recorder = EventRecorder<Int, Never>()
        #expect(signal.observe(recorder.observer) == nil)
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposingTwiceRunsTheActionOnce() {
        let runs = Counter()
        let disposable = AnyDisposable { _ = runs.increment() }
        disposable.dispose()
        disposable.dispose()
        #expect(runs.value == 1)
        #expect(disposable.isDisposed)
    }

    @Test func disposingAStartTwiceInterruptsItOnce_P4() {
        let recorder = EventRecorder<Int, Never>()
        let start = SignalProducer<Int, Never>.never.start(recorder.observer)
        start.dispose()
        start.dispose()
        #expect(recorder.events == [.interrupted])
    }

    @Test func addingToADisposedCompositeDisposesAtOnce() {
        let composite = CompositeDisposable()
        composite.dispose()
        let runs = Counter()
        let handle = composite.add(AnyDisposable { _ = runs.increment() })
        #expect(runs.value == 1)
        #expect(handle == nil)
    }

    @Test func anInnerSetOnADisposedSerialDisposableIsDisposedAtOnce() {
        let serial = SerialDisposable()
        serial.dispose()
        let runs = Counter()
        serial.inner = AnyDisposable { _ = runs.increment() }
        #expect(runs.value == 1)
    }

    @Test func observingAnEndedLifetimeRunsTheActionAtOnce() {
        let (lifetime, token) = Lifetime.make()
        token.dispose()
        let runs = Counter()
        #expect(lifetime.observeEnded { _ = runs.increment() } == nil)
        #expect(runs.value == 1)
    }

    @Test func removingFromABagTwiceIsANoOp() {
        var bag = Bag<String>()
        let token = bag.insert("a")
        bag.insert("b")
        #expect(bag.remove(using: token) == "a")
        #expect(bag.remove(using: token) == nil)
        #expect(Array(bag) == ["b"])
    }

    @Test func applyingADisabledActionFailsWithDisabled() {
        let action = Action<Int, Int, TestError>(enabledIf: Property(value: false)) { SignalProducer(value: $0) }
        let recorder = EventRecorder<Int, ActionError<TestError>>()
        action.apply(1).start(recorder.observer)
        #expect(recorder.events.count == 1)
        guard case .failed(.disabled) = recorder.events.first else {
            Issue.record("expected a .disabled failure, got \(recorder.events)")
            return
        }
    }
}

@Suite(.checksLiveObjects) struct LifecycleMisuseTests {
    @Test func aComposedPropertyWhoseSourceSendsNoValueIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Property(value: 1).lift { $0.skip(first: 1) }
        }
        expectStandardError(
            result,
            contains:
                "Rivulet: a composed property (lift(_:), Property(_:)): source sent no value when started; it must send one at once"
        )
    }

    @Test func twoTasksWaitingOnOneIterationIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (signal, input) = Signal<Int, Never>.pipe()
            // Two iterators sharing one iteration, as copies of one iterator do.
            let owner = signal.values.makeAsyncIterator().owner
            let other = Task {
                var iterator = AsyncValues<Int, Never>.Iterator(owner: owner)
                return await iterator.next()
            }
            var iterator = AsyncValues<Int, Never>.Iterator(owner: owner)
            // Nothing is sent: whichever of the two calls comes second finds the first waiting.
            _ = await iterator.next()
            _ = await other.value
            withExtendedLifetime(input) {}
        }
        expectStandardError(
            result,
            contains:
                "Rivulet: AsyncValues: next() was called while another call to next() on the same iteration was waiting; an iterator serves one task at a time"
        )
    }

    @Test func aDeadlockWaitThresholdOfZeroIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            DeadlockDiagnostics.waitThreshold = .zero
        }
        expectStandardError(
            result,
            contains:
                "Rivulet: DeadlockDiagnostics.waitThreshold: waitThreshold is 0.0 seconds; it must be greater than 0, or nil to turn reports off"
        )
    }

    @Test func anObserverSubclassThatDoesNotOverrideReceiveIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Forgetful: Rivulet.Observer<Int, Never> {}
            Forgetful().receive(1)
        }
        expectStandardError(
            result, contains: "Rivulet: Observer.receive(_:): a subclass of Observer must override receive(_:)")
    }
}
