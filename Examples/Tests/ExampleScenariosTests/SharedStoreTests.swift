import ExampleScenarios
import Rivulet
import Testing

@Suite struct SharedStoreTests {
    @Test func aReaderSeesItsKeysCurrentValueThenEachChangeOfThatKeyOnly() {
        let store = SharedStore<String, Int>(["a": 1])
        let seen = Atomic<[Int?]>([])
        let reader = store.value(forKey: "a").producer.startWithValues { value in seen.modify { $0.append(value) } }

        store.set(5, forKey: "b") // another key: not seen
        store.set(2, forKey: "a")
        store.set(2, forKey: "a") // the same value: not seen again
        store.set(nil, forKey: "a")
        reader.dispose() // the reader leaves
        store.set(3, forKey: "a")

        #expect(seen.value == [1, 2, nil])
        #expect(store["a"] == 3)
        #expect(store["b"] == 5)
    }

    @Test func anUpdateOfSeveralKeysIsSeenInOneStep() {
        let store = SharedStore<String, Int>()
        let states = Atomic<[[String: Int]]>([])
        let reader = store.entries.producer.startWithValues { entries in states.modify { $0.append(entries) } }
        defer { reader.dispose() }

        store.update { entries in
            entries["from"] = 10
            entries["to"] = 0
        }
        store.update { entries in
            entries["from", default: 0] -= 4
            entries["to", default: 0] += 4
        }

        #expect(states.value == [[:], ["from": 10, "to": 0], ["from": 6, "to": 4]])
    }

    /// Writers on several threads, readers of each key, a reader of the whole store, and readers
    /// that join and leave on other threads while the writes go on (`SharedStoreExercise`).
    @Test func concurrentWritersAndReadersSeeEveryChangeInOrderAndNoTornState() {
        let writers = 4
        let writesPerWriter = 500
        let visitingThreads = 2
        let report = SharedStoreExercise.run(
            writers: writers, writesPerWriter: writesPerWriter, visitingThreads: visitingThreads, minimumVisits: 10)

        let everyValue: [Int?] = [nil] + (1...writesPerWriter).map { $0 }
        for key in report.keys {
            // Compared first, so that a failure prints a count rather than 500 values.
            let sawEveryValueInOrder = report.keyLogs[key] == everyValue
            #expect(sawEveryValueInOrder, "the reader of \(key) saw \(report.keyLogs[key]?.count ?? 0) values")
            #expect(report.finalValues[key] == writesPerWriter)
        }
        #expect(report.total == writers * writesPerWriter)
        #expect(report.statesSeen == 1 + writers * writesPerWriter)
        #expect(report.tornStates == 0)
        #expect(report.visits >= 10 * visitingThreads)
        #expect(report.badVisits.isEmpty)
    }
}
