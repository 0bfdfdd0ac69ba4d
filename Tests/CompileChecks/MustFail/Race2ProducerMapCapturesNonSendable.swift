// Race 2, operators on producers: each start may run the `map` closure on another thread, so it
// may not capture a non-Sendable object shared with the caller.
// expected-error: non-Sendable type 'Tally'

import Rivulet

final class Tally {
    var count = 0
}

func tallied(_ numbers: SignalProducer<Int, Never>, into tally: Tally) -> SignalProducer<Int, Never> {
    numbers.map { value in
        tally.count += 1
        return value + tally.count
    }
}
