import Testing
@testable import Rivulet

/// The events `operation` delivers when `script` is sent into a pipe and the pipe's input is still
/// held afterwards (so a script without a terminal event leaves the stream open).
func events<V, E, U, F>(
    of script: [Signal<V, E>.Event],
    through operation: (Signal<V, E>) -> Signal<U, F>
) -> [Signal<U, F>.Event] {
    let (signal, input) = Signal<V, E>.pipe()
    let recorder = EventRecorder<U, F>()
    operation(signal).observe(recorder.observer)
    for event in script { input.send(event) }
    withExtendedLifetime(input) {}
    return recorder.events
}

/// A producer that sends `script` synchronously on each start, and leaves the stream open if the
/// script has no terminal event.
func scriptedProducer<V, E>(_ script: [Signal<V, E>.Event]) -> SignalProducer<V, E> {
    SignalProducer.fused({ downstream, _ in
        for event in script { downstream(event) }
    })
}

/// The events `operation` delivers when applied to a producer that sends `script`, started once.
func events<V, E, U, F>(
    of script: [Signal<V, E>.Event],
    throughProducer operation: (SignalProducer<V, E>) -> SignalProducer<U, F>
) -> [Signal<U, F>.Event] {
    let recorder = EventRecorder<U, F>()
    let disposable = operation(scriptedProducer(script)).start(recorder.observer)
    let recorded = recorder.events
    disposable.dispose()
    return recorded
}

/// Checks an operator on a signal and on a producer against the same expected events (P3).
func expectOperator<V, E, U: Equatable, F: Equatable>(
    _ script: [Signal<V, E>.Event],
    signal: (Signal<V, E>) -> Signal<U, F>,
    producer: (SignalProducer<V, E>) -> SignalProducer<U, F>,
    yields expected: [Signal<U, F>.Event],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(events(of: script, through: signal) == expected, "signal", sourceLocation: sourceLocation)
    #expect(events(of: script, throughProducer: producer) == expected, "producer", sourceLocation: sourceLocation)
}
