import Dispatch
import Foundation
import MallocCounter
import Rivulet

/// Sink that the optimiser cannot remove.
final class Sink: @unchecked Sendable {
    // @unchecked Sendable: only touched by the single measuring thread.
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
    print("| \(name) | \(String(format: "%.1f", best)) | \(String(format: "%.2f", perDelivery)) | \(String(format: "%.3f", Double(mallocs) / Double(sends))) |")
    precondition(sink.total != 42, "keep the sink alive")
}

if CommandLine.arguments.contains("profile") {
    // For `valgrind --tool=callgrind`: one workload, small enough to run under the simulator.
    measure("send, 1 observer", observers: 1, sends: 100_000)
    exit(0)
}

print("| workload | ns per send | ns per delivery | mallocs per send |")
print("|---|---|---|---|")
measure("send, 1 observer", observers: 1, sends: 2_000_000)
measure("send, 100 observers", observers: 100, sends: 100_000)
measure("send, 0 observers", observers: 0, sends: 2_000_000)

// Sanity check of the malloc counter itself: one class allocation must count.
do {
    final class Probe { var x = 0 }
    let before = rivulet_probe_malloc_count()
    let probe = Probe()
    withExtendedLifetime(probe) {}
    print("counter check (expect >= 1):", rivulet_probe_malloc_count() - before)
}
