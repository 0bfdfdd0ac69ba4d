// Race 2, producer variant: `startWithValues` after `observe(on:)`, mutating a local the caller reads.
// expected-error: risks causing data races || in concurrently-executing code

import Rivulet

func lastValue(of numbers: SignalProducer<Int, Never>) -> Int? {
    var last: Int?
    numbers.observe(on: QueueScheduler()).startWithValues { value in
        last = value
    }
    return last
}
