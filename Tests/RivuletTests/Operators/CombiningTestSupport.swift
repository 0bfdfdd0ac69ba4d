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
