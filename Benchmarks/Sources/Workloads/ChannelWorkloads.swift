import Rivulet
import RivuletChannels

/// One workload on activation channels (RivuletChannels), written three times: with channels, with
/// Rivulet's core `Signal` (the same shape as a core workload, so the ratio is fair), and with plain
/// Swift closures (the physical limit). The goal for channels: within 1.5× of the core, and
/// no allocation per value.
public struct ChannelWorkload: Sendable {
    /// "C1"…"C6".
    public let id: String
    public let name: String
    /// What one operation is; the same as the core workload's.
    public let operation: String
    public let operations: Int
    public let channels: Workload.Runner
    /// The core workload of the same shape; its Rivulet runner and its baseline are reused.
    public let core: Workload
    /// Channels' allocations per operation at most this (`nil`: reported, no target).
    public let maxAllocations: Double?
    /// Channels' time at most this many times the core's (`nil`: reported, no target).
    public let maxCoreRatio: Double?
    public let note: String?

    init(
        id: String, name: String, core: Workload, maxAllocations: Double?, maxCoreRatio: Double? = 1.5,
        note: String? = nil, channels: @escaping Workload.Runner
    ) {
        self.id = id
        self.name = name
        self.operation = core.operation
        self.operations = core.operations
        self.core = core
        self.maxAllocations = maxAllocations
        self.maxCoreRatio = maxCoreRatio
        self.note = note
        self.channels = channels
    }

    /// The channel workloads: five with a target, and the cold activation that builds its graph too.
    public static let all: [ChannelWorkload] = [.send, .chain, .fanOut, .churn, .activation, .coldActivation]
}

extension ChannelWorkload {
    /// C1. One input, one output, per send (core: workload 1).
    static let send = ChannelWorkload(
        id: "C1", name: "send: one input, one output", core: .send, maxAllocations: 0
    ) {
        let (input, channel) = Channel<Int>.create()
        let sink = Sink()
        let output = channel.subscribeValues { sink.total &+= $0 }
        return { count in
            for value in 0..<count { input.send(value: value) }
            return withExtendedLifetime(output) { sink.total }
        }
    }

    /// C2. Input → 4 map + 4 filter, alternating, the core chain's stages → one output, per value
    /// (core: workload 2).
    static let chain = ChannelWorkload(
        id: "C2", name: "chain: input, 8 map/filter, one output", core: .chain, maxAllocations: 0
    ) {
        let (input, channel) = Channel<Int>.create()
        let sink = Sink()
        let output = channel.map(stage1).filter(stage2).map(stage3).filter(stage4)
            .map(stage5).filter(stage6).map(stage7).filter(stage8)
            .subscribeValues { sink.total &+= $0 }
        return { count in
            for value in 0..<count { input.send(value: value) }
            return withExtendedLifetime(output) { sink.total }
        }
    }

    /// C3. A `continuous()` multi with 100 outputs, per delivery (one send = 100 deliveries;
    /// core: workload 3).
    static let fanOut = ChannelWorkload(
        id: "C3", name: "fan-out: continuous() multi, 100 outputs", core: .fanOut, maxAllocations: 0
    ) {
        let (input, channel) = Channel<Int>.create()
        let multi = channel.continuous()
        let sink = Sink()
        let outputs = (0..<100).map { _ in multi.subscribeValues { sink.total &+= $0 } }
        // Untimed: the first value allocates the multi's storage for its latest value, once.
        input.send(value: 0)
        return { count in
            for value in 0..<(count / 100) { input.send(value: value) }
            return withExtendedLifetime(outputs) { sink.total }
        }
    }

    /// C4. Subscribe then cancel one output on a plain channel, per cycle: each cycle activates
    /// and deactivates the channel (core: workload 5, observe + dispose).
    static let churn = ChannelWorkload(
        id: "C4", name: "churn: subscribe + cancel one output", core: .churn, maxAllocations: nil,
        note: "each cycle activates and deactivates the channel"
    ) {
        let (input, channel) = Channel<Int>.create()
        let sink = Sink()
        // Untimed check: a channel takes a new output once the last one is cancelled (no
        // `duplicate` end), so the loop measures real cycles.
        let ends = Sink()
        for _ in 0..<2 { channel.subscribe { if case .failure = $0 { ends.total += 1 } }.cancel() }
        precondition(ends.total == 0, "a cancelled channel refused a new output")
        return { count in
            for _ in 0..<count { channel.subscribeValues { sink.total &+= $0 }.cancel() }
            return withExtendedLifetime(input) { sink.total }
        }
    }

    /// C5. Activate a built `generate` → map → filter graph whose closure sends 10 values on each
    /// activation, receive them, and cancel, per activation (core: workload 4, the cold start of a
    /// built 10-value producer with map + filter). The closure keeps each activation's input until
    /// it hears `nil`, since dropping it would end the channel (A7).
    static let activation = ChannelWorkload(
        id: "C5", name: "activation: built 10-value generate, map + filter", core: .coldStart,
        maxAllocations: nil
    ) {
        let sink = Sink()
        let generator = TenValueGenerator()
        let channel = Channel<Int>.generate { generator.activationChanged($0) }.map(doubled).filter(isNotSix)
        // Untimed check: every activation delivers the whole stream before `subscribeValues`
        // returns, and the graph can be activated again.
        for _ in 0..<2 { channel.subscribeValues { sink.total &+= $0 }.cancel() }
        precondition(sink.total == 168, "an activation of the built graph did not deliver its ten values")
        return { count in
            for _ in 0..<count { channel.subscribeValues { sink.total &+= $0 }.cancel() }
            return sink.total
        }
    }

    /// C6. Like C5, but the graph is built for every activation and the stream completes (a plain
    /// channel's graph ends with its stream, so an ended graph cannot be activated again).
    /// Reported without a target: the core's producer is built once.
    static let coldActivation = ChannelWorkload(
        id: "C6", name: "cold activation: C5 building the three-node graph each time", core: .coldStart,
        maxAllocations: nil, maxCoreRatio: nil, note: "includes building the graph; no target"
    ) {
        let sink = Sink()
        // Untimed check: the whole stream arrives before `subscribeValues` returns.
        let check = tenValueChannel().map(doubled).filter(isNotSix).subscribeValues { sink.total &+= $0 }
        precondition(sink.total == 84 && check.isClosed, "a cold activation did not run to completion")
        return { count in
            for _ in 0..<count {
                let output = tenValueChannel().map(doubled).filter(isNotSix).subscribeValues { sink.total &+= $0 }
                withExtendedLifetime(output) {}
            }
            return sink.total
        }
    }
}

/// A `generate` closure's state for C5: it keeps each activation's input until the deactivation.
///
/// @unchecked Sendable: the workload activates and deactivates the channel on its one thread, with
/// the default (direct) context, so `input` is only touched there.
final class TenValueGenerator: @unchecked Sendable {
    private var input: ChannelInput<Int>?

    func activationChanged(_ input: ChannelInput<Int>?) {
        self.input = input
        guard let input else { return }
        for value in 0..<10 { input.send(value: value) }
    }
}

/// A channel that sends 0…9 and completes each time it is activated.
func tenValueChannel() -> Channel<Int> {
    Channel<Int>.generate { input in
        guard let input else { return }
        for value in 0..<10 { input.send(value: value) }
        input.complete()
    }
}
