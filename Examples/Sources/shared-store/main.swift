import Dispatch
import ExampleScenarios
import Rivulet

// A store shared by several threads. Four writers each count their own key up to 1 000; every
// write also adds 1 to "total" in the same step. While they write:
// - one reader per writer's key records every value it sees;
// - a reader of the whole store checks, in every state it sees, that "total" is the sum of the
//   writers' keys (a torn update, with one change made and not the other, would break it);
// - a fifth thread keeps joining and leaving as a reader, checking that each visit sees values
//   that only grow.
// The threads interleave differently on every run; the summary printed at the end does not.

let writers = 4
let writesPerWriter = 1_000
let store = SharedStore<String, Int>()
let keys = (0..<writers).map { "writer \($0)" }

// Readers of one key each. `Rivulet.Atomic` because the values are recorded on the writers'
// threads and read here at the end.
let logs = keys.map { _ in Atomic<[Int?]>([]) }
let keyReaders = zip(keys, logs).map { key, log in
    store.value(forKey: key).producer.startWithValues { value in log.modify { $0.append(value) } }
}

// A reader of the whole store.
let statesSeen = Atomic(0)
let tornStates = Atomic(0)
let storeReader = store.entries.producer.startWithValues { entries in
    let sum = keys.reduce(0) { $0 + (entries[$1] ?? 0) }
    statesSeen.modify { $0 += 1 }
    if sum != entries["total"] ?? 0 { tornStates.modify { $0 += 1 } }
}

// The writers, and the thread whose readers come and go until the writers are done.
let writersDone = Atomic(0)
let visitsOutOfOrder = Atomic(0)
DispatchQueue.concurrentPerform(iterations: writers + 1) { thread in
    if thread < writers {
        for count in 1...writesPerWriter {
            store.update { entries in
                entries[keys[thread]] = count
                entries["total", default: 0] += 1
            }
        }
        writersDone.modify { $0 += 1 }
        return
    }
    var visit = 0
    repeat {
        let seen = Atomic<[Int]>([])
        let reader = store.value(forKey: keys[visit % writers]).producer.startWithValues { value in
            seen.modify { $0.append(value ?? 0) }
        }
        reader.dispose() // leave: nothing is delivered to this reader after this
        let values = seen.value
        let increasing = zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
        if !increasing { visitsOutOfOrder.modify { $0 += 1 } }
        visit += 1
    } while writersDone.value < writers
}

for (key, log) in zip(keys, logs) {
    let expected: [Int?] = [nil] + (1...writesPerWriter).map { $0 }
    let inOrder = log.value == expected ? "every value, in order" : "NOT every value in order"
    print("\(key): final value \(store[key] ?? 0); its reader saw nil, then 1...\(writesPerWriter): \(inOrder)")
}
print("total: \(store["total"] ?? 0)")
print("whole-store reader: \(statesSeen.value) states, \(tornStates.value) torn")
print("readers that joined and left during the writes and saw values out of order: \(visitsOutOfOrder.value)")

keyReaders.forEach { $0.dispose() }
storeReader.dispose()
