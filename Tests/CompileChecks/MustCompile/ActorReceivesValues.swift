// Sound pattern: observed values handed to an actor from the observer, one `Task` per value.

import Rivulet

actor Totals {
    private(set) var sum = 0

    func add(_ value: Int) {
        sum += value
    }
}

func feed(_ numbers: Signal<Int, Never>, into totals: Totals) {
    numbers.observe(on: QueueScheduler()).observeValues { value in
        Task { await totals.add(value) }
    }
}
