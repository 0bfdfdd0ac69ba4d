import ExampleScenarios

// A store shared by several threads (`SharedStoreExercise` has the whole set-up). Four writers
// each count their own key up to 1 000; every write also adds 1 to "total" in the same step.
// While they write:
// - one reader per writer's key records every value it sees;
// - a reader of the whole store checks, in every state it sees, that "total" is the sum of the
//   writers' keys (a torn update, with one change made and not the other, would break it);
// - a fifth thread keeps joining and leaving as a reader, checking that each visit sees values
//   no older than what it read before joining, and that only grow.
// The threads interleave differently on every run; the summary printed at the end does not.

let writesPerWriter = 1_000
let report = SharedStoreExercise.run(writers: 4, writesPerWriter: writesPerWriter, visitingThreads: 1, minimumVisits: 0)

let everyValue: [Int?] = [nil] + (1...writesPerWriter).map { $0 }
for key in report.keys {
    let inOrder = report.keyLogs[key] == everyValue ? "every value, in order" : "NOT every value in order"
    print("\(key): final value \(report.finalValues[key] ?? 0); its reader saw nil, then 1...\(writesPerWriter): \(inOrder)")
}
print("total: \(report.total)")
print("whole-store reader: \(report.statesSeen) states, \(report.tornStates) torn")
print("readers that joined and left during the writes and saw stale or out-of-order values: \(report.badVisits.count)")
