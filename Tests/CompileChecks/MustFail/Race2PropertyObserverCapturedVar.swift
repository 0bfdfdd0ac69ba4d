// Race 2, properties: observing a property's changes and its producer with closures that mutate
// locals the caller reads afterwards. Any thread may set the property, and observers run on it.
// expected-error: risks causing data races || in concurrently-executing code
// expected-error: risks causing data races || in concurrently-executing code

import Rivulet

func changeCount(of score: MutableProperty<Int>) -> Int {
    var changes = 0
    score.signal.observeValues { _ in
        changes += 1
    }
    var seen: [Int] = []
    score.producer.startWithValues { value in
        seen.append(value)
    }
    return changes + seen.count
}
