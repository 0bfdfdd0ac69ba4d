import Dispatch
import Foundation
import Rivulet
import RivuletChannels

/// What the kit sent into a channel, as the source delivered it to the operator (the tap's
/// record), so that it can be replayed.
enum ChannelKitEvent<Input: Sendable>: Sendable {
    case value(Input)
    case complete
    case cancelled
    case error(String)

    init(_ result: Result<Input, ChannelEnd>) {
        switch result {
        case let .success(value): self = .value(value)
        case .failure(.complete): self = .complete
        case .failure(.cancelled): self = .cancelled
        case let .failure(.other(error)): self = .error(String(describing: error))
        }
    }

    var isEnd: Bool {
        if case .value = self { return false }
        return true
    }
}

/// One channel scenario against a fresh source and a fresh application of the operator: the
/// kit's source (a `generate` channel whose closure the kit watches, then a tap that records the
/// order in which the source delivered), the output and its handler, the operator's probed
/// closure, and the findings.
final class ChannelRun<Input: Sendable, Output: Sendable>: UserCodeHooks {
    typealias Operator = @Sendable (Channel<Input>, UserCodeProbe) -> Channel<Output>

    let scenario: String
    let options: ChannelContractOptions
    let isConcurrent: Bool
    private let makeOperator: Operator
    let probe = UserCodeProbe()

    /// What the handler and the probed closure do from inside a call.
    struct Reactions: Sendable {
        var loopbackFromHandler: Input?
        var loopbackFromUserCode: Input?
        var cancelFromHandler = false
        var cancelFromUserCode = false
        var lingers = 0
    }

    private struct State: Sendable {
        var book = TraceBook(unknownThreadName: "foreign thread")
        var kitCalls: [String] = []
        var handling: [UInt: Int] = [:]
        var userCode: [UInt: Int] = [:]
        var userCodeCalls = 0
        var reactions = Reactions()
        // The source.
        var input: ChannelInput<Input>?
        var staleInput: ChannelInput<Input>?
        var activations = 0
        var deactivations = 0
        var tapped: [ChannelKitEvent<Input>] = []
        // The operator's output and the kit's handler.
        var channel: Channel<Output>?
        var output: ChannelOutput<Output>?
        var outputs: [String] = []
        var ended = false
        var cancelledByKit = false
        var subscribing = false
        var deliveredDuringSubscribe = 0
        var secondOutputs: [String] = []
        var secondOutput: ChannelOutput<Output>?
        var isStuck = false
    }

    private let state = Locked(State())

    init(
        _ scenario: String, options: ChannelContractOptions, concurrent: Bool = false,
        _ makeOperator: @escaping Operator
    ) {
        self.scenario = scenario
        self.options = options
        self.isConcurrent = concurrent
        self.makeOperator = makeOperator
    }

    // MARK: Trace and findings

    func label(currentThreadAs label: String) {
        let key = ThreadID.current.rawValue
        state.withLock { $0.book.labels[key] = label }
    }

    func violation(_ clause: ContractClause, _ explanation: String) {
        state.withLock { $0.book.note(clause, explanation) }
    }

    /// Runs `body`, one of the kit's calls, recording it in the trace.
    @discardableResult
    func kitCall<Result>(_ kind: ContractTraceEntry.Kind, _ text: String, _ body: () -> Result) -> Result {
        let key = ThreadID.current.rawValue
        state.withLock { s in
            s.book.record(kind, text, on: key)
            s.kitCalls.append(text)
        }
        defer { state.withLock { s in _ = s.kitCalls.popLast() } }
        return body()
    }

    var violations: [ContractViolation] {
        let (findings, trace) = state.withLock { ($0.book.findings, $0.book.trace) }
        return findings.map {
            ContractViolation(
                clause: $0.clause, scenario: scenario, explanation: $0.explanation, trace: Array(trace.prefix($0.traceLength)))
        }
    }

    var isStuck: Bool { state.withLock { $0.isStuck } }

    /// Runs `body` on a new kit thread and waits up to the deadline; a scenario that does not
    /// finish is reported by where it got stuck.
    /// How many deadlines a scenario may take: it waits, one deadline at most each, for a few
    /// things that must happen (an activation, a deactivation, an end, a replay's source).
    static var deadlinesPerScenario: Double { 8 }

    func run(_ body: @escaping @Sendable (ChannelRun) -> Void) {
        let limit = options.deadline * Self.deadlinesPerScenario
        let finished = runOnKitThread(deadline: limit) { [self] in
            label(currentThreadAs: "sender 1")
            body(self)
        }
        guard !finished else { return }
        state.withLock { s in
            s.isStuck = true
            let call =
                s.kitCalls.last.map { "\($0) did not return within \(options.deadline) s" }
                ?? "the scenario did not finish within \(options.deadline) s"
            if s.userCode.values.contains(where: { $0 > 0 }) {
                s.book.note(
                    .o7,
                    "\(call), called from inside the operator's closure: the operator seems to hold a lock while it runs user code"
                )
            } else if s.handling.values.contains(where: { $0 > 0 }) {
                s.book.note(
                    .o7, "\(call), called from inside the handler: the operator seems to hold a lock while it delivers")
            } else if isConcurrent {
                s.book.note(.a9, "\(call): sends from several threads deadlocked")
            } else {
                s.book.note(.o6, "\(call): the operator blocks")
            }
        }
    }

    // MARK: The source

    /// A fresh source: a `generate` channel whose activations the kit records, then a tap that
    /// records what it delivers, in order.
    func makeSource() -> Channel<Input> {
        Channel<Input>.generate { [weak self] input in self?.sourceActivation(input) }
            .transform { [weak self] result in
                self?.state.withLock { $0.tapped.append(ChannelKitEvent(result)) }
                return .single(result)
            }
    }

    private func sourceActivation(_ input: ChannelInput<Input>?) {
        let key = ThreadID.current.rawValue
        let released = state.withLock { s -> ChannelInput<Input>? in
            if let input {
                s.activations += 1
                s.book.record(.action, "the source's closure got input #\(s.activations)", on: key)
                let previous = s.input
                s.input = input
                return previous
            }
            s.deactivations += 1
            s.book.record(.action, "the source's closure got nil", on: key)
            // The kit keeps the input to send on it later as a stale one (A5, A10).
            if s.input != nil { s.staleInput = s.input }
            s.input = nil
            return nil
        }
        withExtendedLifetime(released) {}
    }

    func recordTap(_ event: ChannelKitEvent<Input>) {
        state.withLock { $0.tapped.append(event) }
    }

    var activations: Int { state.withLock { $0.activations } }
    var deactivations: Int { state.withLock { $0.deactivations } }
    var tapped: [ChannelKitEvent<Input>] { state.withLock { $0.tapped } }
    var currentInput: ChannelInput<Input>? { state.withLock { $0.input } }
    var staleInput: ChannelInput<Input>? { state.withLock { $0.staleInput } }

    /// Lets go of the source's inputs (the caller releases them after the lock).
    func takeInputs() -> [ChannelInput<Input>] {
        state.withLock { s in
            defer {
                s.input = nil
                s.staleInput = nil
            }
            return [s.input, s.staleInput].compactMap { $0 }
        }
    }

    /// Waits (a hang guard) until the source is active; reports A1 if subscribing never activated it.
    func waitForInput(after what: String) -> ChannelInput<Input>? {
        if wait(upTo: options.deadline, until: { currentInput != nil }) { return currentInput }
        violation(.a1, "\(what) never activated the source: its closure got no input")
        return nil
    }

    /// Sends `event` on `input` as a kit call.
    @discardableResult
    func send(_ event: ChannelKitEvent<Input>, on input: ChannelInput<Input>?, _ context: String = "")
        -> ChannelSendError?
    {
        guard let input else { return .inactive }
        let text: String
        switch event {
        case let .value(value): text = "value(\(value))"
        case .complete: text = "complete"
        case .cancelled: text = "end(cancelled)"
        case let .error(description): text = "error(\(description))"
        }
        return kitCall(.input, text + context) {
            switch event {
            case let .value(value): input.send(value: value)
            case .complete: input.complete()
            case .cancelled: input.send(end: .cancelled)
            case let .error(description): input.send(error: ChannelReplayError(description: description))
            }
        }
    }

    // MARK: The operator and its output

    /// Applies the operator to `source` as a kit call and keeps the result.
    @discardableResult
    func apply(to source: Channel<Input>) -> Channel<Output> {
        probe.connect(self)
        let channel = kitCall(.action, "apply the operator") { makeOperator(source, probe) }
        state.withLock { $0.channel = channel }
        return channel
    }

    var channel: Channel<Output>? { state.withLock { $0.channel } }

    /// Subscribes the kit's handler to the operator's output as a kit call.
    func subscribe() {
        guard let channel else { return }
        state.withLock {
            $0.subscribing = true
            $0.deliveredDuringSubscribe = 0
        }
        let output = kitCall(.action, "subscribe") { channel.subscribe { [self] in handle($0) } }
        state.withLock {
            $0.subscribing = false
            $0.output = output
        }
    }

    /// Subscribes a second output, whose results go to `secondOutputs`.
    func subscribeSecond() {
        guard let channel else { return }
        let key = ThreadID.current.rawValue
        let output = kitCall(.action, "subscribe a second output") {
            channel.subscribe { [self] result in
                state.withLock { s in
                    let text = "second output: " + Self.describe(result)
                    s.book.record(.output, text, on: key)
                    s.secondOutputs.append(Self.describe(result))
                }
            }
        }
        state.withLock { $0.secondOutput = output }
    }

    var outputs: [String] { state.withLock { $0.outputs } }
    var secondOutputs: [String] { state.withLock { $0.secondOutputs } }
    var ended: Bool { state.withLock { $0.ended } }
    var deliveredDuringSubscribe: Int { state.withLock { $0.deliveredDuringSubscribe } }

    /// Cancels the kit's output and releases it (A6).
    func cancelOutput(_ context: String = "") {
        let output = state.withLock { s -> ChannelOutput<Output>? in
            s.cancelledByKit = true
            defer { s.output = nil }
            return s.output
        }
        kitCall(.action, "cancel and release the output" + context) { output?.cancel() }
        withExtendedLifetime(output) {}
    }

    /// Lets a new output be subscribed after a cancellation.
    func resetOutput() {
        state.withLock { s in
            s.cancelledByKit = false
            s.ended = false
            s.outputs = []
        }
    }

    /// Releases everything the run holds: outputs, channel and inputs (after the lock).
    func tearDown() {
        let held = state.withLock { s -> [AnyObject?] in
            defer {
                s.output = nil
                s.secondOutput = nil
                s.channel = nil
                s.input = nil
                s.staleInput = nil
            }
            s.cancelledByKit = true
            return [s.output, s.secondOutput, s.channel, s.input, s.staleInput]
        }
        (held[0] as? ChannelOutput<Output>)?.cancel()
        (held[1] as? ChannelOutput<Output>)?.cancel()
        withExtendedLifetime(held) {}
    }

    func setReactions(_ reactions: Reactions) {
        state.withLock { $0.reactions = reactions }
    }

    // MARK: The handler

    static func describe(_ result: Result<Output, ChannelEnd>) -> String {
        switch result {
        case let .success(value): "value(\(value))"
        case .failure(.complete): "complete"
        case .failure(.cancelled): "cancelled"
        case let .failure(.other(error)): "error(\(error))"
        }
    }

    static func isDuplicate(_ text: String) -> Bool {
        text.hasPrefix("error(duplicate")
    }

    private func handle(_ result: Result<Output, ChannelEnd>) {
        let key = ThreadID.current.rawValue
        let text = Self.describe(result)
        let isEnd: Bool
        if case .failure = result { isEnd = true } else { isEnd = false }
        let (linger, loopback, cancel) = state.withLock { s -> (Bool, Input?, Bool) in
            let thread = s.book.label(of: key)
            s.book.trace.append(ContractTraceEntry(kind: .output, text: text, thread: thread))
            if s.ended {
                s.book.note(.e1, "\(text) reached the handler after the output had ended")
            }
            if s.cancelledByKit {
                s.book.note(.a6, "\(text) reached the handler after the output was cancelled")
            }
            if s.handling[key, default: 0] > 0 {
                s.book.note(
                    .e6,
                    "\(text) reached the handler on \(thread) while it was still handling the previous result there: delivery is recursive, not queued"
                )
            } else if s.handling.contains(where: { $0.key != key && $0.value > 0 }) {
                s.book.note(.e5, "\(text) reached the handler on \(thread) while another thread was inside it")
            }
            s.outputs.append(text)
            if isEnd { s.ended = true }
            if s.subscribing { s.deliveredDuringSubscribe += 1 }
            s.handling[key, default: 0] += 1
            let linger = s.reactions.lingers > 0
            if linger { s.reactions.lingers -= 1 }
            var loopback: Input?
            if !isEnd {
                loopback = s.reactions.loopbackFromHandler
                s.reactions.loopbackFromHandler = nil
            }
            // The output exists only once subscribe has returned.
            let cancel = s.reactions.cancelFromHandler && !isEnd && !s.subscribing
            if cancel { s.reactions.cancelFromHandler = false }
            return (linger, loopback, cancel)
        }
        if linger { usleep(2_000) }
        if let loopback {
            send(.value(loopback), on: currentInput, " from inside the handler")
        }
        if cancel { cancelOutput(" from inside the handler") }
        state.withLock { $0.handling[key, default: 1] -= 1 }
    }

    // MARK: The operator's probed closure

    /// Lingering in the first calls of a scenario makes calls that could overlap overlap.
    private static var lingeringCalls: Int { 2 }

    func userCodeWillRun() {
        let key = ThreadID.current.rawValue
        let (linger, loopback, cancel) = state.withLock { s -> (Bool, Input?, Bool) in
            let thread = s.book.label(of: key)
            s.book.trace.append(ContractTraceEntry(kind: .userCode, text: "the operator's closure", thread: thread))
            if s.ended {
                s.book.note(
                    .e1, "the operator ran its closure on \(thread) after its output had ended: what it makes comes after the end"
                )
            }
            if s.userCode[key, default: 0] > 0 {
                s.book.note(.e6, "the operator ran its closure on \(thread) nested inside another call of it")
            } else if s.userCode.contains(where: { $0.key != key && $0.value > 0 }) {
                s.book.note(.e5, "the operator ran its closure on \(thread) while another thread was inside it")
            }
            s.userCode[key, default: 0] += 1
            s.userCodeCalls += 1
            let loopback = s.reactions.loopbackFromUserCode
            s.reactions.loopbackFromUserCode = nil
            let cancel = s.reactions.cancelFromUserCode && s.output != nil
            if cancel { s.reactions.cancelFromUserCode = false }
            // Only calls on several threads can overlap: a serial scenario does not linger.
            return (isConcurrent && s.userCodeCalls <= Self.lingeringCalls, loopback, cancel)
        }
        if linger { usleep(2_000) }
        if let loopback {
            send(.value(loopback), on: currentInput, " from inside the operator's closure")
        }
        if cancel { cancelOutput(" from inside the operator's closure") }
    }

    func userCodeDidRun() {
        let key = ThreadID.current.rawValue
        state.withLock { $0.userCode[key, default: 1] -= 1 }
    }

    var userCodeCalls: Int { state.withLock { $0.userCodeCalls } }
}

/// The error a replay sends for an `other` end the source delivered: it describes like the
/// original.
struct ChannelReplayError: Error, CustomStringConvertible {
    let description: String
}

/// A serial replay: a fresh source and a fresh application of the operator, fed `events` from
/// one thread. The output after each event, and the whole output.
struct ChannelReplay<Input: Sendable, Output: Sendable> {
    let options: ChannelContractOptions
    let makeOperator: ChannelRun<Input, Output>.Operator

    /// The outputs, and how many there were after each event (the first entry: after subscribing).
    ///
    /// With `beforeSubscribing`, the first events are sent between applying the operator and
    /// subscribing (for an operator that activates its upstream at creation).
    func play(_ events: [ChannelKitEvent<Input>], beforeSubscribing: Int = 0) -> (outputs: [String], counts: [Int]) {
        let run = ChannelRun<Input, Output>("replay", options: options, makeOperator)
        run.apply(to: run.makeSource())
        for event in events.prefix(beforeSubscribing) {
            run.send(event, on: run.currentInput)
        }
        run.subscribe()
        var counts = [run.outputs.count]
        guard let input = wait(upTo: options.deadline, until: { run.currentInput != nil }) ? run.currentInput : nil
        else {
            run.tearDown()
            return (run.outputs, counts)
        }
        for event in events.dropFirst(beforeSubscribing) {
            run.send(event, on: input)
            counts.append(run.outputs.count)
        }
        let outputs = run.outputs
        run.tearDown()
        return (outputs, counts)
    }
}
