// Race 2: the observer runs on a QueueScheduler's queue and mutates a local `var` that the calling
// thread reads afterwards.
// expected-error: risks causing data races || in concurrently-executing code

import Rivulet

func countOnQueue(_ numbers: Signal<Int, Never>) -> Int {
    var total = 0
    numbers.observe(on: QueueScheduler()).observeValues { value in
        total += value
    }
    return total
}
