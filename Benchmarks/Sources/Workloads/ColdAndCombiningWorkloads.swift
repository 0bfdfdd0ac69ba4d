import OpenCombine
import Rivulet

// Workloads on cold producers, combining and flattening.

extension Workload {
    /// 4. Start a 10-value producer with map + filter and run it to completion, per start.
    static let coldStart = Workload(
        number: 4, name: "cold start: 10-value producer, map + filter", operation: "start", operations: 100_000,
        target: Target(maxAllocations: 10),
        rivulet: {
            let tenValues = Array(0..<10)
            let producer = SignalProducer<Int, Never>(values: tenValues).map(doubled).filter(isNotSix)
            let sink = Sink()
            return { count in
                for _ in 0..<count { producer.startWithValues { sink.total &+= $0 } }
                return sink.total
            }
        },
        openCombine: {
            let tenValues = Array(0..<10)
            let publisher = tenValues.publisher.map(doubled).filter(isNotSix)
            let sink = Sink()
            return { count in
                for _ in 0..<count { _ = publisher.sink { sink.total &+= $0 } }
                return sink.total
            }
        },
        baseline: {
            let tenValues = Array(0..<10)
            let sink = Sink()
            let start = ColdClosureChain(map: doubled, filter: isNotSix)
            return { count in
                for _ in 0..<count { start.run(tenValues) { sink.total &+= $0 } }
                return sink.total
            }
        }
    )

    /// 6. combineLatest of two hot sources, alternating sends, per send.
    static let combineLatest = Workload(
        number: 6, name: "combineLatest of two hot sources", operation: "send", operations: 1_000_000,
        target: Target(maxBaselineRatio: 5, maxAllocations: 0, beatsOpenCombine: false),
        note: "OpenCombine 0.14 has no combineLatest",
        rivulet: {
            let (left, leftInput) = Signal<Int, Never>.pipe()
            let (right, rightInput) = Signal<Int, Never>.pipe()
            let sink = Sink()
            left.combineLatest(with: right).observeValues { sink.total &+= $0 &+ $1 }
            return { count in
                for value in 0..<(count / 2) {
                    leftInput.send(value: value)
                    rightInput.send(value: value)
                }
                return sink.total
            }
        },
        openCombine: nil,
        baseline: {
            let sink = Sink()
            let latest = LatestPair { sink.total &+= $0 &+ $1 }
            return { count in
                for value in 0..<(count / 2) {
                    latest.sendLeft(value)
                    latest.sendRight(value)
                }
                return sink.total
            }
        }
    )

    /// 7. flatMap(.latest): the outer stream sends inner streams of 5 values each, per inner value.
    static let flatMapLatest = Workload(
        number: 7, name: "flatMap(.latest), inner streams of 5 values", operation: "inner value", operations: 500_000,
        target: Target(maxBaselineRatio: 5),
        rivulet: {
            let (outer, outerInput) = Signal<Int, Never>.pipe()
            let sink = Sink()
            outer.flatMap(.latest) { first in SignalProducer<Int, Never>(first..<(first + 5)) }
                .observeValues { sink.total &+= $0 }
            return { count in
                for inner in 0..<(count / 5) { outerInput.send(value: inner) }
                return sink.total
            }
        },
        openCombine: {
            let outer = PassthroughSubject<Int, Never>()
            let sink = Sink()
            let subscription = outer.map { first in (first..<(first + 5)).publisher }
                .switchToLatest()
                .sink { sink.total &+= $0 }
            return { count in
                for inner in 0..<(count / 5) { outer.send(inner) }
                return withExtendedLifetime(subscription) { sink.total }
            }
        },
        baseline: {
            let sink = Sink()
            let source = ClosureSource()
            let innerObserver = ClosureSource()
            innerObserver.observer = { sink.total &+= $0 }
            source.observer = { first in
                for value in first..<(first + 5) { innerObserver.send(value) }
            }
            return { count in
                for inner in 0..<(count / 5) { source.send(inner) }
                return sink.total
            }
        }
    )
}

@inlinable func doubled(_ value: Int) -> Int { value &* 2 }
@inlinable func isNotSix(_ value: Int) -> Bool { value != 6 }

/// The baseline's cold start: a map and a filter closure applied to each element.
final class ColdClosureChain {
    let map: (Int) -> Int
    let filter: (Int) -> Bool

    init(map: @escaping (Int) -> Int, filter: @escaping (Int) -> Bool) {
        self.map = map
        self.filter = filter
    }

    @inline(never)
    func run(_ values: [Int], _ observer: (Int) -> Void) {
        for value in values {
            let mapped = map(value)
            if filter(mapped) { observer(mapped) }
        }
    }
}

/// The baseline's combineLatest: two latest values and one closure.
final class LatestPair {
    // The baseline is the physical limit: no runtime exclusivity checks.
    @exclusivity(unchecked) private var left: Int?
    @exclusivity(unchecked) private var right: Int?
    private let observer: (Int, Int) -> Void

    init(_ observer: @escaping (Int, Int) -> Void) {
        self.observer = observer
    }

    @inline(never)
    func sendLeft(_ value: Int) {
        left = value
        if let right { observer(value, right) }
    }

    @inline(never)
    func sendRight(_ value: Int) {
        right = value
        if let left { observer(left, value) }
    }
}
