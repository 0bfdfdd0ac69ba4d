import OpenCombine
import Rivulet

// Workloads on one hot source: send, chain, fan-out, churn, memory.

extension Workload {
    /// 1. One hot source, one observer, per send.
    static let send = Workload(
        number: 1, name: "send: one hot source, one observer", operation: "send", operations: 2_000_000,
        target: Target(maxBaselineRatio: 2, maxAllocations: 0),
        rivulet: {
            let (signal, input) = Signal<Int, Never>.pipe()
            let sink = Sink()
            signal.observeValues { sink.total &+= $0 }
            return { count in
                for value in 0..<count { input.send(value: value) }
                return sink.total
            }
        },
        openCombine: {
            let subject = PassthroughSubject<Int, Never>()
            let sink = Sink()
            let subscription = subject.sink { sink.total &+= $0 }
            return { count in
                for value in 0..<count { subject.send(value) }
                return withExtendedLifetime(subscription) { sink.total }
            }
        },
        baseline: {
            let source = ClosureSource()
            let sink = Sink()
            source.observer = { sink.total &+= $0 }
            return { count in
                for value in 0..<count { source.send(value) }
                return sink.total
            }
        }
    )

    /// 2. Hot source → 8 alternating map/filter → one observer, per value sent.
    static let chain = Workload(
        number: 2, name: "chain: hot source, 8 map/filter, one observer", operation: "value", operations: 500_000,
        target: Target(maxBaselineRatio: 4, maxAllocations: 0),
        rivulet: {
            let (signal, input) = Signal<Int, Never>.pipe()
            let sink = Sink()
            signal.map(stage1).filter(stage2).map(stage3).filter(stage4)
                .map(stage5).filter(stage6).map(stage7).filter(stage8)
                .observeValues { sink.total &+= $0 }
            return { count in
                for value in 0..<count { input.send(value: value) }
                return sink.total
            }
        },
        openCombine: {
            let subject = PassthroughSubject<Int, Never>()
            let sink = Sink()
            let subscription = subject.map(stage1).filter(stage2).map(stage3).filter(stage4)
                .map(stage5).filter(stage6).map(stage7).filter(stage8)
                .sink { sink.total &+= $0 }
            return { count in
                for value in 0..<count { subject.send(value) }
                return withExtendedLifetime(subscription) { sink.total }
            }
        },
        baseline: {
            let source = ClosureSource()
            let sink = Sink()
            source.observer = { value in
                let first = stage1(value)
                guard stage2(first) else { return }
                let second = stage3(first)
                guard stage4(second) else { return }
                let third = stage5(second)
                guard stage6(third) else { return }
                let fourth = stage7(third)
                guard stage8(fourth) else { return }
                sink.total &+= fourth
            }
            return { count in
                for value in 0..<count { source.send(value) }
                return sink.total
            }
        }
    )

    /// 3. One hot source, 100 observers, per delivery (one send = 100 deliveries).
    static let fanOut = Workload(
        number: 3, name: "fan-out: one hot source, 100 observers", operation: "delivery", operations: 2_000_000,
        target: Target(maxBaselineRatio: 1.5, maxAllocations: 0),
        rivulet: {
            let (signal, input) = Signal<Int, Never>.pipe()
            let sink = Sink()
            for _ in 0..<100 { signal.observeValues { sink.total &+= $0 } }
            return { count in
                for value in 0..<(count / 100) { input.send(value: value) }
                return sink.total
            }
        },
        openCombine: {
            let subject = PassthroughSubject<Int, Never>()
            let sink = Sink()
            let subscriptions = (0..<100).map { _ in subject.sink { sink.total &+= $0 } }
            return { count in
                for value in 0..<(count / 100) { subject.send(value) }
                return withExtendedLifetime(subscriptions) { sink.total }
            }
        },
        baseline: {
            let sink = Sink()
            let observers: [(Int) -> Void] = (0..<100).map { _ in { sink.total &+= $0 } }
            let source = ClosureSource()
            source.observer = { value in for observer in observers { observer(value) } }
            return { count in
                for value in 0..<(count / 100) { source.send(value) }
                return sink.total
            }
        }
    )

    /// 5. Observe then dispose one observer on a hot source, per cycle.
    static let churn = Workload(
        number: 5, name: "churn: observe + dispose one observer", operation: "cycle", operations: 500_000,
        target: Target(maxAllocations: 3),
        rivulet: {
            // The input is kept: a pipe whose input is gone is interrupted, and observing it would
            // measure an observer that is refused at once, not an observe + dispose.
            let (signal, input) = Signal<Int, Never>.pipe()
            let sink = Sink()
            // Untimed: grows the observer list once, and checks that the signal is alive.
            let check = signal.observeValues { sink.total &+= $0 }
            input.send(value: 1)
            precondition(sink.total == 1, "the churn workload's signal must be alive")
            check?.dispose()
            return { count in
                for _ in 0..<count { signal.observeValues { sink.total &+= $0 }?.dispose() }
                return withExtendedLifetime(input) { sink.total }
            }
        },
        openCombine: {
            let subject = PassthroughSubject<Int, Never>()
            let sink = Sink()
            return { count in
                for _ in 0..<count { subject.sink { sink.total &+= $0 }.cancel() }
                return sink.total
            }
        },
        baseline: {
            let sink = Sink()
            let source = ClosureList()
            return { count in
                for _ in 0..<count {
                    let token = source.add { sink.total &+= $0 }
                    source.remove(token)
                }
                return sink.total + source.count
            }
        }
    )

    /// 10. Memory: bytes per idle hot source with one observer (the "live bytes" column).
    static let memory = Workload(
        number: 10, name: "memory: idle hot source with one observer", operation: "source", operations: 20_000,
        target: Target(maxLiveBytes: 300, beatsOpenCombine: false),
        note: "the figure that matters is live bytes per source",
        rivulet: {
            var kept: [(Signal<Int, Never>, Signal<Int, Never>.Observer, Disposable?)] = []
            kept.reserveCapacity(40_000)
            let sink = Sink()
            return { count in
                for _ in 0..<count {
                    let (signal, input) = Signal<Int, Never>.pipe()
                    kept.append((signal, input, signal.observeValues { sink.total &+= $0 }))
                }
                return kept.count
            }
        },
        openCombine: {
            var kept: [(PassthroughSubject<Int, Never>, AnyCancellable)] = []
            kept.reserveCapacity(40_000)
            let sink = Sink()
            return { count in
                for _ in 0..<count {
                    let subject = PassthroughSubject<Int, Never>()
                    kept.append((subject, subject.sink { sink.total &+= $0 }))
                }
                return kept.count
            }
        },
        baseline: {
            var kept: [ClosureSource] = []
            kept.reserveCapacity(40_000)
            let sink = Sink()
            return { count in
                for _ in 0..<count {
                    let source = ClosureSource()
                    source.observer = { sink.total &+= $0 }
                    kept.append(source)
                }
                return kept.count
            }
        }
    )
}

/// The baseline's hot source: one stored closure, called directly.
final class ClosureSource {
    // The baseline is the physical limit: no runtime exclusivity checks.
    @exclusivity(unchecked) var observer: (Int) -> Void = { _ in }

    @inline(never)
    func send(_ value: Int) {
        observer(value)
    }
}

/// The baseline's observer list for the churn workload.
final class ClosureList {
    @exclusivity(unchecked) private var observers: [(id: Int, observer: (Int) -> Void)] = []
    @exclusivity(unchecked) private var nextID = 0

    var count: Int { observers.count }

    @inline(never)
    func add(_ observer: @escaping (Int) -> Void) -> Int {
        nextID += 1
        observers.append((nextID, observer))
        return nextID
    }

    @inline(never)
    func remove(_ id: Int) {
        observers.removeAll { $0.id == id }
    }
}
