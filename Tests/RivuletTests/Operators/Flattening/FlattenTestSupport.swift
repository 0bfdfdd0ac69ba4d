import Testing
@testable import Rivulet

/// A producer whose starts the test drives by hand: it records each start, keeps each start's
/// input observer, and counts the starts whose lifetime has ended (disposed or terminated).
final class ControlledProducer<Value, Error: Swift.Error>: @unchecked Sendable {
    // @unchecked Sendable: all mutable state is inside `state`, a `Locked`.
    private struct State {
        var inputs: [Signal<Value, Error>.Observer] = []
        var ended = 0
    }
    private let state = Locked(State())

    /// How many times the producer was started.
    var starts: Int { state.withLock { $0.inputs.count } }
    /// How many starts have ended their lifetime.
    var ended: Int { state.withLock { $0.ended } }
    /// Whether the latest start is running (started and its lifetime not ended).
    var isRunning: Bool { state.withLock { $0.inputs.count > $0.ended } }

    var producer: SignalProducer<Value, Error> {
        SignalProducer { [self] input, lifetime in
            state.withLock { $0.inputs.append(input) }
            lifetime.observeEnded { [self] in state.withLock { $0.ended += 1 } }
        }
    }

    /// Sends `event` on the latest start (the observer is read under the lock, used outside it).
    func send(_ event: Signal<Value, Error>.Event) {
        let input = state.withLock { $0.inputs.last }
        input?.send(event)
    }

    func send(value: Value) { send(.value(value)) }
    func sendCompleted() { send(.completed) }
}

/// Whether a test drives the signal façade or the producer façade of an operator.
enum Via: String, CaseIterable, Sendable, CustomStringConvertible {
    case signal, producer
    var description: String { rawValue }
}

/// `outer` flattened by `strategy` through the chosen façade, observed by a new recorder.
/// Disposing of the returned disposable stops the observation (signal; the flattened signal is not
/// retained, so it is disposed of, S4) or the start (producer, P4).
func flattened(
    _ outer: Signal<IntProducer, TestError>,
    _ strategy: FlattenStrategy,
    via: Via
) -> (recorder: EventRecorder<Int, TestError>, disposable: Disposable?) {
    let recorder = EventRecorder<Int, TestError>()
    switch via {
    case .signal:
        return (recorder, outer.flatten(strategy).observe(recorder.observer))
    case .producer:
        return (recorder, SignalProducer(outer).flatten(strategy).start(recorder.observer))
    }
}

/// Every flattening strategy, for checks that hold for all of them.
let allFlattenStrategies: [FlattenStrategy] = [.merge, .concat, .concurrent(limit: 2), .latest, .race, .throttle]

/// The strategies under which an inner stream's interruption ends only that inner stream (E4);
/// `.race` and `.throttle` forward it, as ReactiveSwift does.
let strategiesThatOutliveAnInner: [FlattenStrategy] = [.merge, .concat, .concurrent(limit: 2), .latest]

typealias IntProducer = SignalProducer<Int, TestError>
