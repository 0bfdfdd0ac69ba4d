import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// Generated concurrency schedules (issue 19, item 3): 2–8 threads send at once into the
/// thread-safe entry points (a pipe's input, `merge`, `combineLatest`, `flatMap(.merge)`,
/// `MutableProperty`), while another thread makes observers join and leave. Every observer must see
/// no overlapping delivery, each sender's values in order, exactly one terminal event and nothing
/// after it; every resource must be disposed of exactly once.
///
/// By default each entry point runs 200 schedules; `RIVULET_FUZZ_SCRIPTS=<n>` runs n / 10 of them and
/// `RIVULET_FUZZ_SEED=<n>` replays one (see FuzzDriver.swift). Run them under Thread Sanitizer too:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter Fuzz`.
@Suite("Fuzz: concurrency schedules", .checksLiveObjects)
struct FuzzConcurrencyTests {
    /// A schedule: how many threads send, how many values each, which of them end the stream
    /// (racing) instead of the test ending it afterwards, and whether observers churn meanwhile.
    struct Schedule: CustomStringConvertible {
        let seed: UInt64
        let counts: [Int]
        /// Per sender, the terminal event it sends after its values (racing the others), if any.
        let terminals: [ModelEvent<Int>?]
        let churn: Bool

        init(seed: UInt64) {
            self.seed = seed
            var random = FuzzRandom(seed: seed &* 7919 &+ 17)
            let threads = 2 + random.below(7)
            counts = (0..<threads).map { _ in 1 + random.below(60) }
            let racing = random.chance(40)
            let choices: [ModelEvent<Int>] = [.completed, .failed(1), .interrupted]
            terminals = (0..<threads).map { _ in racing && random.chance(60) ? choices[random.below(3)] : nil }
            churn = random.chance(60)
        }

        var threads: Int { counts.count }
        var total: Int { counts.reduce(0, +) }
        var racing: Bool { terminals.contains { $0 != nil } }
        var description: String {
            "seed \(seed) (replay: RIVULET_FUZZ_SEED=\(seed)): \(threads) senders of \(counts) values, terminals \(terminals), churn \(churn)"
        }
    }

    static func seeds() -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["RIVULET_FUZZ_SEED"].flatMap(UInt64.init) { return [seed] }
        let count = environment["RIVULET_FUZZ_SCRIPTS"].flatMap(UInt64.init).map { $0 / 10 } ?? 200
        return Array(0..<max(count, 1))
    }

    /// The value sender `sender` sends `index`-th.
    static func encode(_ sender: Int, _ index: Int) -> Int { sender * 10_000 + index }

    static func observer(_ recording: FuzzRecording<Int>) -> Signal<Int, TestError>.Observer {
        let handler = recording.handler {}
        return Signal<Int, TestError>.Observer { handler(ModelEvent($0, value: { $0 }, error: code)) }
    }

    /// Checks an observer's events: the grammar, no overlap, each sender's values in order (and,
    /// with `complete`, each sender's values a prefix of what it sent: nothing skipped).
    static func check(_ recording: FuzzRecording<Int>, complete: Bool, components: (Int) -> [Int] = { [$0] }) -> String? {
        if let problem = recording.grammarProblem { return problem }
        var last: [Int: Int] = [:]
        for case .value(let value) in recording.events {
            for part in components(value) {
                let (sender, index) = part.quotientAndRemainder(dividingBy: 10_000)
                let previous = last[sender] ?? -1
                if complete ? index != previous + 1 : index < previous {
                    return "sender \(sender)'s value \(index) arrived after its value \(previous)"
                }
                last[sender] = index
            }
        }
        return nil
    }

    /// Observers that join and leave during the run; each one's events are checked afterwards.
    final class Churn: Sendable {
        let recordings = Locked<[FuzzRecording<Int>]>([])

        func run(_ signal: Signal<Int, TestError>) {
            for round in 0..<40 {
                let recording = FuzzRecording<Int>()
                recordings.withLock { $0.append(recording) }
                let observation = signal.observe(FuzzConcurrencyTests.observer(recording))
                if round % 3 == 0 { sched_yield() }
                observation?.dispose()
            }
        }

        func problems() -> String? {
            for recording in recordings.withLock({ $0 }) {
                if let problem = FuzzConcurrencyTests.check(recording, complete: false) {
                    return "a churning observer: " + problem
                }
            }
            return nil
        }
    }

    /// Runs `body` for every seed under a watchdog; records the first problem with its schedule.
    func forEachSchedule(
        _ name: String, _ body: @escaping @Sendable (Schedule) -> String?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let seeds = Self.seeds()
        let failure = Locked<String?>(nil)
        withWatchdog(seconds: 300, "\(name) schedules", sourceLocation: sourceLocation) {
            for seed in seeds {
                let schedule = Schedule(seed: seed)
                if let problem = body(schedule) {
                    failure.withLock { $0 = "\(name): \(problem)\n\(schedule)" }
                    return
                }
            }
        }
        if let failure = failure.withLock({ $0 }) { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
        print("Fuzz concurrency \(name): \(seeds.count) schedules")
    }

    /// Checks the terminal event and the disposal count after a run.
    static func checkEnd(_ recording: FuzzRecording<Int>, disposals: Int, expectTerminal: Bool) -> String? {
        let terminals = recording.events.filter(\.isTerminal).count
        if expectTerminal, terminals != 1 { return "\(terminals) terminal events instead of one" }
        if expectTerminal, recording.token.object != nil { return "S5: the observer was not released after the terminal event" }
        if disposals != (expectTerminal ? 1 : 0) { return "the signal's disposable was disposed of \(disposals) times" }
        return nil
    }

    @Test("Senders racing on one pipe")
    func pipe() {
        forEachSchedule("pipe") { schedule in
            let disposals = Counter()
            let (signal, input) = Signal<Int, TestError>.pipe(disposable: AnyDisposable { disposals.increment() })
            let recording = FuzzRecording<Int>()
            signal.observe(Self.observer(recording))
            let churn = Churn()
            runConcurrently(schedule.threads + (schedule.churn ? 1 : 0)) { thread in
                guard thread < schedule.threads else { return churn.run(signal) }
                for index in 0..<schedule.counts[thread] { input.send(value: Self.encode(thread, index)) }
                if let terminal = schedule.terminals[thread] { input.send(terminal.signalEvent) }
            }
            if !schedule.racing {
                if recording.events.count != schedule.total {
                    return "\(recording.events.count) of \(schedule.total) values arrived"
                }
                input.sendCompleted()
            }
            return Self.check(recording, complete: true) ?? churn.problems()
                ?? Self.checkEnd(recording, disposals: disposals.value, expectTerminal: true)
        }
    }

    @Test("Senders on the inputs of merge")
    func merge() {
        forEachSchedule("merge") { schedule in
            let disposals = (0..<schedule.threads).map { _ in Counter() }
            let pipes = disposals.map { counter in Signal<Int, TestError>.pipe(disposable: AnyDisposable { counter.increment() })
            }
            let merged = Signal<Int, TestError>.merge(pipes.map(\.output))
            let recording = FuzzRecording<Int>()
            merged.observe(Self.observer(recording))
            let churn = Churn()
            runConcurrently(schedule.threads + (schedule.churn ? 1 : 0)) { thread in
                guard thread < schedule.threads else { return churn.run(merged) }
                for index in 0..<schedule.counts[thread] { pipes[thread].input.send(value: Self.encode(thread, index)) }
                // A racing sender fails the merge or stops contributing; the others complete.
                pipes[thread].input.send(
                    schedule.terminals[thread].map { $0 == .completed ? .failed(TestError(2)) : $0.signalEvent } ?? .completed)
            }
            let failed = schedule.terminals.contains { $0 != nil && $0 != .interrupted }
            if !failed, recording.values.count != schedule.total {
                return "\(recording.values.count) of \(schedule.total) values arrived"
            }
            if let problem = Self.check(recording, complete: true) ?? churn.problems() { return problem }
            if disposals.contains(where: { $0.value != 1 }) { return "input disposals \(disposals.map(\.value)), not once each" }
            return Self.checkEnd(recording, disposals: 1, expectTerminal: true)
        }
    }

    @Test("Senders on the inputs of combineLatest")
    func combineLatest() {
        forEachSchedule("combineLatest") { schedule in
            let disposals = [Counter(), Counter()]
            let pipes = disposals.map { counter in Signal<Int, TestError>.pipe(disposable: AnyDisposable { counter.increment() })
            }
            let combined = pipes[0].output.combineLatest(with: pipes[1].output).map { $0 * 100_000 + $1 }
            let recording = FuzzRecording<Int>()
            combined.observe(Self.observer(recording))
            runConcurrently(schedule.threads) { thread in
                for index in 0..<schedule.counts[thread] { pipes[thread % 2].input.send(value: Self.encode(thread, index)) }
            }
            pipes[0].input.sendCompleted()
            pipes[1].input.sendCompleted()
            let pairs: (Int) -> [Int] = { [$0 / 100_000, $0 % 100_000] }
            if let problem = Self.check(recording, complete: false, components: pairs) { return problem }
            if disposals.contains(where: { $0.value != 1 }) { return "input disposals \(disposals.map(\.value)), not once each" }
            if recording.events.last != .completed { return "ended with \(String(describing: recording.events.last))" }
            return Self.checkEnd(recording, disposals: 1, expectTerminal: true)
        }
    }

    @Test("Senders on the inner streams of flatMap(.merge)")
    func flatMapMerge() {
        forEachSchedule("flatMap(.merge)") { schedule in
            let disposals = Counter()
            let outer = Signal<Int, TestError>.pipe(disposable: AnyDisposable { disposals.increment() })
            let inners = (0..<schedule.threads).map { _ in Signal<Int, TestError>.pipe() }
            let (starts, ends) = (Counter(), Counter())
            let flattened = outer.output.flatMap(.merge) { sender in
                SignalProducer<Int, TestError> { observer, lifetime in
                    starts.increment()
                    let observation = inners[sender].output.observe(observer)
                    _ = lifetime.observeEnded {
                        observation?.dispose()
                        ends.increment()
                    }
                }
            }
            let recording = FuzzRecording<Int>()
            flattened.observe(Self.observer(recording))
            for sender in 0..<schedule.threads { outer.input.send(value: sender) }
            let churn = Churn()
            runConcurrently(schedule.threads + (schedule.churn ? 1 : 0)) { thread in
                guard thread < schedule.threads else { return churn.run(flattened) }
                for index in 0..<schedule.counts[thread] { inners[thread].input.send(value: Self.encode(thread, index)) }
                inners[thread].input.send(schedule.terminals[thread] == .failed(1) ? .failed(TestError(1)) : .completed)
            }
            outer.input.sendCompleted()
            let failed = schedule.terminals.contains(.failed(1))
            if !failed, recording.values.count != schedule.total {
                return "\(recording.values.count) of \(schedule.total) values arrived"
            }
            if let problem = Self.check(recording, complete: true) ?? churn.problems() { return problem }
            if starts.value != schedule.threads || ends.value != starts.value {
                return "\(starts.value) inner starts for \(schedule.threads) values, \(ends.value) ends"
            }
            return Self.checkEnd(recording, disposals: disposals.value, expectTerminal: true)
        }
    }

    @Test("Writers racing on a MutableProperty")
    func mutableProperty() {
        forEachSchedule("MutableProperty") { schedule in
            let property = MutableProperty(-1)
            let recording = FuzzRecording<Int>()
            let handler = recording.handler {}
            property.signal.observe { handler(ModelEvent($0, value: { $0 }, error: impossible)) }
            let started = FuzzRecording<Int>()
            let startedHandler = started.handler {}
            let start = property.producer.start { startedHandler(ModelEvent($0, value: { $0 }, error: impossible)) }
            runConcurrently(schedule.threads) { thread in
                for index in 0..<schedule.counts[thread] { property.value = Self.encode(thread, index) }
            }
            start.dispose()
            if recording.values.count != schedule.total {
                return "\(recording.values.count) of \(schedule.total) changes arrived"
            }
            if property.value != recording.values.last {
                return "R1: the property reads \(property.value), its last change was \(recording.values.last ?? -1)"
            }
            if started.values.first != -1 && started.values.first.map({ $0 < 10_000 * schedule.threads }) != true {
                return "the producer's first value \(String(describing: started.values.first)) is not a value the property had"
            }
            let afterStart = Array(started.events.dropFirst())
            if afterStart.last != .interrupted { return "the disposed start ended with \(String(describing: afterStart.last))" }
            return Self.check(recording, complete: true)
                ?? Self.check(started, complete: false, components: { $0 < 0 ? [] : [$0] })
        }
    }
}
