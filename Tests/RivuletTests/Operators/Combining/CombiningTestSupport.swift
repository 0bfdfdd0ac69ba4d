import Testing
@testable import Rivulet

/// Two values side by side, comparable: what the tests turn a combined tuple into.
struct Pair<A: Equatable, B: Equatable>: Equatable, CustomStringConvertible {
    let first: A
    let second: B
    init(_ first: A, _ second: B) { self.first = first; self.second = second }
    init(_ tuple: (A, B)) { self.init(tuple.0, tuple.1) }
    var description: String { "(\(first), \(second))" }
}

/// One step of a script for a two-input operator: an event sent into the first or second input.
enum TwoInputStep<A, B> {
    case first(Signal<A, TestError>.Event)
    case second(Signal<B, TestError>.Event)
}

/// The events a two-input operator delivers when `steps` are sent into two pipes, applied to the
/// pipes' signals. The inputs are held until the end, so a script without terminal events
/// leaves them open.
func events<A, B, U>(
    of steps: [TwoInputStep<A, B>],
    through operation: (Signal<A, TestError>, Signal<B, TestError>) -> Signal<U, TestError>
) -> [Signal<U, TestError>.Event] {
    let (first, firstInput) = Signal<A, TestError>.pipe()
    let (second, secondInput) = Signal<B, TestError>.pipe()
    let recorder = EventRecorder<U, TestError>()
    operation(first, second).observe(recorder.observer)
    for step in steps {
        switch step {
        case let .first(event): firstInput.send(event)
        case let .second(event): secondInput.send(event)
        }
    }
    withExtendedLifetime((firstInput, secondInput)) {}
    return recorder.events
}

/// The same, with the operator applied to producers of the two pipes, started once.
func events<A, B, U>(
    of steps: [TwoInputStep<A, B>],
    throughProducers operation: (SignalProducer<A, TestError>, SignalProducer<B, TestError>)
        -> SignalProducer<U, TestError>
) -> [Signal<U, TestError>.Event] {
    let (first, firstInput) = Signal<A, TestError>.pipe()
    let (second, secondInput) = Signal<B, TestError>.pipe()
    let recorder = EventRecorder<U, TestError>()
    let disposable = operation(first.producer, second.producer).start(recorder.observer)
    for step in steps {
        switch step {
        case let .first(event): firstInput.send(event)
        case let .second(event): secondInput.send(event)
        }
    }
    let recorded = recorder.events
    disposable.dispose()
    withExtendedLifetime((firstInput, secondInput)) {}
    return recorded
}

/// Checks a two-input operator on signals and on producers against the same expected events (P3).
func expectTwoInputOperator<A, B, U: Equatable>(
    _ steps: [TwoInputStep<A, B>],
    signal: (Signal<A, TestError>, Signal<B, TestError>) -> Signal<U, TestError>,
    producer: (SignalProducer<A, TestError>, SignalProducer<B, TestError>) -> SignalProducer<U, TestError>,
    yields expected: [Signal<U, TestError>.Event],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(events(of: steps, through: signal) == expected, "signal", sourceLocation: sourceLocation)
    #expect(events(of: steps, throughProducers: producer) == expected, "producer", sourceLocation: sourceLocation)
}

/// A producer that counts how often its starts end, and hands out the input of its last start.
final class TrackedSource<Value>: @unchecked Sendable {
    // @unchecked Sendable: `state` is a `Locked`, the only mutable storage.
    private struct State {
        var input: Signal<Value, TestError>.Observer?
        var ended = 0
        var started = 0
    }
    private let state = Locked(State())

    var endedCount: Int { state.withLock { $0.ended } }
    var startCount: Int { state.withLock { $0.started } }
    var input: Signal<Value, TestError>.Observer? { state.withLock { $0.input } }

    var producer: SignalProducer<Value, TestError> {
        SignalProducer { [self] observer, lifetime in
            state.withLock {
                $0.input = observer
                $0.started += 1
            }
            lifetime.observeEnded { [self] in state.withLock { $0.ended += 1 } }
        }
    }
}

/// How a stress test applies a two-input operator: to the pipes' signals or to producers of them.
enum Facade: CaseIterable, Sendable {
    case signal, producer
}

/// Sends `perThread` distinct values from each of 8 threads, the first four into `first` and the
/// others into `second`: thread `t` sends `t * 10_000 + k` for `k` in order. If `failingThread`
/// is set, that thread sends a failure into its input halfway through.
func sendConcurrently(
    first: Signal<Int, TestError>.Observer,
    second: Signal<Int, TestError>.Observer,
    perThread: Int,
    failingThread: Int? = nil
) {
    runConcurrently(8) { thread in
        let input = thread < 4 ? first : second
        for k in 0..<perThread {
            if thread == failingThread, k == perThread / 2 { input.send(error: TestError(thread)) }
            input.send(value: thread * 10_000 + k)
        }
    }
}

/// Observes a two-input operator applied through `facade`, recording its events and counting
/// overlapping deliveries; returns the recorder, the detector and what keeps the start alive.
func observeStressed(
    _ facade: Facade,
    first: Signal<Int, TestError>,
    second: Signal<Int, TestError>,
    signal: (Signal<Int, TestError>, Signal<Int, TestError>) -> Signal<Pair<Int, Int>, TestError>,
    producer: (SignalProducer<Int, TestError>, SignalProducer<Int, TestError>) -> SignalProducer<Pair<Int, Int>, TestError>
) -> (EventRecorder<Pair<Int, Int>, TestError>, OverlapDetector, Disposable?) {
    let recorder = EventRecorder<Pair<Int, Int>, TestError>()
    let overlaps = OverlapDetector()
    let observer = Signal<Pair<Int, Int>, TestError>.Observer { event in
        overlaps.enter()
        recorder.record(event)
        overlaps.leave()
    }
    switch facade {
    case .signal:
        return (recorder, overlaps, signal(first, second).observe(observer))
    case .producer:
        return (recorder, overlaps, producer(first.producer, second.producer).start(observer))
    }
}

/// Checks that a stress run ended with exactly one terminal event, the last one (E1).
func expectOneFinalTerminal<V, E>(
    _ events: [Signal<V, E>.Event],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(events.filter(\.isTerminating).count == 1, sourceLocation: sourceLocation)
    #expect(events.last?.isTerminating == true, sourceLocation: sourceLocation)
}

/// Stress check: a failure sent by `failingThread` while 8 threads send values ends the result of
/// a two-input operator, as its last and only terminal event, with no overlapping delivery (E1, E2, E5).
func expectFailureRacingValuesIsTheLastEvent(
    _ facade: Facade,
    failingThread: Int,
    signal: (Signal<Int, TestError>, Signal<Int, TestError>) -> Signal<Pair<Int, Int>, TestError>,
    producer: (SignalProducer<Int, TestError>, SignalProducer<Int, TestError>) -> SignalProducer<Pair<Int, Int>, TestError>,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let (first, firstInput) = Signal<Int, TestError>.pipe()
    let (second, secondInput) = Signal<Int, TestError>.pipe()
    let (recorder, overlaps, disposable) = observeStressed(
        facade, first: first, second: second, signal: signal, producer: producer
    )
    let finished = withWatchdog(sourceLocation: sourceLocation) {
        sendConcurrently(first: firstInput, second: secondInput, perThread: 400, failingThread: failingThread)
    }
    #expect(finished, sourceLocation: sourceLocation)
    let events = recorder.events
    expectOneFinalTerminal(events, sourceLocation: sourceLocation)
    #expect(events.last == .failed(TestError(failingThread)), sourceLocation: sourceLocation)
    #expect(overlaps.overlapCount == 0, sourceLocation: sourceLocation)
    withExtendedLifetime(disposable) {}
}
