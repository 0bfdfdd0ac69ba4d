/// An event as the reference models see it: failures carry the `TestError`'s code.
enum ModelEvent<Value: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
    case value(Value)
    case failed(Int)
    case completed
    case interrupted

    var isTerminal: Bool {
        if case .value = self { return false }
        return true
    }

    var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failed(let code): "failed(\(code))"
        case .completed: "completed"
        case .interrupted: "interrupted"
        }
    }
}

/// An input of a reference model: an event on one of the operator's inputs, or one tick of the
/// virtual clock (one second).
enum ModelInput: Equatable, Sendable {
    case event(port: Int, ModelEvent<Int>)
    case tick
    /// The producer form's start was disposed of: the interruption enters at the source, so most
    /// models read it as port 0's interruption (`asSourceEvent`); a few handle it themselves.
    case disposed

    /// The input with a disposal read as port 0's interruption.
    var asSourceEvent: ModelInput {
        self == .disposed ? .event(port: 0, .interrupted) : self
    }
}

/// A reference model: a plain function from the inputs, in the order they happened, to the
/// events the operator sends. Models are written from the documented semantics, never by calling
/// Rivulet.
typealias FuzzModel<Out: Equatable & Sendable> = @Sendable ([ModelInput]) -> [ModelEvent<Out>]

/// Cuts a stream after its first terminal event (E1): models may be written without caring.
func grammatical<V>(_ events: [ModelEvent<V>]) -> [ModelEvent<V>] {
    guard let end = events.firstIndex(where: \.isTerminal) else { return events }
    return Array(events[...end])
}

/// The events of port 0, in order, up to and including its terminal event; ticks are left out.
func portEvents(_ inputs: [ModelInput], _ port: Int = 0) -> [ModelEvent<Int>] {
    grammatical(
        inputs.compactMap {
            if case .event(port, let event) = $0.asSourceEvent { return event }
            return nil
        })
}

/// Builds a model of a one-input operator without a clock from a function of port 0's events.
func unaryModel<Out>(_ body: @escaping @Sendable ([ModelEvent<Int>]) -> [ModelEvent<Out>]) -> FuzzModel<Out> {
    { inputs in grammatical(body(portEvents(inputs))) }
}

/// A model of a stateless per-value operator: each value maps to zero or more values, and terminal
/// events pass through.
func valueModel<Out>(_ transform: @escaping @Sendable (Int) -> [Out]) -> FuzzModel<Out> {
    unaryModel { events in
        events.flatMap { event -> [ModelEvent<Out>] in
            switch event {
            case .value(let value): transform(value).map { .value($0) }
            case .failed(let code): [.failed(code)]
            case .completed: [.completed]
            case .interrupted: [.interrupted]
            }
        }
    }
}

/// A virtual clock for the timed models, behaving as `TestScheduler` is documented to: actions
/// run in order of due time, then in the order they were scheduled; an action scheduled "now"
/// runs at the next advance; each advance runs everything due by its end, including what the
/// actions schedule on the way.
struct ModelClock<Action> {
    private(set) var now = 0
    private var nextID = 0
    private var pending: [(due: Int, id: Int, action: Action)] = []

    /// Schedules `action` `delay` ticks from now (0: at the next advance); returns its id.
    @discardableResult
    mutating func schedule(after delay: Int = 0, _ action: Action) -> Int {
        nextID += 1
        pending.append((now + delay, nextID, action))
        return nextID
    }

    mutating func cancel(_ id: Int) {
        pending.removeAll { $0.id == id }
    }

    mutating func cancelAll() {
        pending.removeAll()
    }

    /// The next action due by the end of the current tick, if any, with the clock moved to it.
    mutating func nextDue(before end: Int) -> Action? {
        guard let index = pending.indices.min(by: { (pending[$0].due, pending[$0].id) < (pending[$1].due, pending[$1].id) }),
            pending[index].due <= end
        else { return nil }
        let entry = pending.remove(at: index)
        now = max(now, entry.due)
        return entry.action
    }

    mutating func finishTick(at end: Int) { now = end }
}

/// Runs a timed model: `onInput` handles each input event, `onAction` each scheduled action when
/// it is due. Both may schedule actions and append output.
func clockedModel<State: Sendable, Action, Out>(
    initial: State,
    onInput: @escaping @Sendable (inout State, inout ModelClock<Action>, Int, ModelEvent<Int>, inout [ModelEvent<Out>]) -> Void,
    onAction: @escaping @Sendable (inout State, inout ModelClock<Action>, Action, inout [ModelEvent<Out>]) -> Void,
    onDisposal: (@Sendable (inout State, inout ModelClock<Action>, inout [ModelEvent<Out>]) -> Void)? = nil,
    onStart: (@Sendable (inout State, inout ModelClock<Action>) -> Void)? = nil
) -> FuzzModel<Out> {
    { inputs in
        var state = initial
        var clock = ModelClock<Action>()
        var output: [ModelEvent<Out>] = []
        var ended: Set<Int> = []
        onStart?(&state, &clock)
        for input in inputs {
            if output.last?.isTerminal == true { break }
            switch input {
            case .disposed where onDisposal != nil:
                onDisposal?(&state, &clock, &output)
                ended.insert(0)
            case .disposed:
                guard !ended.contains(0) else { continue }
                ended.insert(0)
                onInput(&state, &clock, 0, .interrupted, &output)
            case .event(let port, let event):
                guard !ended.contains(port) else { continue }
                if event.isTerminal { ended.insert(port) }
                onInput(&state, &clock, port, event, &output)
            case .tick:
                let end = clock.now + 1
                while output.last?.isTerminal != true, let action = clock.nextDue(before: end) {
                    onAction(&state, &clock, action, &output)
                }
                clock.finishTick(at: end)
            }
        }
        return grammatical(output)
    }
}
