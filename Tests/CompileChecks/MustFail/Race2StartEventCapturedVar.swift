// Race 2, `start { event in }` and `startWithResult`: each closure mutates a local that the caller
// reads after starting, while the producer's events may arrive on another thread.
// expected-error: risks causing data races || in concurrently-executing code
// expected-error: risks causing data races || in concurrently-executing code

import Rivulet

struct Failure: Error {}

func eventCount(of numbers: SignalProducer<Int, Failure>) -> Int {
    var events = 0
    numbers.start { _ in
        events += 1
    }
    let afterStart = events
    var results = 0
    numbers.startWithResult { _ in
        results += 1
    }
    return afterStart + results
}
