import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

// When the operand starts of the gating and combining operators begin and end, relative to the
// result's events and to each other. Every expected trace is ReactiveSwift 7.2.1's for the same
// scenario, as printed by the differential harness's check programs (rs-diff, checks G1–G14).

/// One scenario's trace: producer starts, lifetime ends, the observer's events and the steps.
private final class LifetimeTrace: @unchecked Sendable {
    // @unchecked Sendable: `lines` and `inputs` are `Locked`; the tests run on one thread anyway.
    private let lines = Locked([String]())
    private let inputs = Locked([String: Signal<Int, TestError>.Observer]())

    var recorded: [String] { lines.withLock { $0 } }

    func log(_ line: String) { lines.withLock { $0.append(line) } }

    /// A producer whose start logs `start <name>`, whose lifetime's end logs `end <name>`, and
    /// whose events the test sends with `send(_:to:)`.
    func producer(_ name: String) -> SignalProducer<Int, TestError> {
        SignalProducer { [self] observer, lifetime in
            log("start \(name)")
            inputs.withLock { $0[name] = observer }
            lifetime.observeEnded { [self] in log("end \(name)") }
        }
    }

    /// A trigger over `producer(name)`: a value for each value, completion for a failure.
    func trigger(_ name: String) -> SignalProducer<(), Never> {
        let source = producer(name)
        return SignalProducer<(), Never> { observer, lifetime in
            lifetime += source.start { event in
                switch event {
                case .value: observer.send(value: ())
                case .failed, .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }
        }
    }

    /// A sampler or samplee over `producer(name)` that cannot fail.
    func infallible(_ name: String) -> SignalProducer<Int, Never> {
        let source = producer(name)
        return SignalProducer<Int, Never> { observer, lifetime in
            lifetime += source.start { event in
                switch event {
                case let .value(value): observer.send(value: value)
                case .failed, .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }
        }
    }

    func send(_ event: Signal<Int, TestError>.Event, to name: String) {
        log("> \(name) \(Self.describe(event))")
        let input = inputs.withLock { $0[name] }
        input?.send(event)
    }

    /// An observer that logs `obs <event>` (a value as `value`, whatever it is).
    func observer<Value>() -> Signal<Value, TestError>.Observer {
        Signal.Observer { [self] event in
            switch event {
            case .value: log("obs value")
            case let .failed(error): log("obs failed \(error.code)")
            case .completed: log("obs completed")
            case .interrupted: log("obs interrupted")
            }
        }
    }

    func dispose(_ disposable: Disposable) {
        log("> dispose")
        disposable.dispose()
    }

    private static func describe(_ event: Signal<Int, TestError>.Event) -> String {
        switch event {
        case let .value(value): "sends \(value)"
        case let .failed(error): "fails \(error.code)"
        case .completed: "completes"
        case .interrupted: "is interrupted"
        }
    }
}

@Suite(.checksLiveObjects) struct GateAndCombiningLifetimeOrderTests {
    // MARK: take(until:)

    @Test func takeUntilEndsTheSourceThenTheTriggerAfterCompleting() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").take(until: trace.trigger("trigger")).start(trace.observer())
        trace.send(.value(0), to: "trigger")
        #expect(
            trace.recorded == [
                "start trigger", "start main", "> trigger sends 0", "obs completed", "end main", "end trigger",
            ])
        withExtendedLifetime(disposable) {}
    }

    @Test func disposingTakeUntilEndsTheTriggerBeforeTheInterruptedSource() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").take(until: trace.trigger("trigger")).start(trace.observer())
        trace.dispose(disposable)
        #expect(
            trace.recorded == [
                "start trigger", "start main", "> dispose", "obs interrupted", "end trigger", "end main",
            ])
    }

    @Test func takeUntilDoesNotStartTheSourceOnceTheTriggerHasFiredDuringItsStart() {
        let trace = LifetimeTrace()
        trace.producer("main").take(until: SignalProducer<(), Never>(value: ())).start(trace.observer())
        #expect(trace.recorded == ["obs completed"])
    }

    // MARK: skip(until:)

    @Test func disposingAClosedSkipUntilEndsTheSourceThenTheTrigger() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").skip(until: trace.trigger("trigger")).start(trace.observer())
        trace.dispose(disposable)
        #expect(
            trace.recorded == [
                "start trigger", "start main", "> dispose", "obs interrupted", "end main", "end trigger",
            ])
    }

    @Test func skipUntilIsInterruptedWhenItsTriggerIsInterruptedBeforeFiring() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").skip(until: trace.trigger("trigger")).start(trace.observer())
        trace.send(.interrupted, to: "trigger")
        #expect(
            trace.recorded == [
                "start trigger", "start main", "> trigger is interrupted", "end main", "obs interrupted",
                "end trigger",
            ])
        withExtendedLifetime(disposable) {}
    }

    @Test func skipUntilEndsTheTriggerWhenItFires() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").skip(until: trace.trigger("trigger")).start(trace.observer())
        trace.send(.value(0), to: "trigger")
        trace.send(.value(1), to: "main")
        trace.dispose(disposable)
        #expect(
            trace.recorded == [
                "start trigger", "start main", "> trigger sends 0", "end trigger", "> main sends 1", "obs value",
                "> dispose", "obs interrupted", "end main",
            ])
    }

    // MARK: take(untilReplacement:)

    @Test func takeUntilReplacementDoesNotStartTheOriginalOnceTheReplacementHasEndedTheResult() {
        let trace = LifetimeTrace()
        trace.producer("main").take(untilReplacement: SignalProducer(value: 7)).start(trace.observer())
        #expect(trace.recorded == ["obs value", "obs completed"])

        // A replacement over a signal that has already completed: observing it interrupts at once.
        let hot = LifetimeTrace()
        let (signal, input) = Signal<Int, TestError>.pipe()
        input.sendCompleted()
        hot.producer("main").take(untilReplacement: signal.producer).start(hot.observer())
        #expect(hot.recorded == ["obs interrupted"])
    }

    @Test func takeUntilReplacementStartsAndEndsTheOriginalWhenTheReplacementOnlySendsDuringItsStart() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main")
            .take(untilReplacement: SignalProducer(value: 7).concat(trace.producer("rest")))
            .start(trace.observer())
        trace.dispose(disposable)
        #expect(
            trace.recorded == [
                "obs value", "start rest", "start main", "end main", "> dispose", "obs interrupted", "end rest",
            ])
    }

    @Test func takeUntilReplacementEndsTheReplacementBeforeTheFailedOriginal() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").take(untilReplacement: trace.producer("replacement"))
            .start(trace.observer())
        trace.send(.failed(TestError(1)), to: "main")
        #expect(
            trace.recorded == [
                "start replacement", "start main", "> main fails 1", "obs failed 1", "end replacement", "end main",
            ])
        withExtendedLifetime(disposable) {}
    }

    @Test func disposingTakeUntilReplacementEndsTheReplacementBeforeTheInterruptedOriginal() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").take(untilReplacement: trace.producer("replacement"))
            .start(trace.observer())
        trace.dispose(disposable)
        #expect(
            trace.recorded == [
                "start replacement", "start main", "> dispose", "obs interrupted", "end replacement", "end main",
            ])
    }

    // MARK: take(during:)

    @Test func takeDuringAnEndedLifetimeInterruptsWithoutStarting() {
        let trace = LifetimeTrace()
        trace.producer("main").take(during: .empty).start(trace.observer())
        #expect(trace.recorded == ["obs interrupted"])
    }

    // MARK: combineLatest and zip

    @Test func combineLatestEndsTheOtherInputBeforeTheFailedOne() {
        let trace = LifetimeTrace()
        let disposable = SignalProducer<Int, TestError>.combineLatest(trace.producer("a"), trace.producer("b"))
            .start(trace.observer())
        trace.send(.failed(TestError(1)), to: "a")
        #expect(trace.recorded == ["start a", "start b", "> a fails 1", "obs failed 1", "end b", "end a"])
        withExtendedLifetime(disposable) {}
    }

    @Test func disposingCombineLatestEndsTheInputsInOrderAfterTheInterruption() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("a").combineLatest(with: trace.producer("b")).start(trace.observer())
        trace.dispose(disposable)
        #expect(trace.recorded == ["start a", "start b", "> dispose", "obs interrupted", "end a", "end b"])
    }

    @Test func combineLatestOfThreeEndsTheOthersLastFirstThenTheFailedOne() {
        let trace = LifetimeTrace()
        let disposable = SignalProducer<Int, TestError>.combineLatest(
            trace.producer("a"), trace.producer("b"), trace.producer("c")
        )
        .start(trace.observer())
        trace.send(.failed(TestError(1)), to: "c")
        #expect(
            trace.recorded == [
                "start a", "start b", "start c", "> c fails 1", "obs failed 1", "end b", "end a", "end c",
            ])
        withExtendedLifetime(disposable) {}
    }

    @Test func disposingCombineLatestOfThreeEndsTheInputsInOrder() {
        let trace = LifetimeTrace()
        let disposable = SignalProducer<Int, TestError>.combineLatest(
            trace.producer("a"), trace.producer("b"), trace.producer("c")
        )
        .start(trace.observer())
        trace.dispose(disposable)
        #expect(
            trace.recorded == [
                "start a", "start b", "start c", "> dispose", "obs interrupted", "end a", "end b", "end c",
            ])
    }

    @Test func zipEndsTheInputThatCompletedItLastOnceItsValueHasBeenHandled() {
        let trace = LifetimeTrace()
        let disposable = SignalProducer<Int, TestError>.zip(trace.producer("a"), trace.producer("b"), trace.producer("c"))
            .start(trace.observer())
        trace.send(.value(1), to: "a")
        trace.send(.completed, to: "a")
        trace.send(.value(2), to: "b")
        trace.send(.value(3), to: "c")
        #expect(
            trace.recorded == [
                "start a", "start b", "start c", "> a sends 1", "> a completes", "end a", "> b sends 2",
                "> c sends 3", "obs value", "obs completed", "end b", "end c",
            ])
        withExtendedLifetime(disposable) {}
    }

    @Test func anInputWhoseValueEndsTheStartEndsAfterTheOthers() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("a").combineLatest(with: trace.producer("b")).take(first: 1)
            .start(trace.observer())
        trace.send(.value(1), to: "a")
        trace.send(.value(2), to: "b")
        #expect(
            trace.recorded == [
                "start a", "start b", "> a sends 1", "> b sends 2", "obs value", "obs completed", "end a", "end b",
            ])
        withExtendedLifetime(disposable) {}
    }

    @Test func theSequenceFormsEndTheOtherInputsInOrderBeforeTheFailedOne() {
        let trace = LifetimeTrace()
        let disposable = SignalProducer<Int, TestError>.combineLatest([trace.producer("a"), trace.producer("b")])
            .start(trace.observer())
        trace.send(.failed(TestError(1)), to: "a")
        #expect(trace.recorded == ["start a", "start b", "> a fails 1", "obs failed 1", "end b", "end a"])
        withExtendedLifetime(disposable) {}
    }

    @Test func disposingASequenceFormInterruptsTheResultThenEndsTheInputsInOrder() {
        let trace = LifetimeTrace()
        let disposable = SignalProducer<Int, TestError>.zip([trace.producer("a"), trace.producer("b")]).start(trace.observer())
        trace.dispose(disposable)
        #expect(trace.recorded == ["start a", "start b", "> dispose", "obs interrupted", "end a", "end b"])
    }

    // MARK: sample and withLatest

    @Test func sampleEndsTheSamplerBeforeTheFailedSource() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").sample(with: trace.infallible("sampler")).start(trace.observer())
        trace.send(.failed(TestError(1)), to: "main")
        #expect(
            trace.recorded == ["start main", "start sampler", "> main fails 1", "obs failed 1", "end sampler", "end main"]
        )
        withExtendedLifetime(disposable) {}
    }

    @Test func disposingSampleEndsTheSourceBeforeTheInterruptedSampler() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").sample(on: trace.trigger("sampler")).start(trace.observer())
        trace.dispose(disposable)
        #expect(
            trace.recorded == ["start main", "start sampler", "> dispose", "obs interrupted", "end main", "end sampler"]
        )
    }

    @Test func withLatestEndsTheSampleeBeforeTheCompletedSource() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").withLatest(from: trace.infallible("samplee"))
            .start(trace.observer())
        trace.send(.completed, to: "main")
        #expect(
            trace.recorded == ["start samplee", "start main", "> main completes", "obs completed", "end samplee", "end main"]
        )
        withExtendedLifetime(disposable) {}
    }

    @Test func disposingWithLatestEndsTheSampleeBeforeTheInterruptedSource() {
        let trace = LifetimeTrace()
        let disposable = trace.producer("main").withLatest(from: trace.infallible("samplee"))
            .start(trace.observer())
        trace.dispose(disposable)
        #expect(
            trace.recorded == ["start samplee", "start main", "> dispose", "obs interrupted", "end samplee", "end main"]
        )
    }

    // MARK: lift

    @Test func aLiftedBinaryOperatorEndsTheOtherStartBeforeTheFailedOne() {
        let trace = LifetimeTrace()
        let merged: (Signal<Int, TestError>) -> (Signal<Int, TestError>) -> Signal<Int, TestError> = { signal in
            { other in Signal<Int, TestError>.merge(signal, other) }
        }
        let disposable = trace.producer("main").lift(merged)(trace.producer("other")).start(trace.observer())
        trace.send(.failed(TestError(1)), to: "main")
        #expect(
            trace.recorded == ["start other", "start main", "> main fails 1", "obs failed 1", "end other", "end main"]
        )
        withExtendedLifetime(disposable) {}
    }

    // MARK: A start over before it begins

    @Test func aStartWhoseLifetimeHasAlreadyEndedStartsNoOperandAndSendsNothing() {
        // As ReactiveSwift's lifted operators: each operand's interrupter, added to the ended
        // lifetime, is disposed of at once, so no operand starts, and nothing observes them.
        let trace = LifetimeTrace()
        let gated = trace.producer("main").take(until: trace.trigger("trigger"))
        gated.startInstance({ _ in trace.log("event") }, .empty)
        let combined = trace.producer("a").combineLatest(with: trace.producer("b"))
        combined.startInstance({ _ in trace.log("event") }, .empty)
        #expect(trace.recorded.isEmpty)
    }

    // MARK: Disposal on another thread

    /// Starts `operation` over two inputs (the first a signal's producer, the second a start
    /// handler), lets `deliver` make a value reach the observer on another thread, and disposes of
    /// the start while that observer is blocked: the disposal must not wait for the delivery (an
    /// input's interruption is queued for the thread that holds the operator's turn).
    private func expectDisposalDuringADeliveryDoesNotWait<Output>(
        _ operation: (SignalProducer<Int, TestError>, SignalProducer<Int, TestError>) -> SignalProducer<Output, TestError>,
        before: (Signal<Int, TestError>.Observer, Signal<Int, TestError>.Observer) -> Void,
        deliver: @escaping @Sendable (Signal<Int, TestError>.Observer, Signal<Int, TestError>.Observer) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let (second, secondInput) = Signal<Int, TestError>.pipe()
        let secondProducer = SignalProducer<Int, TestError> { observer, lifetime in
            lifetime += second.observe(observer)
        }
        let delivering = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let recorder = EventRecorder<Output, TestError>()
        let disposable = operation(first.producer, secondProducer).start { event in
            recorder.record(event)
            if case .value = event {
                delivering.signal()
                disposed.wait()
            }
        }
        before(firstInput, secondInput)
        Thread {
            deliver(firstInput, secondInput)
            finished.signal()
        }.start()
        delivering.wait()
        let returned = withWatchdog(seconds: 300, "dispose during a delivery on another thread") {
            disposable.dispose()
        }
        disposed.signal()
        finished.wait()
        #expect(returned, sourceLocation: sourceLocation)
        #expect(recorder.events.count == 2, "the value, then interrupted", sourceLocation: sourceLocation)
        #expect(recorder.events.last?.isTerminating == true, sourceLocation: sourceLocation)
    }

    @Test func disposingCombineLatestDuringADeliveryOnAnotherThreadDoesNotWaitForIt() {
        expectDisposalDuringADeliveryDoesNotWait(
            { $0.combineLatest(with: $1) },
            before: { _, second in second.send(value: 1) },
            deliver: { first, _ in first.send(value: 2) }
        )
    }

    @Test func disposingASequenceZipDuringADeliveryOnAnotherThreadDoesNotWaitForIt() {
        expectDisposalDuringADeliveryDoesNotWait(
            { SignalProducer<Int, TestError>.zip([$0, $1]) },
            before: { first, _ in first.send(value: 1) },
            deliver: { _, second in second.send(value: 2) }
        )
    }

    @Test func disposingTakeUntilDuringADeliveryOnAnotherThreadDoesNotWaitForIt() {
        expectDisposalDuringADeliveryDoesNotWait(
            { source, trigger in source.take(until: trigger.map { _ in () }.flatMapError { _ in .empty }) },
            before: { _, _ in },
            deliver: { first, _ in first.send(value: 2) }
        )
    }
}
