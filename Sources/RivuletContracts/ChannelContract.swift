import RivuletChannels

/// What a channel operator is documented to do, for `ChannelContract`. The defaults describe a
/// plain operator: it returns a single-output `Channel`, activates its upstream only when an
/// output attaches, and passes its input's end on.
///
/// No option loosens a check silently. Each declares a behaviour, the kit checks the operator
/// against the declaration (a declaration the operator does not live up to is reported under the
/// clause it concerns), and the scenario that the declaration changes says so in its name.
public struct ChannelContractOptions: Sendable {
    /// How long one scenario may take, in seconds, before the kit reports the operator as blocked
    /// (O6; O7 when it got stuck inside a call made from user code; A9 when senders deadlock), and
    /// how long the kit waits for something that must happen (an activation, a deactivation, an end).
    public var deadline: Double

    /// How many threads send at once in the concurrent scenario.
    public var senderThreads: Int

    /// The operator returns a `ChannelMulti` (`continuous`, `playback`, `multicast`…). A4 then
    /// checks fan-out (a second output is served, and sees what the first sees from then on)
    /// instead of the `duplicate` answer. The kit checks the returned channel's type against this.
    public var returnsMulti: Bool

    /// The operator activates its upstream as soon as it is applied, and keeps it active without
    /// outputs (`continuous`, `playback`, `customActivation`, `reduce`). A1 then requires that
    /// applying it *does* activate the source; releasing the output must leave the source active
    /// (A6), and the fresh-state and stale-send checks of re-subscribing are not made (their
    /// scenario says so in its name), nor the check that a send with no output goes nowhere (A5).
    public var activatesUpstreamAtCreation: Bool

    /// The operator documents that its input's end does not end its output (it swallows ends). A7
    /// then requires the output to stay open when the input is released, instead of ending with
    /// `cancelled`.
    public var swallowsInputEnds: Bool

    /// The operator documents that it turns its input's end into a value and then completes
    /// (`materialize`). A7 then requires that releasing the input ends the output with `complete`
    /// after at least one more value, instead of ending it with `cancelled`.
    public var turnsInputEndsIntoValues: Bool

    /// Options describing a channel operator; see each property.
    ///
    /// - Parameters:
    ///   - deadline: How long one scenario may take, in seconds; greater than 0.
    ///   - senderThreads: How many threads send at once in the concurrent scenarios; 2 or more.
    ///   - returnsMulti: Whether the operator returns a multi (several outputs may attach).
    ///   - activatesUpstreamAtCreation: Whether the operator activates its input as soon as it is
    ///     made (a cache).
    ///   - swallowsInputEnds: Whether the input's end is not owed at the output by design.
    ///   - turnsInputEndsIntoValues: Whether the input's end reaches the output as a value by
    ///     design.
    /// - Precondition: `deadline` is greater than 0 and `senderThreads` is 2 or more.
    public init(
        deadline: Double = 5,
        senderThreads: Int = 3,
        returnsMulti: Bool = false,
        activatesUpstreamAtCreation: Bool = false,
        swallowsInputEnds: Bool = false,
        turnsInputEndsIntoValues: Bool = false
    ) {
        precondition(
            deadline > 0, "RivuletContracts: ChannelContractOptions.init: deadline is \(deadline); it must be greater than 0")
        precondition(
            senderThreads >= 2,
            "RivuletContracts: ChannelContractOptions.init: senderThreads is \(senderThreads); it must be 2 or more")
        self.deadline = deadline
        self.senderThreads = senderThreads
        self.returnsMulti = returnsMulti
        self.activatesUpstreamAtCreation = activatesUpstreamAtCreation
        self.swallowsInputEnds = swallowsInputEnds
        self.turnsInputEndsIntoValues = turnsInputEndsIntoValues
    }

    /// The options of an operator that returns a plain channel, activates nothing until an output
    /// attaches and forwards its input's end.
    public static let `default` = ChannelContractOptions()
}

/// Checks a channel operator — a function from a `Channel` to a `Channel` — against the
/// activation contracts (A1–A10) and the event contracts that channels share with signals.
///
/// Each scenario makes a fresh source with `Channel.generate`, whose closure the kit watches (it
/// records every activation and every `nil`), applies the operator to it, and subscribes, sends,
/// releases and re-subscribes:
///
/// - applying the operator activates nothing (A1), and a send with no output goes nowhere (A5);
/// - activation values of a `continuous` upstream arrive inside `subscribe`, before a value sent
///   from the handler meanwhile and before later values (A2);
/// - releasing the output deactivates the source (A6: its closure hears `nil`); re-subscribing
///   activates it afresh with a new input (A3) and fresh state (A6); a send on the first
///   activation's input goes nowhere (A5) and never reaches the new output (A10);
/// - a second output of a plain channel ends at once with `duplicate` and leaves the first alone;
///   a multi serves both (A4);
/// - releasing the source's input ends the output with `cancelled` (A7);
/// - several threads send at once while the handler sends back: no handler calls overlap (E5),
///   none nests (E6), nothing deadlocks, and the output equals a serial replay of what the
///   source delivered, in its order (A9);
/// - nothing reaches the handler after an end or after the output was cancelled (E1, A6), and
///   the operator's probed closure does not run after the output ended (E1);
/// - cancelling the output, and sending, from inside the handler and from inside the operator's
///   probed closure do not deadlock (O7), and the closure is never run on two threads at once
///   (E5) or nested in itself (E6).
///
/// ```swift
/// let report = ChannelContract.verify("tripled") { (channel: Channel<Int>) in
///     channel.map { $0 * 3 }
/// }
/// #expect(report.isConforming, "\(report)")
/// ```
///
/// The operator closure runs on the kit's threads, once per scenario (and once per replay); it
/// must build the same operator each time. Outputs are compared by their description.
public enum ChannelContract {
    /// Checks a channel operator on `Int` inputs (1, 2, 3, 4).
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - options: How the kit drives the subject; see `ChannelContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input channel; called once per
    ///     scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    public static func verify<Output: Sendable>(
        _ name: String,
        options: ChannelContractOptions = .default,
        _ operator: @escaping @Sendable (Channel<Int>) -> Channel<Output>
    ) -> ContractReport {
        verify(name, inputs: [1, 2, 3, 4], options: options, `operator`)
    }

    /// Checks a channel operator on the given input values (at least three).
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; at least three.
    ///   - options: How the kit drives the subject; see `ChannelContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input channel; called once per
    ///     scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    public static func verify<Input: Sendable, Output: Sendable>(
        _ name: String,
        inputs: [Input],
        options: ChannelContractOptions = .default,
        _ operator: @escaping @Sendable (Channel<Input>) -> Channel<Output>
    ) -> ContractReport {
        ChannelContractRunner.report(name, inputs: inputs, options: options, probed: false) { channel, _ in
            `operator`(channel)
        }
    }

    /// Checks a channel operator that takes closures, each wrapped in the kit's `UserCodeProbe`:
    /// the kit also sees how the operator calls them (E1, E5, E6, O7).
    ///
    /// ```swift
    /// let report = ChannelContract.verify("scaled", inputs: [1, 2, 3]) {
    ///     (channel: Channel<Int>, probe: UserCodeProbe) in
    ///     channel.map(probe.wrap { $0 * 10 })
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - inputs: The values the kit sends into the subject's input, in order; at least three.
    ///   - options: How the kit drives the subject; see `ChannelContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input channel and a probe whose
    ///     `wrap` the operator's closures go through; called once per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    public static func verify<Input: Sendable, Output: Sendable>(
        _ name: String,
        inputs: [Input],
        options: ChannelContractOptions = .default,
        _ operator: @escaping @Sendable (Channel<Input>, UserCodeProbe) -> Channel<Output>
    ) -> ContractReport {
        ChannelContractRunner.report(name, inputs: inputs, options: options, probed: true, `operator`)
    }

    /// The probed form on `Int` inputs (1, 2, 3, 4).
    ///
    /// - Parameters:
    ///   - name: The subject's name, as the report shows it.
    ///   - options: How the kit drives the subject; see `ChannelContractOptions`.
    ///   - operator: Applies the operator under test to the kit's input channel and a probe whose
    ///     `wrap` the operator's closures go through; called once per scenario.
    /// - Returns: The report: the clauses checked and every violation, with the events that showed
    ///   it.
    public static func verify<Output: Sendable>(
        _ name: String,
        options: ChannelContractOptions = .default,
        _ operator: @escaping @Sendable (Channel<Int>, UserCodeProbe) -> Channel<Output>
    ) -> ContractReport {
        verify(name, inputs: [1, 2, 3, 4], options: options, `operator`)
    }
}
