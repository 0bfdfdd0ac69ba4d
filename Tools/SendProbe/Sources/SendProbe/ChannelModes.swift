import Foundation
import MallocCounter
import RivuletChannels

// Modes for activation channels (RivuletChannels), each the channel twin of a core mode, for
// `valgrind --tool=callgrind`. Each takes an optional count, so that instructions per operation
// are the difference between two counts divided by the difference of the counts (process
// start-up and set-up cancel out):
//
//     channel-send [sends]          one input, one output                 (core: profile)
//     channel-chain [values]        8 map/filter channels, one output     (core: profile-chain)
//     channel-fanout [sends]        continuous() multi, 100 outputs       (core: profile-fanout)
//     channel-churn [cycles]        subscribe + cancel one output         (core: profile-churn)
//     channel-cold [activations]    10-value generate with map + filter,  (core: profile-start)
//                                   graph built for each activation
//     channel-activate [activations] the same graph built once, activated  (core: profile-start)
//                                   by each subscribe and released by cancel
//     channel-allocs                mallocs per operation of each, and per value of the cold one

/// The count given after the mode, or `fallback`.
func modeCount(_ fallback: Int) -> Int {
    CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? fallback
}

@inline(never)
func probe_channel_send(_ count: Int) {
    let sink = Sink()
    let (input, channel) = Channel<Int>.create()
    let output = channel.subscribeValues { sink.total &+= $0 }
    for value in 0..<count { input.send(value: value) }
    withExtendedLifetime(output) {}
    precondition(sink.total != 42, "keep the sink alive")
}

@inline(never)
func probe_channel_chain(_ count: Int) {
    let sink = Sink()
    let (input, channel) = Channel<Int>.create()
    let output = eightStages(channel).subscribeValues { sink.total &+= $0 }
    for value in 0..<count { input.send(value: value) }
    withExtendedLifetime(output) {}
    precondition(sink.total != 42, "keep the sink alive")
}

@inline(never)
func probe_channel_fanout(_ count: Int) {
    let sink = Sink()
    let (input, channel) = Channel<Int>.create()
    let multi = channel.continuous()
    let outputs = (0..<100).map { _ in multi.subscribeValues { sink.total &+= $0 } }
    for value in 0..<count { input.send(value: value) }
    withExtendedLifetime(outputs) {}
    precondition(sink.total != 42, "keep the sink alive")
}

@inline(never)
func probe_channel_churn(_ count: Int) {
    let sink = Sink()
    let (input, channel) = Channel<Int>.create()
    for _ in 0..<count { channel.subscribeValues { sink.total &+= $0 }.cancel() }
    withExtendedLifetime(input) {}
    precondition(sink.total != 42, "keep the sink alive")
}

@inline(never)
func probe_channel_cold(_ count: Int, values: Int = 10) {
    let sink = Sink()
    for _ in 0..<count {
        let output = Channel<Int>.generate { input in
            guard let input else { return }
            for value in 0..<values { input.send(value: value) }
            input.complete()
        }.map { (value: Int) in value &* 2 }.filter { (value: Int) in value != 6 }
            .subscribeValues { sink.total &+= $0 }
        withExtendedLifetime(output) {}
    }
    precondition(sink.total != 42, "keep the sink alive")
}

@inline(never)
func probe_channel_activate(_ count: Int, values: Int = 10) {
    let sink = Sink()
    let generator = Generator(values: values)
    let channel = Channel<Int>.generate { generator.activationChanged($0) }
        .map { (value: Int) in value &* 2 }.filter { (value: Int) in value != 6 }
    for _ in 0..<count { channel.subscribeValues { sink.total &+= $0 }.cancel() }
    precondition(sink.total != 42, "keep the sink alive")
}

/// A `generate` closure's state: it keeps each activation's input until the deactivation, since
/// dropping it would end the channel (A7).
///
/// @unchecked Sendable: each probe activates and deactivates its channel on one thread, with the
/// direct context, so `input` is only touched there.
final class Generator: @unchecked Sendable {
    let values: Int
    var input: ChannelInput<Int>?

    init(values: Int) { self.values = values }

    func activationChanged(_ input: ChannelInput<Int>?) {
        self.input = input
        guard let input else { return }
        for value in 0..<values { input.send(value: value) }
    }
}

func eightStages(_ channel: Channel<Int>) -> Channel<Int> {
    let first = channel.map { (value: Int) in value &+ 1 }.filter { (value: Int) in value >= 0 }
    let second = first.map { (value: Int) in value &* 3 }.filter { (value: Int) in value != -7 }
    let third = second.map { (value: Int) in value &- 2 }.filter { (value: Int) in value >= 0 }
    return third.map { (value: Int) in value &+ 5 }.filter { (value: Int) in value != -7 }
}

/// Mallocs per operation of `run(count)`, net of its set-up: `run(2n)` minus `run(n)`, over `n`.
func mallocsPerOperation(_ count: Int, _ run: (Int) -> Void) -> Double {
    run(count / 10) // warm-up
    let first = rivulet_probe_malloc_count()
    run(count)
    let second = rivulet_probe_malloc_count()
    run(2 * count)
    let third = rivulet_probe_malloc_count()
    return (Double(third - second) - Double(second - first)) / Double(count)
}

@inline(never)
func probe_channel_allocs() {
    func show(_ name: String, _ value: Double) { print("mallocs per \(name): \(value)") }
    show("send, channel", mallocsPerOperation(10_000, probe_channel_send))
    show("value through 8 map/filter channels", mallocsPerOperation(10_000, probe_channel_chain))
    show("send to a continuous() multi with 100 outputs", mallocsPerOperation(1_000, probe_channel_fanout))
    show("subscribe + cancel on a channel", mallocsPerOperation(10_000, probe_channel_churn))
    show("cold activation, 10 values", mallocsPerOperation(1_000) { probe_channel_cold($0) })
    show("activation of a built graph, 10 values", mallocsPerOperation(1_000) { probe_channel_activate($0) })
    let ten = mallocsPerOperation(1_000) { probe_channel_cold($0, values: 10) }
    let twenty = mallocsPerOperation(1_000) { probe_channel_cold($0, values: 20) }
    show("value of a cold activation (20 values minus 10, over 10)", (twenty - ten) / 10)
}

/// Runs the channel mode named on the command line, if any, and exits.
func runChannelMode() {
    let modes: [(String, () -> Void)] = [
        ("channel-send", { probe_channel_send(modeCount(100_000)) }),
        ("channel-chain", { probe_channel_chain(modeCount(100_000)) }),
        ("channel-fanout", { probe_channel_fanout(modeCount(5_000)) }),
        ("channel-churn", { probe_channel_churn(modeCount(100_000)) }),
        ("channel-cold", { probe_channel_cold(modeCount(10_000)) }),
        ("channel-activate", { probe_channel_activate(modeCount(10_000)) }),
        ("channel-allocs", probe_channel_allocs),
    ]
    for (name, run) in modes where CommandLine.arguments.dropFirst().first == name {
        run()
        exit(0)
    }
}
