// Sound pattern: a producer, signal and property of a Sendable value are Sendable, so a detached
// task may use them while the caller keeps them too.

import Rivulet

func share(_ numbers: SignalProducer<Int, Never>, _ count: MutableProperty<Int>, _ ticks: Signal<Int, Never>) -> Int {
    Task.detached {
        numbers.startWithValues { value in count.modify { $0 += value } }
        ticks.observeValues { tick in count.value = tick }
    }
    numbers.start()
    return count.value
}
