import Dispatch
import Rivulet
import Synchronization

extension Workload {
    /// 11. Values through `for await`: a producer's `values` against an `AsyncStream` holding the
    /// same values, summed by one task (issue 17). The baseline column is the `AsyncStream`.
    static let asyncValues = Workload(
        number: 11, name: "async: for await over producer.values (baseline: AsyncStream)", operation: "value",
        operations: 200_000,
        target: Target(beatsOpenCombine: false),
        note: "OpenCombine 0.14 has no AsyncSequence bridge; the baseline is an AsyncStream with the same values",
        crossesThreads: true,
        rivulet: {
            { count in
                let producer = SignalProducer<Int, Never>(0..<count)
                return awaitSum { await sum(producer.values) }
            }
        },
        openCombine: nil,
        baseline: {
            { count in
                awaitSum {
                    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
                    for value in 0..<count { continuation.yield(value) }
                    continuation.finish()
                    return await sum(stream)
                }
            }
        }
    )
}

/// The sum of a sequence's elements, awaited.
private func sum<S: AsyncSequence>(_ sequence: S) async -> Int where S.Element == Int, S.Failure == Never {
    var total = 0
    for await value in sequence { total &+= value }
    return total
}

/// Runs `work` in a task and blocks this (benchmark) thread until it has finished.
private func awaitSum(_ work: @escaping @Sendable () async -> Int) -> Int {
    let result = Atomic<Int>(0)
    let done = DispatchSemaphore(value: 0)
    Task {
        result.store(await work(), ordering: .releasing)
        done.signal()
    }
    done.wait()
    return result.load(ordering: .acquiring)
}
