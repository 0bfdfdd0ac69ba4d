import Foundation
import Rivulet
import RivuletContracts
import Testing

/// Correct operators written by hand, the way an operator author would, which the kit must never
/// reject: run many times, with both cores kept busy, since the races they meet depend on load.
///
/// CI runs a short form; `RIVULET_KIT_REPEAT=1000` runs each check a thousand times.
@Suite(.serialized) struct CorrectHandWrittenOperatorTests {
    /// How many times each check runs (20 unless `RIVULET_KIT_REPEAT` says otherwise).
    static let repetitions = ProcessInfo.processInfo.environment["RIVULET_KIT_REPEAT"].flatMap(Int.init) ?? 20

    @Test func aHandWrittenMergeIsNeverRejected() {
        let rejected = BusyCores.whileBusy {
            (0..<Self.repetitions).compactMap { _ -> ContractReport? in
                let report = OperatorContract.verify("handWrittenMerge", inputs: [1, 2, 3]) {
                    (left: Signal<Int, ContractError>, right: Signal<Int, ContractError>) in
                    left.handWrittenMerge(right)
                }
                return report.isConforming ? nil : report
            }
        }
        #expect(
            rejected.isEmpty,
            "rejected \(rejected.count) of \(Self.repetitions) times; first: \(rejected.first.map { "\($0)" } ?? "")")
    }

    @Test func aHandWrittenTakeUntilIsNeverRejected() {
        let rejected = BusyCores.whileBusy {
            (0..<Self.repetitions).compactMap { _ -> ContractReport? in
                let report = OperatorContract.verify("handWrittenTakeUntil", inputs: [1, 2, 3]) {
                    (source: Signal<Int, ContractError>, trigger: Signal<Int, ContractError>) in
                    source.handWrittenTake(until: trigger)
                }
                return report.isConforming ? nil : report
            }
        }
        #expect(
            rejected.isEmpty,
            "rejected \(rejected.count) of \(Self.repetitions) times; first: \(rejected.first.map { "\($0)" } ?? "")")
    }
}

/// Keeps every core busy with spinning threads while `body` runs, so that the kit's threads are
/// preempted at arbitrary points, as on a loaded machine.
enum BusyCores {
    private final class StopFlag: Sendable {
        let isSet = Atomic(false)
    }

    static func whileBusy<Result>(_ body: () -> Result) -> Result {
        let stop = StopFlag()
        let spinners = ProcessInfo.processInfo.activeProcessorCount
        let done = DispatchGroup()
        for _ in 0..<spinners {
            done.enter()
            Thread.detachNewThread {
                var counter = 0
                while !stop.isSet.value { counter &+= 1 }
                withExtendedLifetime(counter) {}
                done.leave()
            }
        }
        defer {
            stop.isSet.value = true
            done.wait()
        }
        return body()
    }
}

extension Signal where Value == Int, Error == ContractError {
    /// A merge written with `Signal { observer, lifetime in … }`: values and the first failure or
    /// interruption of either input go through; the output completes when both inputs have.
    func handWrittenMerge(_ other: Signal<Int, ContractError>) -> Signal<Int, ContractError> {
        Signal { output, lifetime in
            let remaining = Atomic(2)
            let forward: @Sendable (Signal<Int, ContractError>.Event) -> Void = { event in
                switch event {
                case let .value(value): output.send(value: value)
                case let .failed(error): output.send(error: error)
                case .interrupted: output.sendInterrupted()
                case .completed:
                    let isLast = remaining.modify { count -> Bool in
                        count -= 1
                        return count == 0
                    }
                    if isLast { output.sendCompleted() }
                }
            }
            lifetime += self.observe(forward)
            lifetime += other.observe(forward)
        }
    }

    /// A take-until written with `Signal { observer, lifetime in … }`: the source's events until
    /// the trigger sends a value or completes; the trigger's failure or interruption ends it too.
    func handWrittenTake(until trigger: Signal<Int, ContractError>) -> Signal<Int, ContractError> {
        Signal { output, lifetime in
            lifetime += self.observe(output)
            lifetime += trigger.observe { event in
                switch event {
                case .value, .completed: output.sendCompleted()
                case let .failed(error): output.send(error: error)
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}
