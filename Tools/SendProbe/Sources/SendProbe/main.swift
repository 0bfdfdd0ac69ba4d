import Dispatch
import Foundation
import MallocCounter
import Rivulet

/// Sink that the optimiser cannot remove.
/// Not `Sendable`: only the measuring thread touches it.
// @unchecked Sendable: every probe sends on one thread, so observers update `total` on it, and the
// probe reads it after its sends have returned.
final class Sink: @unchecked Sendable {
    var total = 0
}

func measure(_ name: String, observers: Int, sends: Int) {
    let (signal, input) = Signal<Int, Never>.pipe()
    let sink = Sink()
    for _ in 0..<observers {
        signal.observeValues { sink.total &+= $0 }
    }
    for value in 0..<10_000 { input.send(value: value) } // warm-up
    var best = Double.infinity
    var mallocs: UInt64 = 0
    for _ in 0..<5 {
        let mallocsBefore = rivulet_probe_malloc_count()
        let start = DispatchTime.now().uptimeNanoseconds
        for value in 0..<sends { input.send(value: value) }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        mallocs = rivulet_probe_malloc_count() - mallocsBefore
        best = min(best, Double(elapsed) / Double(sends))
    }
    let perDelivery = best / Double(max(observers, 1))
    print(
        "| \(name) | \(String(format: "%.1f", best)) | \(String(format: "%.2f", perDelivery)) | \(String(format: "%.3f", Double(mallocs) / Double(sends))) |"
    )
    precondition(sink.total != 42, "keep the sink alive")
}

// Each mode is its own function, so that what the optimizer inlines into one mode does not
// depend on the code of the others. The channel modes (`channel-…`) are in ChannelModes.swift.
runChannelMode()

@inline(never)
func probe_profile_start() {
    // For `valgrind --tool=callgrind`: cold starts of a 10-value producer with map+filter.
    let sink = Sink()
    let tenValues = SignalProducer<Int, Never>(values: Array(0..<10))
        .map { (value: Int) in value &* 2 }.filter { (value: Int) in value != 6 }
    for _ in 0..<modeCount(10_000) { tenValues.startWithValues { sink.total &+= $0 } }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-start") { probe_profile_start() }

@inline(never)
func probe_profile_dispose() {
    // For `valgrind --tool=callgrind`: start a start-handler producer through map, then dispose
    // of the start while it runs (issue 16: the interruption goes down the chain).
    let sink = Sink()
    let running = SignalProducer<Int, Never> { observer, _ in observer.send(value: 1) }
        .map { (value: Int) in value &* 2 }
    for _ in 0..<modeCount(10_000) {
        running.start { event in if case let .value(value) = event { sink.total &+= value } }.dispose()
    }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-dispose") { probe_profile_dispose() }

@inline(never)
func probe_profile_churn_map() {
    // For `valgrind --tool=callgrind`: observe and dispose of one observer of a `map`'s signal
    // (a signal sharing its upstream's delivery turn), per count.
    let sink = Sink()
    let (signal, input) = Signal<Int, Never>.pipe()
    let mapped = signal.map { $0 &+ 1 }
    for _ in 0..<modeCount(20_000) { mapped.observeValues { sink.total &+= $0 }?.dispose() }
    input.send(value: 1)
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-churn-map") { probe_profile_churn_map() }

@inline(never)
func probe_profile_pipe_life() {
    // For `valgrind --tool=callgrind`: a signal's whole life: a pipe made, observed through one
    // `map`, sent one value, and released (input, signals and observer), per count.
    let sink = Sink()
    for value in 0..<modeCount(10_000) {
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.map { $0 &+ 1 }.observeValues { sink.total &+= $0 }
        input.send(value: value)
    }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-pipe-life") { probe_profile_pipe_life() }

@inline(never)
func probe_profile_signal_producer() {
    // For `valgrind --tool=callgrind`: values of a hot signal through `signal.producer.map`, one
    // start observing.
    let sink = Sink()
    let (signal, input) = Signal<Int, Never>.pipe()
    signal.producer.map { (value: Int) in value &* 2 }.startWithValues { sink.total &+= $0 }
    for value in 0..<modeCount(100_000) { input.send(value: value) }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-signal-producer") { probe_profile_signal_producer() }

@inline(never)
func probe_profile_signal_producer_churn() {
    // For `valgrind --tool=callgrind`: start `signal.producer.map` and dispose of the start.
    let sink = Sink()
    let (signal, _) = Signal<Int, Never>.pipe()
    let producer = signal.producer.map { (value: Int) in value &* 2 }
    for _ in 0..<modeCount(10_000) {
        producer.startWithValues { sink.total &+= $0 }.dispose()
    }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-signal-producer-churn") { probe_profile_signal_producer_churn() }

@inline(never)
func probe_async_cancel_latency() {
    // Issue 17: from `task.cancel()` on a task iterating `producer.values` (waiting for a value)
    // to the end of the producer's start, in nanoseconds: median and 99th percentile.
    let rounds = modeCount(2_000)
    var latencies: [UInt64] = []
    latencies.reserveCapacity(rounds)
    for _ in 0..<rounds {
        let started = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let endedAt = Rivulet.Atomic<UInt64>(0)
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded {
                endedAt.value = DispatchTime.now().uptimeNanoseconds
                ended.signal()
            }
            observer.send(value: 1)
        }
        let task = Task {
            var count = 0
            for await _ in producer.values {
                count += 1
                started.signal()
            }
            return count
        }
        started.wait()
        // Let the task reach its wait for the next value.
        usleep(200)
        let cancelledAt = DispatchTime.now().uptimeNanoseconds
        task.cancel()
        ended.wait()
        latencies.append(endedAt.value - cancelledAt)
    }
    latencies.sort()
    print(
        "async-cancel-latency: median \(latencies[latencies.count / 2]) ns, p99 \(latencies[latencies.count * 99 / 100]) ns, max \(latencies.last!) ns over \(rounds) rounds"
    )
    exit(0)
}
if CommandLine.arguments.contains("async-cancel-latency") { probe_async_cancel_latency() }

@inline(never)
func probe_flatmap_allocs() {
    // Allocations per inner stream of flatMap(.latest), inner producers of 5 values.
    let sink = Sink()
    let (outer, outerInput) = Signal<Int, Never>.pipe()
    outer.flatMap(.latest) { first in SignalProducer<Int, Never>(first..<(first + 5)) }
        .observeValues { sink.total &+= $0 }
    for value in 0..<1_000 { outerInput.send(value: value) }
    let before = rivulet_probe_malloc_count()
    for value in 0..<10_000 { outerInput.send(value: value) }
    print("mallocs per inner stream:", Double(rivulet_probe_malloc_count() - before) / 10_000)
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("flatmap-allocs") { probe_flatmap_allocs() }

@inline(never)
func probe_profile_chain() {
    // For `valgrind --tool=callgrind`: values through 8 map/filter signals.
    let sink = Sink()
    let (signal, input) = Signal<Int, Never>.pipe()
    eightStages(signal).observeValues { sink.total &+= $0 }
    let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000
    for value in 0..<count { input.send(value: value) }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-chain") { probe_profile_chain() }

@inline(never)
func probe_profile_combine() {
    // For `valgrind --tool=callgrind`: alternating sends into two signals combined with
    // combineLatest (benchmark workload 6).
    let sink = Sink()
    let (left, leftInput) = Signal<Int, Never>.pipe()
    let (right, rightInput) = Signal<Int, Never>.pipe()
    left.combineLatest(with: right).observeValues { sink.total &+= $0 &+ $1 }
    let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000
    for value in 0..<count {
        leftInput.send(value: value)
        rightInput.send(value: value)
    }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-combine") { probe_profile_combine() }

@inline(never)
func probe_profile_zip() {
    // For `valgrind --tool=callgrind`: alternating sends into two signals zipped (every second
    // send makes a pair).
    let sink = Sink()
    let (left, leftInput) = Signal<Int, Never>.pipe()
    let (right, rightInput) = Signal<Int, Never>.pipe()
    left.zip(with: right).observeValues { sink.total &+= $0 &+ $1 }
    let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000
    for value in 0..<count {
        leftInput.send(value: value)
        rightInput.send(value: value)
    }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-zip") { probe_profile_zip() }

@inline(never)
func probe_profile_combine3() {
    // For `valgrind --tool=callgrind`: round-robin sends into three signals combined with
    // combineLatest (the tuple form of any arity above two) and zipped.
    let sink = Sink()
    let (a, aInput) = Signal<Int, Never>.pipe()
    let (b, bInput) = Signal<Int, Never>.pipe()
    let (c, cInput) = Signal<Int, Never>.pipe()
    Signal<Int, Never>.combineLatest(a, b, c).observeValues { sink.total &+= $0 &+ $1 &+ $2 }
    Signal<Int, Never>.zip(a, b, c).observeValues { sink.total &+= $0 &+ $1 &+ $2 }
    let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000
    for value in 0..<count {
        aInput.send(value: value)
        bInput.send(value: value)
        cInput.send(value: value)
    }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-combine3") { probe_profile_combine3() }

@inline(never)
func probe_profile_sample() {
    // For `valgrind --tool=callgrind`: alternating sends into a signal and its sampler
    // (sample(with:)), and into a signal and its samplee (withLatest(from:)).
    let sink = Sink()
    let (source, sourceInput) = Signal<Int, Never>.pipe()
    let (other, otherInput) = Signal<Int, Never>.pipe()
    source.sample(with: other).observeValues { sink.total &+= $0 &+ $1 }
    source.withLatest(from: other).observeValues { sink.total &+= $0 &+ $1 }
    let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000
    for value in 0..<count {
        sourceInput.send(value: value)
        otherInput.send(value: value)
    }
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-sample") { probe_profile_sample() }

@inline(never)
func probe_combining_allocs() {
    // Allocations per start of combining producers of two 3-value producers (setup cost).
    let sink = Sink()
    let three = SignalProducer<Int, Never>(values: [1, 2, 3])
    let forms: [(String, SignalProducer<Int, Never>)] = [
        ("combineLatest(with:)", three.combineLatest(with: three).map { $0 &+ $1 }),
        ("zip(with:)", three.zip(with: three).map { $0 &+ $1 }),
        ("combineLatest(a, b, c)", SignalProducer<Int, Never>.combineLatest(three, three, three).map { $0 &+ $1 &+ $2 }),
        ("zip(a, b, c)", SignalProducer<Int, Never>.zip(three, three, three).map { $0 &+ $1 &+ $2 }),
        ("combineLatest([a, b])", SignalProducer<Int, Never>.combineLatest([three, three]).map { $0[0] &+ $0[1] }),
        ("sample(with:)", three.sample(with: three).map { $0 &+ $1 }),
        ("withLatest(from:)", three.withLatest(from: three).map { $0 &+ $1 }),
    ]
    for (name, producer) in forms {
        for _ in 0..<100 { producer.startWithValues { sink.total &+= $0 } }
        let before = rivulet_probe_malloc_count()
        for _ in 0..<1_000 { producer.startWithValues { sink.total &+= $0 } }
        print("mallocs per start, \(name):", Double(rivulet_probe_malloc_count() - before) / 1_000)
    }
    let (a, aInput) = Signal<Int, Never>.pipe()
    let (b, bInput) = Signal<Int, Never>.pipe()
    let signalForms: [(String, () -> Disposable?)] = [
        ("Signal combineLatest(with:)", { a.combineLatest(with: b).observeValues { sink.total &+= $0 &+ $1 } }),
        ("Signal zip(with:)", { a.zip(with: b).observeValues { sink.total &+= $0 &+ $1 } }),
        ("Signal sample(with:)", { a.sample(with: b).observeValues { sink.total &+= $0 &+ $1 } }),
        ("Signal withLatest(from:)", { a.withLatest(from: b).observeValues { sink.total &+= $0 &+ $1 } }),
    ]
    for (name, make) in signalForms {
        for _ in 0..<100 { make()?.dispose() }
        let before = rivulet_probe_malloc_count()
        for _ in 0..<1_000 { make()?.dispose() }
        print("mallocs per create + observe + dispose, \(name):", Double(rivulet_probe_malloc_count() - before) / 1_000)
    }
    aInput.send(value: 1)
    bInput.send(value: 1)
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("combining-allocs") { probe_combining_allocs() }

@inline(never)
func probe_profile_fanout() {
    // For `valgrind --tool=callgrind`: sends to 100 observers.
    measure("send, 100 observers", observers: 100, sends: modeCount(5_000))
    exit(0)
}
if CommandLine.arguments.contains("profile-fanout") { probe_profile_fanout() }

@inline(never)
func probe_profile() {
    // For `valgrind --tool=callgrind`: one workload, small enough to run under the simulator.
    measure("send, 1 observer", observers: 1, sends: modeCount(100_000))
    exit(0)
}
if CommandLine.arguments.contains("profile") { probe_profile() }

@inline(never)
func probe_profile_churn() {
    // For `valgrind --tool=callgrind`: observe then dispose one observer on a signal.
    let sink = Sink()
    let (signal, input) = Signal<Int, Never>.pipe()
    signal.observeValues { sink.total &+= $0 }?.dispose() // grows the observer list once
    for _ in 0..<modeCount(100_000) { signal.observeValues { sink.total &+= $0 }?.dispose() }
    withExtendedLifetime(input) {}
    precondition(sink.total != 42, "keep the sink alive")
    exit(0)
}
if CommandLine.arguments.contains("profile-churn") { probe_profile_churn() }

print("| workload | ns per send | ns per delivery | mallocs per send |")
print("|---|---|---|---|")
measure("send, 1 observer", observers: 1, sends: 2_000_000)
measure("send, 100 observers", observers: 100, sends: 100_000)
measure("send, 0 observers", observers: 0, sends: 2_000_000)

/// Reference point on this machine: one uncontended pthread mutex lock/unlock pair
/// (the engine takes two per send).
func reference(_ name: String, iterations: Int, _ body: (Int) -> Void) {
    var best = Double.infinity
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        for value in 0..<iterations { body(value) }
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
    }
    print("| \(name) | \(String(format: "%.1f", best)) | | |")
}
let sink = Sink()
let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
pthread_mutex_init(mutex, nil)
reference("reference: mutex lock + unlock", iterations: 10_000_000) { value in
    pthread_mutex_lock(mutex)
    sink.total &+= value
    pthread_mutex_unlock(mutex)
}

func eightStages(_ signal: Signal<Int, Never>) -> Signal<Int, Never> {
    let first = signal.map { (value: Int) in value &+ 1 }.filter { (value: Int) in value >= 0 }
    let second = first.map { (value: Int) in value &* 3 }.filter { (value: Int) in value != -7 }
    let third = second.map { (value: Int) in value &- 2 }.filter { (value: Int) in value >= 0 }
    return third.map { (value: Int) in value &+ 5 }.filter { (value: Int) in value != -7 }
}

func eightStages(_ producer: SignalProducer<Int, Never>) -> SignalProducer<Int, Never> {
    let first = producer.map { (value: Int) in value &+ 1 }.filter { (value: Int) in value >= 0 }
    let second = first.map { (value: Int) in value &* 3 }.filter { (value: Int) in value != -7 }
    let third = second.map { (value: Int) in value &- 2 }.filter { (value: Int) in value >= 0 }
    return third.map { (value: Int) in value &+ 5 }.filter { (value: Int) in value != -7 }
}

// Operator chains: 8 alternating map/filter stages (every filter passes), per value.
func perValue(_ name: String, values: Int, _ run: (Int) -> Void) {
    run(10_000) // warm-up
    var best = Double.infinity
    var mallocs: UInt64 = 0
    for _ in 0..<5 {
        let before = rivulet_probe_malloc_count()
        let start = DispatchTime.now().uptimeNanoseconds
        run(values)
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        mallocs = rivulet_probe_malloc_count() - before
        best = min(best, Double(elapsed) / Double(values))
    }
    print("| \(name) | \(String(format: "%.1f", best)) | | \(String(format: "%.3f", Double(mallocs) / Double(values))) |")
}

do {
    let sink = Sink()
    perValue("8 map/filter, plain closures (baseline)", values: 2_000_000) { count in
        let stages: [(Int) -> Int?] = [
            { $0 &+ 1 }, { $0 >= 0 ? $0 : nil }, { $0 &* 3 }, { $0 != -7 ? $0 : nil },
            { $0 &- 2 }, { $0 >= 0 ? $0 : nil }, { $0 &+ 5 }, { $0 != -7 ? $0 : nil },
        ]
        for value in 0..<count {
            var current: Int? = value
            for stage in stages { current = current.flatMap(stage) }
            if let current { sink.total &+= current }
        }
    }
    perValue("8 map/filter, direct arithmetic (baseline)", values: 2_000_000) { count in
        for value in 0..<count {
            let first = value &+ 1
            guard first >= 0 else { continue }
            let second = first &* 3
            guard second != -7 else { continue }
            let third = second &- 2
            guard third >= 0 else { continue }
            let fourth = third &+ 5
            guard fourth != -7 else { continue }
            sink.total &+= fourth
        }
    }
    let (signal, input) = Signal<Int, Never>.pipe()
    eightStages(signal).observeValues { sink.total &+= $0 }
    perValue("8 map/filter on a Signal", values: 500_000) { count in
        for value in 0..<count { input.send(value: value) }
    }
    perValue("no operator on a SignalProducer (the produced signal alone)", values: 2_000_000) { count in
        SignalProducer<Int, Never>(0..<count).startWithValues { sink.total &+= $0 }
    }
    perValue("8 map/filter on a SignalProducer (fused)", values: 2_000_000) { count in
        eightStages(SignalProducer<Int, Never>(0..<count)).startWithValues { sink.total &+= $0 }
    }
    let tenValues = SignalProducer<Int, Never>(values: Array(0..<10))
        .map { (value: Int) in value &* 2 }.filter { (value: Int) in value != 6 }
    perValue("start of a 10-value producer with map+filter (per start)", values: 100_000) { count in
        for _ in 0..<count { tenValues.startWithValues { sink.total &+= $0 } }
    }
    precondition(sink.total != 42, "keep the sink alive")
}

// Properties: one `MutableProperty<Int>` set with one observer, per set; and the baseline of a
// plain class whose `didSet` calls one closure.
do {
    final class PlainProperty {
        var observer: (Int) -> Void = { _ in }
        var value = 0 { didSet { observer(value) } }
    }
    let sink = Sink()
    let plain = PlainProperty()
    plain.observer = { sink.total &+= $0 }
    perValue("property set, plain class with didSet (baseline)", values: 2_000_000) { count in
        for value in 0..<count { plain.value = value }
    }
    let property = MutableProperty(0)
    property.signal.observeValues { sink.total &+= $0 }
    perValue("MutableProperty set, 1 observer", values: 2_000_000) { count in
        for value in 0..<count { property.value = value }
    }
    perValue("MutableProperty modify, 1 observer", values: 2_000_000) { count in
        for _ in 0..<count { property.modify { $0 &+= 1 } }
    }
    let doubled = property.map { (value: Int) in value &* 2 }
    doubled.signal.observeValues { sink.total &+= $0 }
    perValue("MutableProperty set, 1 observer + a mapped property with 1 observer", values: 1_000_000) { count in
        for value in 0..<count { property.value = value }
    }
    precondition(sink.total != 42, "keep the sink alive")
}

// Setup costs: allocations to create a pipe, and to observe then dispose one observer.
do {
    let rounds = 10_000
    var signals: [Signal<Int, Never>] = []
    var inputs: [Signal<Int, Never>.Observer] = []
    signals.reserveCapacity(rounds)
    inputs.reserveCapacity(rounds)
    let beforePipes = rivulet_probe_malloc_count()
    for _ in 0..<rounds {
        let (signal, input) = Signal<Int, Never>.pipe()
        signals.append(signal)
        inputs.append(input)
    }
    let pipeMallocs = Double(rivulet_probe_malloc_count() - beforePipes) / Double(rounds)
    let signal = signals[0]
    let sink = Sink()
    signal.observeValues { sink.total &+= $0 }?.dispose() // warm-up: grows the observer array
    let beforeChurn = rivulet_probe_malloc_count()
    for _ in 0..<rounds {
        signal.observeValues { sink.total &+= $0 }?.dispose()
    }
    let churnMallocs = Double(rivulet_probe_malloc_count() - beforeChurn) / Double(rounds)
    print("mallocs per Signal.pipe(): \(pipeMallocs); per observe + dispose: \(churnMallocs)")
}

// Sanity check of the malloc counter itself: one class allocation must count.
do {
    final class Probe { var x = 0 }
    let before = rivulet_probe_malloc_count()
    let probe = Probe()
    withExtendedLifetime(probe) {}
    print("counter check (expect >= 1):", rivulet_probe_malloc_count() - before)
}
