import Testing
@testable import Rivulet
import RivuletContracts

/// When the operands of the flattening and sequential operators end their lifetimes, relative to
/// events and to each other's starts and ends: as in ReactiveSwift 7.2.1, an operand's start ends
/// only once its terminal event has been handled (forwarded, or the next producer started), and the
/// starts a flattened stream still runs end in ReactiveSwift's order when it ends.
///
/// Each expected trace is ReactiveSwift's: the same scenario, with the same traced producers, was
/// run against ReactiveSwift 7.2.1 in the differential harness's check program (scenarios F1–F16
/// of its `Checks.swift`), except where a test says it keeps a deliberate difference.
@Suite(.checksLiveObjects) struct FlattenLifetimeOrderTests {
    // MARK: Flattening

    @Test func mergeDeliversTheCompletionBeforeTheLastProducerEnds() {
        let trace = LifetimeTrace()
        let a = TracedSource("a", trace)
        let b = TracedSource("b", trace)
        SignalProducer<Int, TestError>.merge(a.producer, b.producer).start(trace.observer)
        a.complete()
        b.complete()
        #expect(
            trace.lines == [
                "start a#1", "start b#1",
                "> a completes", "end a#1",
                "> b completes", "obs completed", "end b#1",
            ])
    }

    @Test func concatStartsTheNextProducerBeforeThePreviousOneEnds() {
        let trace = LifetimeTrace()
        let a = TracedSource("a", trace)
        let b = TracedSource("b", trace)
        a.producer.concat(b.producer).start(trace.observer)
        a.send(1)
        a.complete()
        b.send(2)
        b.complete()
        #expect(
            trace.lines == [
                "start a#1",
                "> a sends 1", "obs value 1",
                "> a completes", "start b#1", "end a#1",
                "> b sends 2", "obs value 2",
                "> b completes", "obs completed", "end b#1",
            ])
    }

    @Test func prefixValueEndsTheProducerAfterTheInterruptionWhenDisposed() {
        let trace = LifetimeTrace()
        let a = TracedSource("a", trace)
        let disposable = a.producer.prefix(value: 0).start(trace.observer)
        a.send(1)
        trace.step("dispose")
        disposable.dispose()
        #expect(
            trace.lines == [
                "obs value 0", "start a#1",
                "> a sends 1", "obs value 1",
                "> dispose", "obs interrupted", "end a#1",
            ])
    }

    @Test func theOuterProducerEndsAsSoonAsItCompletes() {
        let trace = LifetimeTrace()
        let outer = TracedSource("outer", trace)
        let inner = TracedSource("inner", trace)
        outer.producer.flatMap(.concat) { _ in inner.producer }.start(trace.observer)
        outer.send(1)
        outer.complete()
        inner.send(2)
        inner.complete()
        #expect(
            trace.lines == [
                "start outer#1",
                "> outer sends 1", "start inner#1",
                "> outer completes", "end outer#1",
                "> inner sends 2", "obs value 2",
                "> inner completes", "obs completed", "end inner#1",
            ])
    }

    /// Disposal interrupts the flattened stream first, then ends the outer start before the inner
    /// ones (`.merge`, `.concat`) or after them (`.latest`, `.throttle`).
    @Test(arguments: [
        (FlattenStrategy.merge, ["start inner#2"], ["end outer#1", "end inner#1", "end inner#2"]),
        (.concat, [], ["end outer#1", "end inner#1"]),
        (.latest, ["end inner#1", "start inner#2"], ["end inner#2", "end outer#1"]),
        (.throttle, [], ["end inner#1", "end outer#1"]),
    ])
    func disposalEndsTheStartsInReactiveSwiftsOrder(
        strategy: FlattenStrategy, afterSecondValue: [String], afterInterruption: [String]
    ) {
        let trace = LifetimeTrace()
        let outer = TracedSource("outer", trace)
        let inner = TracedSource("inner", trace)
        let disposable = outer.producer.flatMap(strategy) { _ in inner.producer }.start(trace.observer)
        outer.send(1)
        outer.send(2)
        inner.send(3)
        trace.step("dispose")
        disposable.dispose()
        #expect(
            trace.lines
                == ["start outer#1", "> outer sends 1", "start inner#1", "> outer sends 2"] + afterSecondValue
                + ["> inner sends 3", "obs value 3", "> dispose", "obs interrupted"] + afterInterruption)
    }

    /// The flattening keeps one inner start in a lock-free slot and the others in a list: when the
    /// slot's start is newer than a listed one, disposal still ends them in the order they began.
    @Test func disposalEndsInnerStartsInTheirOrderWhereverTheyAreKept() {
        let trace = LifetimeTrace()
        let outer = TracedSource("outer", trace)
        let sources = [TracedSource("a", trace), TracedSource("b", trace), TracedSource("c", trace)]
        let disposable = outer.producer.flatMap(.merge) { sources[$0].producer }.start(trace.observer)
        outer.send(0) // a: the slot
        outer.send(1) // b: the list, the slot being taken
        sources[0].complete() // a leaves the slot
        outer.send(2) // c: the slot again, newer than b
        trace.step("dispose")
        disposable.dispose()
        #expect(
            trace.lines == [
                "start outer#1",
                "> outer sends 0", "start a#1",
                "> outer sends 1", "start b#1",
                "> a completes", "end a#1",
                "> outer sends 2", "start c#1",
                "> dispose", "obs interrupted", "end outer#1", "end b#1", "end c#1",
            ])
    }

    /// ReactiveSwift takes the winner out of its relay disposable before disposing of the relay,
    /// so disposing of the flattened stream never ends the winner's start (a leak: the harness's
    /// check shows it ending only when its pipe is released). Rivulet ends it, as any running
    /// inner start: before the outer start, as under `.latest` and `.throttle`.
    @Test func disposalEndsARacesWinnerUnlikeReactiveSwift() {
        let trace = LifetimeTrace()
        let outer = TracedSource("outer", trace)
        let inner = TracedSource("inner", trace)
        let disposable = outer.producer.flatMap(.race) { _ in inner.producer }.start(trace.observer)
        outer.send(1)
        outer.send(2)
        inner.send(3)
        trace.step("dispose")
        disposable.dispose()
        #expect(
            trace.lines == [
                "start outer#1",
                "> outer sends 1", "start inner#1",
                "> outer sends 2", "start inner#2",
                "> inner sends 3", "end inner#1", "obs value 3",
                "> dispose", "obs interrupted", "end inner#2", "end outer#1",
            ])
    }

    @Test func aRacesWinnerEndsAfterItsCompletionIsForwarded() {
        let trace = LifetimeTrace()
        let outer = TracedSource("outer", trace)
        let inner = TracedSource("inner", trace)
        outer.producer.flatMap(.race) { _ in inner.producer }.start(trace.observer)
        outer.send(1)
        outer.send(2)
        inner.send(5, toStart: 1)
        outer.complete()
        inner.complete(start: 1)
        #expect(
            trace.lines == [
                "start outer#1",
                "> outer sends 1", "start inner#1",
                "> outer sends 2", "start inner#2",
                "> inner#1 sends 5", "end inner#2", "obs value 5",
                "> outer completes", "end outer#1",
                "> inner#1 completes", "obs completed", "end inner#1",
            ])
    }

    /// The failing inner start ends last: the failure ends the flattened stream, which ends the
    /// other starts, while the failing one is still delivering it.
    @Test func aFailingInnerEndsAfterTheStartsItsFailureEnds() {
        let trace = LifetimeTrace()
        let outer = TracedSource("outer", trace)
        let inner = TracedSource("inner", trace)
        outer.producer.flatMap(.merge) { _ in inner.producer }.start(trace.observer)
        outer.send(1)
        outer.send(2)
        inner.fail(start: 1)
        #expect(
            trace.lines == [
                "start outer#1",
                "> outer sends 1", "start inner#1",
                "> outer sends 2", "start inner#2",
                "> inner#1 fails", "obs failed", "end outer#1", "end inner#2", "end inner#1",
            ])
    }

    @Test func aFailingOuterEndsAfterTheInnerItsFailureEnds() {
        let trace = LifetimeTrace()
        let outer = TracedSource("outer", trace)
        let inner = TracedSource("inner", trace)
        outer.producer.flatMap(.latest) { _ in inner.producer }.start(trace.observer)
        outer.send(1)
        outer.fail()
        #expect(
            trace.lines == [
                "start outer#1",
                "> outer sends 1", "start inner#1",
                "> outer fails", "obs failed", "end inner#1", "end outer#1",
            ])
    }

    @Test func latestEndsTheReplacedInnerBeforeStartingTheNextOne() {
        let trace = LifetimeTrace()
        let outer = TracedSource("outer", trace)
        let inner = TracedSource("inner", trace)
        outer.producer.flatMap(.latest) { _ in inner.producer }.start(trace.observer)
        outer.send(1)
        outer.send(2)
        outer.complete()
        inner.complete()
        #expect(
            trace.lines == [
                "start outer#1",
                "> outer sends 1", "start inner#1",
                "> outer sends 2", "end inner#1", "start inner#2",
                "> outer completes", "end outer#1",
                "> inner completes", "obs completed", "end inner#2",
            ])
    }

    // MARK: Hand-over and restarting operators

    @Test func thenStartsTheReplacementBeforeTheFirstProducerEnds() {
        let trace = LifetimeTrace()
        let a = TracedSource("a", trace)
        let b = TracedSource("b", trace)
        a.producer.then(b.producer).start(trace.observer)
        a.complete()
        b.send(7)
        b.complete()
        #expect(
            trace.lines == [
                "start a#1",
                "> a completes", "start b#1", "end a#1",
                "> b sends 7", "obs value 7",
                "> b completes", "obs completed", "end b#1",
            ])
    }

    @Test func thenForwardsAFailureBeforeTheFirstProducerEnds() {
        let trace = LifetimeTrace()
        let a = TracedSource("a", trace)
        let b = TracedSource("b", trace)
        a.producer.then(b.producer).start(trace.observer)
        a.fail()
        #expect(trace.lines == ["start a#1", "> a fails", "obs failed", "end a#1"])
    }

    @Test func flatMapErrorStartsTheReplacementBeforeTheFailedProducerEnds() {
        let trace = LifetimeTrace()
        let a = TracedSource("a", trace)
        let b = TracedSource("b", trace)
        a.producer.flatMapError { _ in b.producer }.start(trace.observer)
        a.fail()
        b.send(7)
        b.complete()
        #expect(
            trace.lines == [
                "start a#1",
                "> a fails", "start b#1", "end a#1",
                "> b sends 7", "obs value 7",
                "> b completes", "obs completed", "end b#1",
            ])
    }

    @Test func repeatStartsTheNextRunBeforeThePreviousOneEnds() {
        let trace = LifetimeTrace()
        let a = TracedSource("a", trace)
        a.producer.repeat(2).start(trace.observer)
        a.send(1)
        a.complete()
        a.send(2)
        a.complete()
        #expect(
            trace.lines == [
                "start a#1",
                "> a sends 1", "obs value 1",
                "> a completes", "start a#2", "end a#1",
                "> a sends 2", "obs value 2",
                "> a completes", "obs completed", "end a#2",
            ])
    }

    @Test func retryStartsTheNextRunBeforeTheFailedOneEnds() {
        let trace = LifetimeTrace()
        let a = TracedSource("a", trace)
        a.producer.retry(upTo: 1).start(trace.observer)
        a.fail()
        a.send(2)
        a.fail()
        #expect(
            trace.lines == [
                "start a#1",
                "> a fails", "start a#2", "end a#1",
                "> a sends 2", "obs value 2",
                "> a fails", "obs failed", "end a#2",
            ])
    }

    /// ReactiveSwift restarts from inside a run's terminal event, so synchronous runs end in the
    /// reverse order; Rivulet restarts iteratively (constant stack) and ends them in that order.
    @Test func synchronousRunsOfRepeatEndLatestFirst() {
        let trace = LifetimeTrace()
        trace.synchronousProducer(completing: true).repeat(3).start(trace.observer)
        #expect(
            trace.lines == [
                "start sync#1", "obs value 1", "start sync#2", "obs value 2", "start sync#3", "obs value 3",
                "obs completed", "end sync#3", "end sync#2", "end sync#1",
            ])
    }

    @Test func synchronousRunsOfRetryEndLatestFirst() {
        let trace = LifetimeTrace()
        trace.synchronousProducer(completing: false).retry(upTo: 2).start(trace.observer)
        #expect(
            trace.lines == [
                "start sync#1", "start sync#2", "start sync#3",
                "obs failed", "end sync#3", "end sync#2", "end sync#1",
            ])
    }
}

// MARK: - Support

/// The trace of one scenario: script steps ("> …"), starts, lifetime ends and the observer's events,
/// in the order they happen.
private final class LifetimeTrace: @unchecked Sendable {
    // @unchecked Sendable: `recorded` is a `Locked`; `synchronousStarts` is touched only by the
    // thread that runs the scenario (every scenario runs on one thread).
    private let recorded = Locked<[String]>([])
    private var synchronousStarts = 0

    var lines: [String] { recorded.withLock { $0 } }

    func append(_ line: String) {
        recorded.withLock { $0.append(line) }
    }

    func step(_ description: String) {
        append("> " + description)
    }

    /// An observer that traces every event as "obs …".
    var observer: Signal<Int, TestError>.Observer {
        Signal.Observer { [self] event in
            switch event {
            case let .value(value): append("obs value \(value)")
            case .failed: append("obs failed")
            case .completed: append("obs completed")
            case .interrupted: append("obs interrupted")
            }
        }
    }

    /// A producer that sends its start's number and completes (or fails) while it starts,
    /// tracing each start ("start sync#n") and its lifetime's end.
    func synchronousProducer(completing: Bool) -> SignalProducer<Int, TestError> {
        SignalProducer { [self] observer, lifetime in
            synchronousStarts += 1
            let label = "sync#\(synchronousStarts)"
            append("start \(label)")
            lifetime.observeEnded { [self] in append("end \(label)") }
            if completing {
                observer.send(value: synchronousStarts)
                observer.sendCompleted()
            } else {
                observer.send(error: TestError())
            }
        }
    }
}

/// A cold producer over a fresh pipe per start, as the harness's: each start traces
/// "start name#n" and its lifetime's end "end name#n"; the script sends to the newest start, or
/// to the one it names.
private final class TracedSource: @unchecked Sendable {
    // @unchecked Sendable: `inputs` is only touched by the scenario's one thread.
    let name: String
    let trace: LifetimeTrace
    private var inputs: [Signal<Int, TestError>.Observer] = []

    init(_ name: String, _ trace: LifetimeTrace) {
        self.name = name
        self.trace = trace
    }

    var producer: SignalProducer<Int, TestError> {
        SignalProducer { [self] observer, lifetime in
            let (signal, input) = Signal<Int, TestError>.pipe()
            inputs.append(input)
            let label = "\(name)#\(inputs.count)"
            trace.append("start \(label)")
            lifetime.observeEnded { [trace] in trace.append("end \(label)") }
            lifetime += signal.observe(observer)
        }
    }

    private func target(_ start: Int?) -> (String, Signal<Int, TestError>.Observer?) {
        guard let start else { return (name, inputs.last) }
        return ("\(name)#\(start)", inputs[start - 1])
    }

    func send(_ value: Int, toStart start: Int? = nil) {
        let (label, input) = target(start)
        trace.step("\(label) sends \(value)")
        input?.send(value: value)
    }

    func complete(start: Int? = nil) {
        let (label, input) = target(start)
        trace.step("\(label) completes")
        input?.sendCompleted()
    }

    func fail(start: Int? = nil) {
        let (label, input) = target(start)
        trace.step("\(label) fails")
        input?.send(error: TestError())
    }
}
