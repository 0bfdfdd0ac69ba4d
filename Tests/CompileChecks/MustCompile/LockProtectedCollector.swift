// Sound pattern: values observed on another thread are collected into a Sendable box whose state
// a lock protects, so the caller may read it while the observer writes.

import Foundation
import Rivulet

final class Collected: @unchecked Sendable {
    // @unchecked Sendable: `values` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var values: [Int] = []

    func append(_ value: Int) {
        lock.withLock { values.append(value) }
    }

    var snapshot: [Int] {
        lock.withLock { values }
    }
}

func collect(_ numbers: Signal<Int, Never>, _ producer: SignalProducer<Int, Never>) -> [Int] {
    let collected = Collected()
    numbers.observe(on: QueueScheduler()).observeValues { value in
        collected.append(value)
    }
    producer.observe(on: QueueScheduler()).startWithValues { value in
        collected.append(value)
    }
    return collected.snapshot
}
