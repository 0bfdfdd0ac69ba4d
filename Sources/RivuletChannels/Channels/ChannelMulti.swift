/// A channel that takes any number of outputs (A4), each on a branch of its own. What a new
/// output receives first depends on how the multi was made: the latest value (`continuous`),
/// every value (`playback`), nothing (`multicast`), or whatever a custom updater keeps
/// (`customActivation`). Every `Channel` method works on a multi; each call makes a new branch.
public final class ChannelMulti<Value>: Channel<Value> {
    @usableFromInline let fanOut: MultiFanOut<Value>

    @inlinable
    init(source: ChannelSource<Value>, fanOut: MultiFanOut<Value>) {
        self.fanOut = fanOut
        // Unowned: the fan-out lives as long as the multi, which holds it.
        super.init(source: source) { [unowned fanOut] in fanOut.connectBranch($0, run: $1) }
    }
}

// @unchecked Sendable: as `Channel`; the fan-out's own state is under its lock, and its
// owner-only fields are used only from the multi node's turn.
extension ChannelMulti: @unchecked Sendable where Value: Sendable {}

extension ChannelMulti {
    /// A multi fed by `upstream`, remembering what `policy` says; multis that are active from
    /// the start activate `upstream` now.
    @inlinable
    static func make(from upstream: Channel<Value>, policy: MultiPolicy<Value>, initialValues: [Value] = [])
        -> ChannelMulti<Value>
    {
        let fanOut = MultiFanOut(policy: policy, initialValues: initialValues)
        let source = TransformSource<Value, Value>(upstream: upstream, context: .direct, stateless: { .single($0) })
        let multi = ChannelMulti(source: .of(source), fanOut: fanOut)
        fanOut.multi = multi
        fanOut.consumer = ChannelConsumer.closure { [unowned fanOut] result, _ in fanOut.receive(result) }
        if !policy.activatesOnDemand {
            ActivationRun.perform { fanOut.activateUpstream(run: $0) }
        }
        return multi
    }
}

extension Channel {
    /// A multi that gives each new output the latest value, then what follows (A4). It activates
    /// this channel now, and forgets the value when the stream ends (later outputs get the end).
    ///
    /// - Returns: The multi.
    @inlinable
    public func continuous() -> ChannelMulti<Value> {
        ChannelMulti.make(from: self, policy: .latest(whileActive: false))
    }

    /// Like `continuous()`, starting with `initialValue` until this channel sends a value.
    ///
    /// - Parameter initialValue: The value new outputs get before any value arrives.
    /// - Returns: The multi.
    @inlinable
    public func continuous(initialValue: Value) -> ChannelMulti<Value> {
        ChannelMulti.make(from: self, policy: .latest(whileActive: false), initialValues: [initialValue])
    }

    /// Like `continuous()`, but this channel is active only while the multi has outputs, and the
    /// latest value is forgotten when the last output leaves.
    ///
    /// - Returns: The multi.
    @inlinable
    public func continuousWhileActive() -> ChannelMulti<Value> {
        ChannelMulti.make(from: self, policy: .latest(whileActive: true))
    }

    /// A multi that gives each new output every value so far and the end, then what follows. It
    /// activates this channel now.
    ///
    /// - Returns: The multi.
    @inlinable
    public func playback() -> ChannelMulti<Value> {
        ChannelMulti.make(from: self, policy: .all)
    }

    /// A multi that gives new outputs nothing but what follows (and the end, once there is one).
    /// This channel is active only while the multi has outputs.
    ///
    /// - Returns: The multi.
    @inlinable
    public func multicast() -> ChannelMulti<Value> {
        ChannelMulti.make(from: self, policy: .nothing)
    }

    /// A multi whose activation values are whatever `updater` keeps: it is called with the kept
    /// values, the kept end and each result, and may change both. It activates this channel now.
    ///
    /// - Parameters:
    ///   - initialValues: The activation values before any result arrives.
    ///   - context: Where `updater` runs.
    ///   - updater: Updates the kept values and end for each result.
    /// - Returns: The multi.
    @inlinable
    public func customActivation(
        initialValues: [Value] = [], context: Exec = .direct,
        _ updater: @escaping @Sendable (inout [Value], inout ChannelEnd?, Result<Value, ChannelEnd>) -> Void
    ) -> ChannelMulti<Value> where Value: Sendable {
        let upstream = context.isDirect ? self : transform(context: context) { .single($0) }
        return ChannelMulti.make(from: upstream, policy: .custom(updater), initialValues: initialValues)
    }

    /// A multi of the running state: it starts as `initialState`, and each value replaces it with
    /// `reducer(state, value)`; new outputs get the current state. A throw ends it with `.other`.
    ///
    /// - Parameters:
    ///   - initialState: The state before any value.
    ///   - context: Where `reducer` runs.
    ///   - reducer: The next state from the state and a value.
    /// - Returns: The multi of states.
    @inlinable
    public func reduce<State>(
        initialState: State, context: Exec = .direct, _ reducer: @escaping @Sendable (State, Value) throws -> State
    ) -> ChannelMulti<State> where Value: Sendable, State: Sendable {
        map(initialState: initialState, context: context) { state, value -> State in
            state = try reducer(state, value)
            return state
        }.continuous(initialValue: initialState)
    }
}
