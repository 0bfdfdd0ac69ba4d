// Sound pattern: an observer closure may capture and mutate a local `var` that the caller does not
// use afterwards: the closure is then the variable's only user, whatever thread runs it.

import Rivulet

func printRunningTotal(_ numbers: Signal<Int, Never>, _ more: SignalProducer<Int, Never>) {
    var total = 0
    numbers.observe(on: QueueScheduler()).observeValues { value in
        total += value
        print("total", total)
    }
    var count = 0
    more.startWithValues { _ in
        count += 1
        print("count", count)
    }
}
