import Foundation
@testable import Rivulet

// Runs one generated script against one operator, in its signal form and then its producer form,
// and compares what each observer received with the operator's reference model; checks E1, E5, E6
// and S5 on the way. Returns a description of the first difference, or nil.

/// The test's side of the operator's inputs: two pipes (unary operators ignore the second), and
/// the log of every input in the order it happened, re-entrant sends and clock ticks included.
/// The log is what the models are given.
final class FuzzInputs: Sendable {
    let pipes: [(output: Signal<Int, TestError>, input: Signal<Int, TestError>.Observer)]
    private let log = Locked<[ModelInput]>([])
    /// The value observer 0 sends into port 0 at its next value, if any.
    private let reentry = Locked<Int?>(nil)
    /// Per port: how many starts of its producer began, and how many ended.
    let starts = [Counter(), Counter()]
    let ends = [Counter(), Counter()]
    /// How many inner streams (flattening) began and ended.
    let innerStarts = Counter()
    let innerEnds = Counter()
    let scheduler = TestScheduler()

    init() { pipes = [Signal.pipe(), Signal.pipe()] }

    var inputs: [ModelInput] { log.withLock { $0 } }
    var count: Int { log.withLock { $0.count } }

    func send(_ port: Int, _ event: ModelEvent<Int>) {
        log.withLock { $0.append(.event(port: port, event)) }
        pipes[port].input.send(event.signalEvent)
    }

    /// Whether the clock is moving. Observer 0 does not send re-entrantly then: the models see a
    /// tick as one step, so they cannot place an input made in the middle of one.
    private let ticking = Locked(false)

    func tick() {
        log.withLock { $0.append(.tick) }
        ticking.withLock { $0 = true }
        scheduler.advance(by: 1.0)
        ticking.withLock { $0 = false }
    }

    /// S5 for inner streams: none ends twice, and all have ended once the output has.
    func innerProblem(outputEnded: Bool) -> String? {
        let (started, ended) = (innerStarts.value, innerEnds.value)
        if ended > started { return "S5: \(ended) inner streams ended after \(started) starts" }
        if outputEnded, ended != started {
            return "S5: \(started - ended) of \(started) inner streams were not disposed after the output ended"
        }
        return nil
    }

    func arm(_ value: Int) { reentry.withLock { $0 = value } }

    /// The disposal observer 0 makes from inside its delivery: armed by a script step (at this
    /// log position), fired at its next value (at that log position).
    private let inside = Locked<(armedAt: Int?, firedAt: Int?, disposable: Disposable?)>((nil, nil, nil))

    func armInsideDisposal() {
        let position = count
        inside.withLock { if $0.armedAt == nil { $0.armedAt = position } }
    }

    func setInsideDisposable(_ disposable: Disposable?) { inside.withLock { $0.disposable = disposable } }

    /// Ends a run once its checks are made: the observers (whose handlers capture these inputs,
    /// a cycle through the stream) are disposed of, the sources interrupted (a signal form's
    /// stream is still referenced, and a repeating timer in it would run on), and the clock runs
    /// until nothing is left scheduled, so that everything the run made is let go and the
    /// live-object check can tell a leak from the run's own cycles.
    func tearDown(_ disposables: [Disposable?]) {
        for disposable in disposables { disposable?.dispose() }
        inside.withLock { $0.disposable = nil }
        reentry.withLock { $0 = nil }
        for pipe in pipes { pipe.input.sendInterrupted() }
        scheduler.run()
    }

    var insideDisposal: (armedAt: Int?, firedAt: Int?) { inside.withLock { ($0.armedAt, $0.firedAt) } }

    /// Called by observer 0 at each value: fires the armed disposal. The producer form does not
    /// fire during a tick, since the models see a tick as one step.
    func disposeFromInsideIfArmed(duringTicks: Bool) {
        if !duringTicks, ticking.withLock({ $0 }) { return }
        let position = count
        let disposable = inside.withLock { state -> Disposable? in
            guard state.armedAt != nil, state.firedAt == nil else { return nil }
            state.firedAt = position
            defer { state.disposable = nil }
            return state.disposable
        }
        disposable?.dispose()
    }

    /// Called by observer 0 at each value: sends the armed value re-entrantly.
    func reenterIfArmed() {
        if ticking.withLock({ $0 }) { return }
        if let value = reentry.withLock({ armed -> Int? in
            defer { armed = nil }
            return armed
        }) {
            send(0, .value(value))
        }
    }

    /// The producer of `port`: each start observes the pipe and counts its start and its end.
    func producer(_ port: Int) -> SignalProducer<Int, TestError> {
        let signal = pipes[port].output
        let (started, ended) = (starts[port], ends[port])
        return SignalProducer { observer, lifetime in
            started.increment()
            let observation = signal.observe(observer)
            _ = lifetime.observeEnded {
                observation?.dispose()
                ended.increment()
            }
        }
    }
}

/// What one observer received. The handler flags an overlapping or recursive delivery (E5, E6)
/// with an in-flight flag, and holds a token whose release shows the observer was let go (S5).
final class FuzzRecording<Out: Equatable & Sendable>: Sendable {
    private struct State {
        var events: [ModelEvent<Out>] = []
        var inFlight = false
        var overlaps = 0
    }
    private let state = Locked(State())
    let token = WeakBox<Tracked>(nil)

    var events: [ModelEvent<Out>] { state.withLock { $0.events } }
    var values: [Out] {
        events.compactMap {
            if case .value(let value) = $0 { return value }
            return nil
        }
    }
    var overlaps: Int { state.withLock { $0.overlaps } }

    /// The observer's handler; `onValue` runs after each value is recorded.
    func handler(onValue: @escaping @Sendable () -> Void) -> @Sendable (ModelEvent<Out>) -> Void {
        let tracked = Tracked()
        token.object = tracked
        return { [state] event in
            withExtendedLifetime(tracked) {}
            let nested = state.withLock { state -> Bool in
                let nested = state.inFlight
                if nested { state.overlaps += 1 }
                state.inFlight = true
                state.events.append(event)
                return nested
            }
            if case .value = event { onValue() }
            if !nested { state.withLock { $0.inFlight = false } }
        }
    }

    /// E1, E5 and E6 problems, if any.
    var grammarProblem: String? {
        let events = self.events
        if let end = events.firstIndex(where: \.isTerminal), end != events.count - 1 {
            return "E1: \(events[end + 1]) arrived after the terminal event \(events[end])"
        }
        if overlaps > 0 { return "E5/E6: \(overlaps) deliveries overlapped or recursed into a running one" }
        return nil
    }
}

private struct Attached<Out: Equatable & Sendable> {
    let recording = FuzzRecording<Out>()
    var disposable: Disposable?
    /// The input-log positions when the observer joined and left.
    let joinedAt: Int
    var leftAt: Int?
}

/// Runs `script` against both forms of `operation`; returns the first problem found.
func runFuzzScript<Out>(_ operation: FuzzOperator<Out>, _ script: FuzzScript) -> String? {
    if operation.signal != nil, let problem = runSignalForm(operation, script) { return "signal form: " + problem }
    if operation.producer != nil, let problem = runProducerForm(operation, script) { return "producer form: " + problem }
    return nil
}

private func perform(_ step: FuzzStep, _ inputs: FuzzInputs) {
    switch step {
    case .send(let port, let value): inputs.send(port, .value(value))
    case .fail(let port, let code): inputs.send(port, .failed(code))
    case .complete(let port): inputs.send(port, .completed)
    case .interrupt(let port): inputs.send(port, .interrupted)
    case .advance(let ticks): for _ in 0..<ticks { inputs.tick() }
    case .reenter(let value): inputs.arm(value)
    case .disposeFromInside: inputs.armInsideDisposal()
    case .join, .leave, .dispose: break
    }
}

private func runSignalForm<Out>(_ operation: FuzzOperator<Out>, _ script: FuzzScript) -> String? {
    let inputs = FuzzInputs()
    guard let makeSignal = operation.signal else { return nil }
    let stream = makeSignal(inputs.pipes.map(\.output), inputs)
    var observers: [Attached<Out>] = []
    func join() {
        var attached = Attached<Out>(joinedAt: inputs.count)
        let first = observers.isEmpty
        attached.disposable = stream.attach(
            attached.recording.handler {
                guard first else { return }
                inputs.disposeFromInsideIfArmed(duringTicks: true)
                inputs.reenterIfArmed()
            })
        if first { inputs.setInsideDisposable(attached.disposable) }
        observers.append(attached)
    }
    func leave(_ index: Int) {
        guard observers.indices.contains(index), observers[index].leftAt == nil else { return }
        observers[index].leftAt = inputs.count
        observers[index].disposable?.dispose()
    }
    join()
    defer { inputs.tearDown(observers.map(\.disposable)) }
    for step in script.steps {
        switch step {
        case .join: join()
        case .leave(let index): leave(index)
        case .dispose: for index in observers.indices { leave(index) }
        default: perform(step, inputs)
        }
    }
    let log = inputs.inputs
    let full = operation.model(log)
    for (index, observer) in observers.enumerated() {
        let before = operation.model(Array(log[..<observer.joinedAt]))
        guard full.starts(with: before) else { return "the model is not causal: \(before) then \(full)" }
        let expected: [ModelEvent<Out>]
        if before.last?.isTerminal == true {
            expected = [.interrupted] // S3: observing a terminated signal
        } else {
            var end = observer.leftAt.map { operation.model(Array(log[..<$0])).count } ?? full.count
            if index == 0, case (let armedAt?, _?) = inputs.insideDisposal {
                // It left right after its first value at or after the arming.
                let armed = max(before.count, operation.model(Array(log[..<armedAt])).count)
                if let value = full[armed...].firstIndex(where: { !$0.isTerminal }) { end = min(end, value + 1) }
            }
            expected = Array(full[before.count..<end])
        }
        let recording = observer.recording
        if let problem = recording.grammarProblem { return "observer \(index): \(problem)" }
        if recording.events != expected {
            return "observer \(index) received \(recording.events), the model expects \(expected)"
        }
        let ended =
            observer.leftAt != nil || recording.events.last?.isTerminal == true || expected.count < full.count - before.count
        if let problem = inputs.innerProblem(outputEnded: full.last?.isTerminal == true) { return problem }
        if ended, recording.token.object != nil {
            return "S5: observer \(index) was not released after \(observer.leftAt != nil ? "leaving" : "the terminal event")"
        }
    }
    withExtendedLifetime(inputs) {}
    return nil
}

/// Whether port 0 had sent its terminal event.
private func sourceEnded(_ log: [ModelInput]) -> Bool {
    log.contains { if case .event(0, let event) = $0 { event.isTerminal } else { false } }
}

private func runProducerForm<Out>(_ operation: FuzzOperator<Out>, _ script: FuzzScript) -> String? {
    guard let makeProducer = operation.producer else { return nil }
    let inputs = FuzzInputs()
    let stream = makeProducer([inputs.producer(0), inputs.producer(1)], inputs)
    let recording = FuzzRecording<Out>()
    let disposable = stream.attach(
        recording.handler {
            inputs.disposeFromInsideIfArmed(duringTicks: false)
            inputs.reenterIfArmed()
        })
    inputs.setInsideDisposable(disposable)
    defer { inputs.tearDown([disposable]) }
    var disposedAt: Int?
    for step in script.steps {
        switch step {
        case .join, .leave: break
        case .dispose:
            if disposedAt == nil { disposedAt = inputs.count }
            disposable?.dispose()
        default: perform(step, inputs)
        }
    }
    let log = inputs.inputs
    var expected: [ModelEvent<Out>]
    let (armedAt, firedAt) = inputs.insideDisposal
    if let armedAt, let firedAt, firedAt <= disposedAt ?? firedAt,
        operation.disposalEntersAtSource ? sourceEnded(Array(log[..<firedAt])) : true
    {
        // Disposed of from inside the delivery of a value after the source had ended (or by an
        // operator that interrupts at itself): the interruption is queued right behind that value
        // and pre-empts whatever the operator sends next, as in ReactiveSwift.
        let outputs = operation.model(Array(log[..<firedAt]))
        let armed = operation.model(Array(log[..<armedAt])).count
        let value = outputs[armed...].firstIndex { !$0.isTerminal } ?? outputs.count - 1
        expected = Array(outputs[...value]) + [.interrupted]
    } else if let disposedAt = firedAt.map({ min(disposedAt ?? $0, $0) }) ?? disposedAt {
        // P4, as in ReactiveSwift: the interruption enters the chain at its source and flows down
        // through every stage; a stage that delivers on a scheduler delivers it there (at a later
        // tick). Only the clock goes on after the disposal.
        let after = log[disposedAt...].filter { $0 == .tick }
        if operation.disposalEntersAtSource {
            expected = operation.model(Array(log[..<disposedAt]) + [.disposed] + after)
            if !operation.timed, expected.last?.isTerminal != true { expected.append(.interrupted) }
        } else {
            expected = operation.model(Array(log[..<disposedAt]))
            if expected.last?.isTerminal != true { expected.append(.interrupted) }
        }
    } else {
        expected = operation.model(log)
    }
    if let problem = recording.grammarProblem { return problem }
    if recording.events != expected { return "received \(recording.events), the model expects \(expected)" }
    let outputEnded = expected.last?.isTerminal == true
    let disposed = disposedAt != nil || firedAt != nil
    if let problem = inputs.innerProblem(outputEnded: outputEnded || disposed) { return problem }
    if outputEnded, recording.token.object != nil { return "S5: the observer was not released after the terminal event" }
    for port in 0..<2 {
        let (started, ended) = (inputs.starts[port].value, inputs.ends[port].value)
        let portEnded = log.contains { if case .event(port, let event) = $0 { return event.isTerminal } else { return false } }
        let mustEnd = started > 0 && (portEnded || (outputEnded || disposed) && !operation.upstreamOutlivesDisposal)
        if ended > started { return "S5: source \(port) ended \(ended) times after \(started) starts" }
        if mustEnd, ended != started { return "S5: source \(port) was not disposed (\(started) starts, \(ended) ends)" }
        // A trigger (port 1) may be stopped early where documented (`skip(until:)` once it fired).
        if port == 0, !mustEnd, !operation.upstreamOutlivesDisposal, ended != 0 {
            return "source 0 was disposed while the output and the source were running"
        }
    }
    withExtendedLifetime(disposable) {}
    return nil
}
