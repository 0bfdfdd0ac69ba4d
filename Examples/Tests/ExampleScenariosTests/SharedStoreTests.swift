import Dispatch
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
    /// that join and leave on other threads while the writes go on.
    @Test func concurrentWritersAndReadersSeeEveryChangeInOrderAndNoTornState() {
        let writers = 4
        let writesPerWriter = 500
        let visitingThreads = 2
        let store = SharedStore<String, Int>()
        let keys = (0..<writers).map { "writer \($0)" }

        let logs = keys.map { _ in Atomic<[Int?]>([]) }
        let keyReaders = zip(keys, logs).map { key, log in
            store.value(forKey: key).producer.startWithValues { value in log.modify { $0.append(value) } }
        }
        let states = Atomic(0)
        let tornStates = Atomic(0)
        let storeReader = store.entries.producer.startWithValues { entries in
            states.modify { $0 += 1 }
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
            // Readers join and leave, one after another, until the writers are done: the first value
            // each sees is never older than the one read before it joined, and the values only grow.
            var visit = 0
            while writersDone.value < writers || visit < 10 {
                let key = keys[(thread + visit) % writers]
                let before = store[key] ?? 0
                let seen = Atomic<[Int]>([])
                let reader = store.value(forKey: key).producer.startWithValues { value in
                    seen.modify { $0.append(value ?? 0) }
                }
                reader.dispose()
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

        let everyValue: [Int?] = [nil] + (1...writesPerWriter).map { $0 }
        for (key, log) in zip(keys, logs) {
            // Compared first, so that a failure prints a count rather than 500 values.
            let sawEveryValueInOrder = log.value == everyValue
            #expect(sawEveryValueInOrder, "the reader of \(key) saw \(log.value.count) values")
            #expect(store[key] == writesPerWriter)
        }
        #expect(store["total"] == writers * writesPerWriter)
        #expect(states.value == 1 + writers * writesPerWriter)
        #expect(tornStates.value == 0)
        #expect(visits.value >= 10 * visitingThreads)
        #expect(badVisits.value.isEmpty)
    }
}
