// Race 2, explicit observers: a `Signal.Observer` made from a closure and attached to a signal that
// sends on a queue; the closure mutates a local the caller reads afterwards.
// expected-error: risks causing data races || in concurrently-executing code

import Rivulet

func received(from numbers: Signal<Int, Never>) -> Int {
    var received = 0
    let observer = Signal<Int, Never>.Observer(value: { _ in received += 1 })
    numbers.observe(on: QueueScheduler()).observe(observer)
    return received
}
