import Dispatch
import Rivulet

/// `SharedStore` under load: writers on several threads, a reader per key, a reader of the whole
/// store, and readers that keep joining and leaving on other threads while the writes go on.
///
/// Writer `n` counts its own key, `"writer n"`, from 1 up to `writesPerWriter`, and in the same
/// `update` adds 1 to `"total"`: a reader of the whole store that ever saw `"total"` differ from
/// the sum of the writers' keys would have seen a torn update. The threads interleave differently
/// on every run; what `run` reports does not, unless the store breaks a rule. The `shared-store`
/// program prints the report, and the tests check it.
public enum SharedStoreExercise {
    /// What the readers saw.
    public struct Report: Sendable {
        /// The writers' keys, in order.
        public let keys: [String]
        /// Each writer's key and its value once the writers are done.
        public let finalValues: [String: Int]
        /// The value of `"total"` once the writers are done.
        public let total: Int
        /// What each key's reader saw, by key: its value when the reader joined (`nil`), then
        /// every change.
        public let keyLogs: [String: [Int?]]
        /// How many states the reader of the whole store saw, its first included.
        public let statesSeen: Int
        /// How many of those had a `"total"` that was not the sum of the writers' keys.
        public let tornStates: Int
        /// How many readers joined and left during the writes.
        public let visits: Int
        /// The visiting readers that saw a value older than the one read just before they joined,
        /// nothing at all, or values that did not only grow; one line each.
        public let badVisits: [String]
    }

    /// Runs the exercise and reports what the readers saw.
    ///
    /// - Parameters:
    ///   - writers: How many writer threads, each with its own key.
    ///   - writesPerWriter: How far each writer counts.
    ///   - visitingThreads: How many threads run readers that join and leave.
    ///   - minimumVisits: How many readers each visiting thread runs at least, even if the writers
    ///     are done sooner.
    /// - Returns: What the readers saw.
    public static func run(writers: Int, writesPerWriter: Int, visitingThreads: Int, minimumVisits: Int) -> Report {
        let store = SharedStore<String, Int>()
        let keys = (0..<writers).map { "writer \($0)" }

        // Readers of one key each. `Rivulet.Atomic` because the values are recorded on the
        // writers' threads and read here at the end.
        let logs = keys.map { _ in Atomic<[Int?]>([]) }
        let keyReaders = zip(keys, logs).map { key, log in
            store.value(forKey: key).producer.startWithValues { value in log.modify { $0.append(value) } }
        }

        // A reader of the whole store.
        let statesSeen = Atomic(0)
        let tornStates = Atomic(0)
        let storeReader = store.entries.producer.startWithValues { entries in
            statesSeen.modify { $0 += 1 }
            let sum = keys.reduce(0) { $0 + (entries[$1] ?? 0) }
            if sum != entries["total"] ?? 0 { tornStates.modify { $0 += 1 } }
        }

        let visits = Atomic(0)
        let badVisits = Atomic<[String]>([])
        let writersDone = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: writers + visitingThreads) { thread in
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
            // Readers join and leave, one after another, until the writers are done: the first
            // value each sees is never older than the one read before it joined, and the values
            // only grow.
            var visit = 0
            while writersDone.value < writers || visit < minimumVisits {
                let key = keys[(thread + visit) % writers]
                let before = store[key] ?? 0
                let seen = Atomic<[Int]>([])
                let reader = store.value(forKey: key).producer.startWithValues { value in
                    seen.modify { $0.append(value ?? 0) }
                }
                reader.dispose() // leave: nothing is delivered to this reader after this
                let values = seen.value
                let increasing = zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
                if values.isEmpty || values[0] < before || !increasing {
                    badVisits.modify { $0.append("\(key): read \(before) before joining, then saw \(values)") }
                }
                visit += 1
            }
            visits.modify { $0 += visit }
        }
        keyReaders.forEach { $0.dispose() }
        storeReader.dispose()

        return Report(
            keys: keys,
            finalValues: Dictionary(uniqueKeysWithValues: keys.map { ($0, store[$0] ?? 0) }),
            total: store["total"] ?? 0,
            keyLogs: Dictionary(uniqueKeysWithValues: zip(keys, logs.map(\.value))),
            statesSeen: statesSeen.value,
            tornStates: tornStates.value,
            visits: visits.value,
            badVisits: badVisits.value
        )
    }
}
