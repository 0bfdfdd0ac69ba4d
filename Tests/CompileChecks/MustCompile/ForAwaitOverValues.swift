// Sound pattern: iterating a producer's and a property's values with `for await`.

import Rivulet

// `values` has the availability of its `AsyncSequence` machinery.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func sum(_ numbers: SignalProducer<Int, Never>, _ score: MutableProperty<Int>) async -> Int {
    var total = 0
    for await value in numbers.values {
        total += value
    }
    for await value in score.values {
        total += value
        if value > 10 { break }
    }
    return total
}
