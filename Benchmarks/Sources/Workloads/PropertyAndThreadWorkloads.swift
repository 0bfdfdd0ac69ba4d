import Dispatch
import OpenCombine
import OpenCombineDispatch
import Rivulet
import Synchronization

extension Workload {
    /// 8. Set a property with one observer, per set.
    static let propertySet = Workload(
        number: 8, name: "property: set with one observer", operation: "set", operations: 2_000_000,
        target: Target(maxBaselineRatio: 3, maxAllocations: 0),
        rivulet: {
            let property = MutableProperty(0)
            let sink = Sink()
            property.signal.observeValues { sink.total &+= $0 }
            return { count in
                for value in 0..<count { property.value = value }
                return sink.total
            }
        },
        openCombine: {
            let subject = CurrentValueSubject<Int, Never>(0)
            let sink = Sink()
            let subscription = subject.dropFirst().sink { sink.total &+= $0 }
            return { count in
                for value in 0..<count { subject.value = value }
                return withExtendedLifetime(subscription) { sink.total }
            }
        },
        baseline: {
            let property = ObservedValue()
            let sink = Sink()
            property.observer = { sink.total &+= $0 }
            return { count in
                for value in 0..<count { property.value = value }
                return sink.total
            }
        }
    )

    /// 9. Send on this thread, observe on a serial queue, until every value is delivered.
    static let crossThread = Workload(
        number: 9, name: "cross-thread: send here, observe on a serial queue", operation: "value", operations: 200_000,
        target: Target(), crossesThreads: true,
        rivulet: {
            let (signal, input) = Signal<Int, Never>.pipe()
            let arrivals = Arrivals()
            signal.observe(on: QueueScheduler(name: "rivulet.bench.observe")).observeValues { arrivals.arrive($0) }
            return { count in
                arrivals.expect(count)
                for value in 0..<count { input.send(value: value) }
                return arrivals.waitForAll()
            }
        },
        openCombine: {
            let queue = DispatchQueue(label: "opencombine.bench.observe")
            let subject = PassthroughSubject<Int, Never>()
            let arrivals = Arrivals()
            let subscription = subject.receive(on: queue.ocombine).sink { arrivals.arrive($0) }
            return { count in
                arrivals.expect(count)
                for value in 0..<count { subject.send(value) }
                return withExtendedLifetime(subscription) { arrivals.waitForAll() }
            }
        },
        baseline: {
            let queue = DispatchQueue(label: "baseline.bench.observe")
            let arrivals = Arrivals()
            return { count in
                arrivals.expect(count)
                for value in 0..<count { queue.async { arrivals.arrive(value) } }
                return arrivals.waitForAll()
            }
        }
    )
}

/// The baseline's property: a stored value whose `didSet` calls one closure.
final class ObservedValue {
    // The baseline is the physical limit: no runtime exclusivity checks.
    @exclusivity(unchecked) var observer: (Int) -> Void = { _ in }
    @exclusivity(unchecked) var value = 0 {
        didSet { observer(value) }
    }
}

/// Counts values arriving on another thread and wakes the sender when all have arrived.
final class Arrivals: Sendable {
    private let remaining = Synchronization.Atomic<Int>(0)
    private let total = Synchronization.Atomic<Int>(0)
    private let done = DispatchSemaphore(value: 0)

    func expect(_ count: Int) {
        remaining.store(count, ordering: .releasing)
    }

    func arrive(_ value: Int) {
        total.add(value, ordering: .relaxed)
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
            done.signal()
        }
    }

    func waitForAll() -> Int {
        done.wait()
        return total.load(ordering: .relaxed)
    }
}
