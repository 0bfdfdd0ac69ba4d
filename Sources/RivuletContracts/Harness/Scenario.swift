import Rivulet

/// One generated event script, and what the kit's observer does while it runs.
struct Scenario<Input: Sendable, InputError: Swift.Error>: Sendable {
    typealias Event = Signal<Input, InputError>.Event

    enum Step: Sendable {
        /// The kit sends an event on its sending thread, into its first input or the second.
        case send(Event, toSecondInput: Bool = false)
        /// Each list is sent by its own thread, all at once; `second`'s lists into the second input.
        case concurrently([[Event]], second: [[Event]] = [])
        /// The kit disposes of its observation (signals) or its start (producers).
        case dispose
        /// The kit runs the actions due on a time-shifting subject's scheduler.
        case settle
    }

    let name: String
    let steps: [Step]
    /// Sent by the observer from inside its first value delivery (E6).
    var reentrantValue: Input?
    /// The observer disposes of its observation from inside its first delivery (O7).
    var disposesFromInside = false
    /// A second observer is attached and must see the same events (S3, signals only).
    var secondObserver = false
    /// The re-entrant send or the disposal comes from inside the operator's probed closure
    /// rather than from inside the observer.
    var actsFromUserCode = false
    /// The scheduler runs only at `settle` steps, not after every send (a replay, which runs it
    /// where the scenario it replays did).
    var settlesOnlyWhenTold = false

    var hasConcurrentStep: Bool {
        steps.contains { if case .concurrently = $0 { true } else { false } }
    }

    /// Whether the order of inputs is decided while running, so the output is checked against a
    /// serial replay of the inputs as delivered (E5, E6).
    var checksReplay: Bool {
        reentrantValue != nil || hasConcurrentStep
    }

    /// The scripts for an operator of two inputs: values on both, interleaved; each terminal
    /// event on each input; a terminal racing values on the other input; both inputs sent into
    /// from several threads at once; disposal at every point; a re-entrant send; disposal from
    /// inside the observer; two observers.
    static func forPairs(values: [Input], error: InputError?, senderThreads: Int) -> [Scenario] {
        let interleaved = values.flatMap { [Step.send(.value($0)), .send(.value($0), toSecondInput: true)] }
        let bothComplete: [Step] = [.send(.completed), .send(.completed, toSecondInput: true)]
        var scenarios = [
            Scenario(name: "values on both inputs", steps: interleaved),
            Scenario(name: "values then both completed", steps: interleaved + bothComplete),
            Scenario(name: "values then the first interrupted", steps: interleaved + [.send(.interrupted)]),
            Scenario(name: "values then the second interrupted", steps: interleaved + [.send(.interrupted, toSecondInput: true)]),
            Scenario(name: "both empty", steps: bothComplete),
        ]
        if let error {
            scenarios.append(Scenario(name: "values then the first failed", steps: interleaved + [.send(.failed(error))]))
            scenarios.append(
                Scenario(
                    name: "values then the second failed",
                    steps: interleaved + [.send(.failed(error), toSecondInput: true)]
                ))
        }
        let valueEvents = values.map { Event.value($0) }
        let racingTerminal: Event = error.map { .failed($0) } ?? .completed
        scenarios.append(
            Scenario(
                name: "terminal on the second input racing values on the first",
                steps: [.concurrently([valueEvents + valueEvents + valueEvents], second: [[racingTerminal]])]
            ))
        let perInput = max(1, senderThreads / 2)
        scenarios.append(
            Scenario(
                name: "concurrent senders on both inputs",
                steps: [
                    .concurrently(
                        Array(repeating: valueEvents, count: perInput), second: Array(repeating: valueEvents, count: perInput))
                ] + bothComplete
            ))
        for count in 0...values.count {
            let sent = Array(interleaved.prefix(count * 2))
            scenarios.append(
                Scenario(
                    name: "disposal after \(count) value\(count == 1 ? "" : "s") on each input",
                    steps: sent + [.dispose] + Array(interleaved.dropFirst(count * 2))
                ))
        }
        if let first = values.first {
            scenarios.append(
                Scenario(name: "re-entrant send from the observer", steps: interleaved + bothComplete, reentrantValue: first))
        }
        scenarios.append(Scenario(name: "disposal from inside the observer", steps: interleaved, disposesFromInside: true))
        scenarios.append(Scenario(name: "two observers", steps: interleaved + bothComplete, secondObserver: true))
        return scenarios
    }

    /// The scripts every one-input subject is driven with: values only; values then each terminal;
    /// empty; an immediate terminal; a terminal racing values; concurrent senders; disposal at every
    /// point; a re-entrant send; disposal from inside the observer; two observers; and, when the
    /// operator's closures are probed, a re-entrant send and a disposal from inside its closure.
    static func all(values: [Input], error: InputError?, senderThreads: Int, probed: Bool) -> [Scenario] {
        let sends = values.map { Step.send(.value($0)) }
        var scenarios = [
            Scenario(name: "values", steps: sends),
            Scenario(name: "values then completed", steps: sends + [.send(.completed)]),
            Scenario(name: "values then interrupted", steps: sends + [.send(.interrupted)]),
            Scenario(name: "empty", steps: [.send(.completed)]),
            Scenario(name: "immediate interruption", steps: [.send(.interrupted)]),
        ]
        if let error {
            scenarios.insert(Scenario(name: "values then failed", steps: sends + [.send(.failed(error))]), at: 2)
            scenarios.append(Scenario(name: "immediate failure", steps: [.send(.failed(error))]))
        }
        let valueEvents = values.map { Event.value($0) }
        let racingTerminal: Event = error.map { .failed($0) } ?? .completed
        scenarios.append(
            Scenario(
                name: "terminal racing values",
                steps: [.concurrently([valueEvents + valueEvents + valueEvents, [racingTerminal]])]
            ))
        scenarios.append(
            Scenario(
                name: "concurrent senders",
                steps: [.concurrently(Array(repeating: valueEvents, count: senderThreads)), .send(.completed)]
            ))
        for count in 0...values.count {
            scenarios.append(
                Scenario(
                    name: "disposal after \(count) value\(count == 1 ? "" : "s")",
                    steps: Array(sends.prefix(count)) + [.dispose] + Array(sends.dropFirst(count))
                ))
        }
        if let first = values.first {
            scenarios.append(
                Scenario(
                    name: "re-entrant send from the observer",
                    steps: sends + [.send(.completed)],
                    reentrantValue: first
                ))
        }
        scenarios.append(Scenario(name: "disposal from inside the observer", steps: sends, disposesFromInside: true))
        scenarios.append(Scenario(name: "two observers", steps: sends + [.send(.completed)], secondObserver: true))
        if probed, let first = values.first {
            scenarios.append(
                Scenario(
                    name: "re-entrant send from the operator's closure",
                    steps: sends + [.send(.completed)],
                    reentrantValue: first,
                    actsFromUserCode: true
                ))
            scenarios.append(
                Scenario(
                    name: "disposal from inside the operator's closure",
                    steps: sends,
                    disposesFromInside: true,
                    actsFromUserCode: true
                ))
        }
        return scenarios
    }
}

extension Signal.Event {
    var contractEnd: ScenarioRecorder.OutputEnd {
        switch self {
        case .value: .open
        case .failed: .failed
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}
