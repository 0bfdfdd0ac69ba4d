import Testing

@testable import Rivulet

/// Expects the standard error that an exit test observed to hold `message`: the text of the
/// precondition, which names the API, the argument, its value and the rule it broke.
///
/// `result` is `nil` when the exit test itself failed, which `#expect` has already reported.
func expectStandardError(
    _ result: ExitTest.Result?, contains message: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let result else { return }
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(standardError.contains(message), "standard error was: \(standardError)", sourceLocation: sourceLocation)
}

/// The events an observer of `signal` receives by the time this returns.
func recordedEvents<Value, Error>(of signal: Signal<Value, Error>) -> [Signal<Value, Error>.Event] {
    let recorder = EventRecorder<Value, Error>()
    signal.observe(recorder.observer)
    return recorder.events
}

/// The events a start of `producer` sends by the time this returns.
func recordedEvents<Value, Error>(of producer: SignalProducer<Value, Error>) -> [Signal<Value, Error>.Event] {
    let recorder = EventRecorder<Value, Error>()
    producer.start(recorder.observer)
    return recorder.events
}
