import Dispatch
import Testing
@testable import Rivulet
import RivuletContracts

/// An action whose work is a pipe the test drives: each execution's input observer is kept.
private final class DrivenWork: Sendable {
    let inputs = Locked<[Signal<Int, TestError>.Observer]>([])
    var last: Signal<Int, TestError>.Observer { inputs.withLock { $0.last! } }

    func producer(for input: Int) -> SignalProducer<Int, TestError> {
        SignalProducer { observer, _ in
            self.inputs.withLock { $0.append(observer) }
            observer.send(value: input)
        }
    }
}

@Suite(.checksLiveObjects) struct ActionTests {
    @Test func aSuccessfulExecution() {
        let action = Action<Int, Int, TestError> { input in SignalProducer([input, input * 2]) }
        let applied = EventRecorder<Int, ActionError<TestError>>()
        let events = EventRecorder<Signal<Int, TestError>.Event, Never>()
        let values = EventRecorder<Int, Never>()
        let completed = Counter()
        action.events.observe(events.observer)
        action.values.observe(values.observer)
        action.completed.observeValues { completed.increment() }
        action.apply(3).start(applied.observer)
        #expect(applied.events == [.value(3), .value(6), .completed])
        #expect(events.values == [.value(3), .value(6), .completed])
        #expect(values.values == [3, 6])
        #expect(completed.value == 1)
        #expect(action.isExecuting.value == false)
    }

    @Test func theActionKeepsItsStatePropertyAlive() {
        weak var weakState: MutableProperty<Int>?
        let action: Action<Void, Int, Never> = {
            let state = MutableProperty(1)
            weakState = state
            return Action(state: state) { value, _ in SignalProducer(value: value) }
        }()
        #expect(weakState != nil, "as in ReactiveSwift, an action retains its state")
        weakState?.value = 2
        let applied = EventRecorder<Int, ActionError<Never>>()
        action.apply().start(applied.observer)
        #expect(applied.events == [.value(2), .completed])
    }

    @Test func aFailedExecution() {
        let action = Action<Void, Int, TestError> { SignalProducer(error: TestError(7)) }
        let applied = EventRecorder<Int, ActionError<TestError>>()
        let errors = EventRecorder<TestError, Never>()
        action.errors.observe(errors.observer)
        action.apply().start(applied.observer)
        #expect(applied.events == [.failed(.producerFailed(TestError(7)))])
        #expect(errors.values == [TestError(7)])
        #expect(action.isEnabled.value)
    }

    @Test func isExecutingIsTrueBeforeTheFirstEventAndFalseAfterTheLast() {
        let work = DrivenWork()
        let action = Action<Int, Int, TestError>(execute: work.producer)
        let executingAtEvents = Locked<[Bool]>([])
        let executing = EventRecorder<Bool, Never>()
        action.isExecuting.producer.start(executing.observer)
        action.apply(1).start { _ in
            let isExecuting = action.isExecuting.value
            executingAtEvents.withLock { $0.append(isExecuting) }
        }
        work.last.send(value: 2)
        work.last.sendCompleted()
        // Still executing while the terminal event is delivered; done right after it.
        #expect(executingAtEvents.withLock { $0 } == [true, true, true])
        #expect(action.isExecuting.value == false)
        #expect(executing.values == [false, true, false])
    }

    @Test func aSecondStartWhileExecutingFailsAsDisabled() {
        let work = DrivenWork()
        let action = Action<Int, Int, TestError>(execute: work.producer)
        let disabled = Counter()
        action.disabledErrors.observeValues { disabled.increment() }
        let first = EventRecorder<Int, ActionError<TestError>>()
        let second = EventRecorder<Int, ActionError<TestError>>()
        action.apply(1).start(first.observer)
        #expect(action.isEnabled.value == false)
        action.apply(2).start(second.observer)
        #expect(second.events == [.failed(.disabled)])
        #expect(disabled.value == 1)
        work.last.sendCompleted()
        #expect(first.events == [.value(1), .completed])
        #expect(action.isEnabled.value)
    }

    @Test func disposingAnExecutionInterruptsItsWorkAndEndsIt_P4() {
        let work = DrivenWork()
        let action = Action<Int, Int, TestError>(execute: work.producer)
        let events = EventRecorder<Signal<Int, TestError>.Event, Never>()
        action.events.observe(events.observer)
        let applied = EventRecorder<Int, ActionError<TestError>>()
        let disposable = action.apply(1).start(applied.observer)
        disposable.dispose()
        #expect(applied.events == [.value(1), .interrupted])
        #expect(action.isExecuting.value == false)
        // The work was interrupted: what it sends now goes nowhere.
        work.last.send(value: 9)
        #expect(events.values == [.value(1), .interrupted])
    }

    @Test func theConditionEnablesAndDisables() {
        let allowed = MutableProperty(false)
        let action = Action<Int, Int, TestError>(enabledIf: allowed) { SignalProducer(value: $0) }
        let enabled = EventRecorder<Bool, Never>()
        action.isEnabled.producer.start(enabled.observer)
        let refused = EventRecorder<Int, ActionError<TestError>>()
        action.apply(1).start(refused.observer)
        #expect(refused.events == [.failed(.disabled)])
        allowed.value = true
        let accepted = EventRecorder<Int, ActionError<TestError>>()
        action.apply(2).start(accepted.observer)
        #expect(accepted.events == [.value(2), .completed])
        // Enabled, then disabled during the synchronous execution, then enabled again.
        #expect(enabled.values == [false, true, false, true])
    }

    @Test func theWorkGetsTheLatestStateValue() {
        let multiplier = MutableProperty(2)
        let action = Action<Int, Int, TestError>(state: multiplier, enabledIf: { $0 > 0 }) { factor, input in
            SignalProducer(value: factor * input)
        }
        let results = EventRecorder<Int, ActionError<TestError>>(streams: 3)
        action.apply(5).start(results.observer)
        multiplier.value = 3
        action.apply(5).start(results.observer)
        multiplier.value = 0
        action.apply(5).start(results.observer)
        #expect(results.events == [.value(10), .completed, .value(15), .completed, .failed(.disabled)])
    }

    @Test func unwrappingRunsOnlyWithAValue() {
        let user = MutableProperty<String?>(nil)
        let action = Action<Void, String, TestError>(unwrapping: user) { name, _ in SignalProducer(value: "hi \(name)") }
        #expect(action.isEnabled.value == false)
        user.value = "ada"
        let result = EventRecorder<String, ActionError<TestError>>()
        action.apply().start(result.observer)
        #expect(result.values == ["hi ada"])
    }

    @Test func validatedRunsOnlyWithAValidValue() {
        struct Invalid: Swift.Error {}
        let email = ValidatingProperty<String, Invalid>("") { $0.contains("@") ? .valid : .invalid(Invalid()) }
        let action = Action<Void, String, TestError>(validated: email) { address, _ in SignalProducer(value: address) }
        #expect(action.isEnabled.value == false)
        email.value = "a@b"
        #expect(action.isEnabled.value)
        email.value = "nope"
        // The proposal was rejected, so the value stays "a@b"; the action follows the result.
        #expect(action.isEnabled.value == false)
    }

    @Test(
        .keepsLiveObjects(
            "the observers capture the action whose signals they observe: a cycle the test makes on purpose, which only the end of those signals (the action's deinit) would break"
        )
    )
    func applyingFromInsideItsOwnObserversIsDisabledWhileExecutingAndNeverDeadlocks() {
        let action = Action<Int, Int, TestError> { SignalProducer(value: $0) }
        let nested = EventRecorder<Int, ActionError<TestError>>()
        action.values.observeValues { value in
            if value == 1 { action.apply(2).start(nested.observer) }
        }
        let afterwards = Locked<[Int]>([])
        action.isExecuting.signal.observeValues { executing in
            if !executing, afterwards.withLock({ $0.isEmpty }) {
                afterwards.withLock { $0.append(0) }
                action.apply(3).startWithValues { value in afterwards.withLock { $0.append(value) } }
            }
        }
        withWatchdog { action.apply(1).start() }
        #expect(nested.events == [.failed(.disabled)])
        #expect(afterwards.withLock { $0 } == [0, 3])
    }

    @Test func aBindingAppliesTheActionForEachValue() {
        let action = Action<Int, Int, TestError> { SignalProducer(value: $0 * 10) }
        let values = EventRecorder<Int, Never>()
        action.values.observe(values.observer)
        action <~ SignalProducer<Int, Never>([1, 2])
        #expect(values.values == [10, 20])
    }

    @Test func releasingTheActionReleasesEverythingAndCompletesItsSignals() {
        weak var weakAction: Action<Int, Int, TestError>?
        let events = EventRecorder<Signal<Int, TestError>.Event, Never>()
        let state = MutableProperty(1)
        weak var weakCaptured: Tracked?
        do {
            let captured = Tracked()
            weakCaptured = captured
            let action = Action<Int, Int, TestError>(state: state) { [captured] _, input in
                SignalProducer(value: input + captured.id)
            }
            weakAction = action
            action.events.observe(events.observer)
            action.apply(1).start()
        }
        #expect(weakAction == nil)
        #expect(weakCaptured == nil)
        #expect(events.events == [.value(.value(1)), .value(.completed), .completed])
        state.value = 2
    }

    @Test func actionErrorEquality() {
        #expect(ActionError<TestError>.disabled == .disabled)
        #expect(ActionError<TestError>.producerFailed(TestError(1)) != .producerFailed(TestError(2)))
    }
}

@Suite(.checksLiveObjects) struct ActionStressTests {
    @Test func concurrentStartsRunOneExecutionAtATime() {
        let running = Locked(0)
        let overlaps = Counter()
        let executions = Counter()
        let action = Action<Int, Int, TestError> { input in
            SignalProducer { observer, _ in
                let concurrent = running.withLock { count -> Bool in
                    count += 1
                    return count > 1
                }
                if concurrent { overlaps.increment() }
                executions.increment()
                for _ in 0..<50 { _ = ThreadID.current }
                running.withLock { $0 -= 1 }
                observer.send(value: input)
                observer.sendCompleted()
            }
        }
        let disabled = Counter()
        let succeeded = Counter()
        action.disabledErrors.observeValues { disabled.increment() }
        let perThread = 300
        withWatchdog {
            runConcurrently(8) { index in
                for step in 0..<perThread {
                    action.apply(index * 1000 + step).start { event in
                        if case .completed = event { succeeded.increment() }
                    }
                }
            }
        }
        #expect(overlaps.value == 0)
        #expect(executions.value == succeeded.value)
        #expect(succeeded.value + disabled.value == 8 * perThread)
        #expect(succeeded.value > 0)
        #expect(action.isExecuting.value == false)
        #expect(action.isEnabled.value)
    }
}
