import Dispatch
import Foundation
import Rivulet

/// One scenario against a fresh subject: steps on kit threads under the deadline, the kit's
/// observers, and the probe's findings at the end.
final class PropertyRun<Value>: Sendable {
    let scenario: String
    let options: ContractOptions
    let probe = PropertyProbe()
    private let makeFixture: @Sendable () -> PropertyFixture<Value>

    private struct State {
        var fixture: PropertyFixture<Value>?
        var observations: [Disposable] = []
        /// The input to set from inside the signal observer's first emission (E6), if any.
        var reentrantInput: Int?
        /// Whether the observers compare the value they read with the one emitted (R2).
        var comparesInsideObserver = true
        var isStuck = false
    }

    private let state = Locked(State())

    init(_ scenario: String, options: ContractOptions, _ makeFixture: @escaping @Sendable () -> PropertyFixture<Value>) {
        self.scenario = scenario
        self.options = options
        self.makeFixture = makeFixture
    }

    var isStuck: Bool { state.withLock { $0.isStuck } }
    /// The subject; only valid once `makeSubject()` succeeded.
    var fixture: PropertyFixture<Value> { state.withLock { $0.fixture! } }

    /// Runs `body` on a new kit thread and waits up to the deadline; a step that does not finish
    /// is reported as the probe tells and the scenario stops.
    @discardableResult
    func step(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard !isStuck else { return false }
        let finished = probe.runStep(deadline: options.deadline, body)
        if !finished { state.withLock { $0.isStuck = true } }
        return finished
    }

    /// Makes the subject (user code, so under the deadline too). Returns whether it was made.
    func makeSubject() -> Bool {
        step { [self] in
            let fixture = probe.kitCall(.action, "make the subject") { makeFixture() }
            state.withLock { $0.fixture = fixture }
        }
    }

    func setReentrantInput(_ index: Int?) { state.withLock { $0.reentrantInput = index } }
    func setComparesInsideObserver(_ compares: Bool) { state.withLock { $0.comparesInsideObserver = compares } }

    // MARK: Kit calls

    /// Sets the input at `index` as a kit call.
    func set(_ index: Int, _ context: String = "", stuckClause: ContractClause? = nil) {
        let fixture = fixture
        probe.kitCall(.input, "set \(fixture.inputs[index])\(context)", stuckClause: stuckClause) { fixture.set(index) }
    }

    /// Reads the subject's value as a kit call, described.
    func read(_ context: String = "", stuckClause: ContractClause? = nil) -> String {
        let fixture = fixture
        return probe.kitCall(.action, "read value\(context)", stuckClause: stuckClause) { String(describing: fixture.read()) }
    }

    /// Observes the subject's signal with the kit's "signal" observer.
    func observeSignal() {
        let fixture = fixture
        let observer = makeObserver("signal")
        keep(probe.kitCall(.action, "observe signal") { fixture.signal().observe(observer) })
    }

    /// Starts the subject's producer with the kit's "producer" observer.
    func startProducer() {
        let fixture = fixture
        let observer = makeObserver("producer")
        keep(probe.kitCall(.action, "start producer") { fixture.producer().start(observer) })
    }

    private func keep(_ disposable: Disposable?) {
        guard let disposable else { return }
        state.withLock { $0.observations.append(disposable) }
    }

    /// Disposes of the kit's observations.
    func disposeObservations() {
        let observations = state.withLock { state -> [Disposable] in
            defer { state.observations = [] }
            return state.observations
        }
        probe.kitCall(.action, "dispose observations") { observations.forEach { $0.dispose() } }
    }

    // MARK: Observers

    /// An observer that records each emission, reads the value from inside it (R3) and
    /// compares it with the emitted one (R2), and sets the re-entrant input if there is one.
    private func makeObserver(_ name: String) -> Signal<Value, Never>.Observer {
        Signal<Value, Never>.Observer { [self] event in
            switch event {
            case let .value(value):
                let text = String(describing: value)
                if probe.beginDelivery(name, text) { usleep(5_000) }
                let inside = read(" inside the \(name) observer", stuckClause: .r3)
                if state.withLock({ $0.comparesInsideObserver }), inside != text {
                    probe.violation(
                        .r2,
                        "inside the \(name) observer of value(\(text)) the property's value was \(inside): the change was emitted before it was visible"
                    )
                }
                if name == "signal",
                    let index = state.withLock({ s -> Int? in
                        defer { s.reentrantInput = nil }
                        return s.reentrantInput
                    })
                {
                    set(index, " from inside the signal observer", stuckClause: .e6)
                }
                probe.endDelivery()
            case .completed:
                probe.ended(name, "completed")
            case .interrupted:
                probe.ended(name, "interrupted")
            }
        }
    }

    // MARK: Report

    var violations: [ContractViolation] {
        let trace = probe.trace
        return probe.findings.map {
            ContractViolation(
                clause: $0.clause, scenario: scenario, explanation: $0.explanation, trace: Array(trace.prefix($0.traceLength)))
        }
    }
}
