/// Serializes the inputs of a multi-source operator (combineLatest, flatten, debounce, …) so that
/// the operator's state machine handles one input at a time.
///
/// It is a signal core with one observer: an input sent from the thread that is already handling
/// one is queued and handled right after (E6); an input from another thread waits for its turn
/// and is handled on its own thread before `send` returns (E5, E7). The state machine therefore
/// needs no lock of its own, and the handler runs with no lock held (O7).
@usableFromInline
struct SerialInbox<Input>: Sendable {
    @usableFromInline let core: SignalCore<Input, Never>

    /// An inbox that runs `handle` for each input until it is closed.
    @inlinable
    init(_ handle: @escaping (Input) -> Void) {
        core = SignalCore(resources: nil)
        // A values observer: the input reaches `handle` without being reloaded from a wrapping
        // event (which defeats store forwarding, see `Signal.Observer.sink`).
        core.observeValuesUntilEnd(handle)
    }

    /// Handles `input` after every input sent before it.
    @inlinable
    func send(_ input: Input) {
        core.send(.value(input))
    }

    /// Stops handling inputs and releases the handler, after the input being handled (if any) and
    /// those already queued. Inputs sent later are ignored.
    @usableFromInline
    func close() {
        core.send(.interrupted)
    }
}
