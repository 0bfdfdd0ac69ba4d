import Rivulet

/// The kit's side of a subject's input: the pipes it sends into, what they delivered, and whether
/// the subject has let go of them.
///
/// For a signal subject there is one pipe. For a producer subject every start of the source makes
/// a new pipe, and the kit sends into the latest one.
final class KitInput<Input: Sendable, InputError: Swift.Error>: Sendable {
    typealias Event = Signal<Input, InputError>.Event

    private struct State {
        var current: Signal<Input, InputError>.Observer?
        var taps: [Disposable] = []
        var delivered: [Event] = []
        var flag: DisposalFlag?
        var startLifetimes: [Lifetime] = []
    }

    private let state = Locked(State())
    private let recorder: ScenarioRecorder

    init(recorder: ScenarioRecorder) {
        self.recorder = recorder
    }

    /// The input for a signal subject. The kit keeps only the pipe's input observer, so once the
    /// subject lets go of the signal and stops observing it, the signal is disposed of (S4).
    func makeSignal() -> Signal<Input, InputError> {
        let flag = DisposalFlag()
        let (signal, input) = Signal<Input, InputError>.pipe(disposable: flag)
        recorder.ownSignal(signal.auditIdentity)
        let tap = tapping(signal)
        let replaced = state.withLock { state -> Signal<Input, InputError>.Observer? in
            defer { state.current = input }
            state.flag = flag
            if let tap { state.taps.append(tap) }
            return state.current
        }
        // Released after the lock: a dropped input observer interrupts its signal, which runs
        // observers (the kit's tap among them, which takes this lock).
        withExtendedLifetime(replaced) {}
        return signal
    }

    /// The input for a producer subject: each start makes a pipe the kit then sends into.
    func makeProducer() -> SignalProducer<Input, InputError> {
        SignalProducer { [self] observer, lifetime in
            let (signal, input) = Signal<Input, InputError>.pipe()
            recorder.ownSignal(signal.auditIdentity)
            let tap = tapping(signal)
            lifetime += signal.observe(observer)
            // A disposed start must not count what the kit sends afterwards as delivered.
            lifetime.observeEnded { input.sendInterrupted() }
            let replaced = state.withLock { state -> Signal<Input, InputError>.Observer? in
                defer { state.current = input }
                state.startLifetimes.append(lifetime)
                if let tap { state.taps.append(tap) }
                return state.current
            }
            // Released after the lock, as in `makeSignal`.
            withExtendedLifetime(replaced) {}
        }
    }

    /// Observes `signal` before the subject does, so the events are recorded in the order the
    /// signal delivers them: after serialization of concurrent and re-entrant sends.
    private func tapping(_ signal: Signal<Input, InputError>) -> Disposable? {
        signal.observe { [state] event in
            state.withLock { $0.delivered.append(event) }
        }
    }

    func send(_ event: Event) {
        let input = state.withLock { $0.current }
        input?.send(event)
    }

    /// Whether the subject's source has been started (producers): the kit has somewhere to send.
    var hasStarted: Bool { state.withLock { $0.current != nil } }
    var startCount: Int { state.withLock { $0.startLifetimes.count } }
    var delivered: [Event] { state.withLock { $0.delivered } }

    /// Stops recording, so that the kit no longer observes its own input.
    func removeTaps() {
        let taps = state.withLock { state -> [Disposable] in
            defer { state.taps = [] }
            return state.taps
        }
        taps.forEach { $0.dispose() }
    }

    /// Whether the subject has let go of its input: the signal was disposed of or terminated, or
    /// every start of the source has ended.
    var isReleased: Bool {
        // Read out first: a lifetime's state is behind a lock of its own.
        let (flag, lifetimes) = state.withLock { ($0.flag, $0.startLifetimes) }
        if let flag { return flag.isDisposed }
        return lifetimes.allSatisfy(\.hasEnded)
    }
}
