import Foundation
import Testing
@testable import Rivulet

/// A producer whose starts a test drives by hand: it records each start's input observer and
/// counts the starts whose lifetime has ended.
final class GateProbe<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: all mutable state is in `state`, a `Locked`.
    private struct State {
        var inputs: [Signal<Value, Error>.Observer] = []
        var ended = 0
    }
    private let state = Locked(State())

    /// Each start hands its input observer to the probe and never ends by itself.
    var producer: SignalProducer<Value, Error> {
        SignalProducer { [self] observer, lifetime in
            state.withLock { $0.inputs.append(observer) }
            lifetime.observeEnded { [self] in state.withLock { $0.ended += 1 } }
        }
    }

    var starts: Int { state.withLock { $0.inputs.count } }
    /// How many starts have seen their lifetime end.
    var ended: Int { state.withLock { $0.ended } }
    /// The input of the latest start.
    var input: Signal<Value, Error>.Observer? { state.withLock { $0.inputs.last } }

    func send(_ event: Signal<Value, Error>.Event) {
        input?.send(event)
    }
}

/// One step of a two-source script: an event on the main source or on the other one.
enum GateStep<A, E: Swift.Error, B, G: Swift.Error> {
    case main(Signal<A, E>.Event)
    case other(Signal<B, G>.Event)
}

/// The events a binary signal operator sends for `script`, sent through two pipes.
func events<A, E, B, G, U, F>(
    of script: [GateStep<A, E, B, G>],
    through operation: (Signal<A, E>, Signal<B, G>) -> Signal<U, F>
) -> [Signal<U, F>.Event] {
    let (main, mainInput) = Signal<A, E>.pipe()
    let (other, otherInput) = Signal<B, G>.pipe()
    let recorder = EventRecorder<U, F>()
    operation(main, other).observe(recorder.observer)
    for step in script {
        switch step {
        case let .main(event): mainInput.send(event)
        case let .other(event): otherInput.send(event)
        }
    }
    withExtendedLifetime((mainInput, otherInput)) {}
    return recorder.events
}

/// The events a binary producer operator sends for `script`, sent into the starts of two probes.
func events<A, E, B, G, U, F>(
    of script: [GateStep<A, E, B, G>],
    throughProducer operation: (SignalProducer<A, E>, SignalProducer<B, G>) -> SignalProducer<U, F>
) -> [Signal<U, F>.Event] {
    let main = GateProbe<A, E>()
    let other = GateProbe<B, G>()
    let recorder = EventRecorder<U, F>()
    let disposable = operation(main.producer, other.producer).start(recorder.observer)
    for step in script {
        switch step {
        case let .main(event): main.send(event)
        case let .other(event): other.send(event)
        }
    }
    let recorded = recorder.events
    disposable.dispose()
    return recorded
}

/// Checks a binary operator on signals and on producers against the same expected events (P3).
func expectGateOperator<A, E, B, G, U: Equatable, F: Equatable>(
    _ script: [GateStep<A, E, B, G>],
    signal: (Signal<A, E>, Signal<B, G>) -> Signal<U, F>,
    producer: (SignalProducer<A, E>, SignalProducer<B, G>) -> SignalProducer<U, F>,
    yields expected: [Signal<U, F>.Event],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(events(of: script, through: signal) == expected, "signal", sourceLocation: sourceLocation)
    #expect(events(of: script, throughProducer: producer) == expected, "producer", sourceLocation: sourceLocation)
}

/// An equatable pair, to compare the tuples that `sample(with:)` and `withLatest(from:)` send.
struct GatePair<A: Equatable, B: Equatable>: Equatable {
    let first: A
    let second: B
    init(_ tuple: (A, B)) {
        first = tuple.0
        second = tuple.1
    }
    init(_ first: A, _ second: B) {
        self.first = first
        self.second = second
    }
}

extension GatePair: CustomStringConvertible {
    var description: String { "(\(first), \(second))" }
}

/// Records the events of a stress run and the overlap of their deliveries.
final class GateStressSink<Value, Error: Swift.Error>: Sendable {
    let recorder = EventRecorder<Value, Error>()
    let detector = OverlapDetector()

    var observer: Signal<Value, Error>.Observer {
        Signal<Value, Error>.Observer { [self] event in
            detector.enter()
            recorder.record(event)
            detector.leave()
        }
    }
}

/// Whether the values sent by each thread (encoded as `thread * 100_000 + index`) arrive in the
/// order that thread sent them.
func isOrderedPerSender(_ values: [Int]) -> Bool {
    var last: [Int: Int] = [:]
    for value in values {
        let thread = value / 100_000
        if let previous = last[thread], previous >= value { return false }
        last[thread] = value
    }
    return true
}
