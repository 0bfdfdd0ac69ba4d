// Race 2, the other observer families on a signal: `observeResult`, `observeCompleted` and
// `observeInterrupted` closures mutate locals that the caller reads afterwards.
// expected-error: risks causing data races || in concurrently-executing code
// expected-error: risks causing data races || in concurrently-executing code
// expected-error: risks causing data races || in concurrently-executing code

import Rivulet

struct Failure: Error {}

func summary(of numbers: Signal<Int, Failure>) -> String {
    var failures = 0
    numbers.observeResult { result in
        if case .failure = result { failures += 1 }
    }
    var completed = false
    numbers.observeCompleted {
        completed = true
    }
    var interrupted = false
    numbers.observeInterrupted {
        interrupted = true
    }
    return "\(failures) \(completed) \(interrupted)"
}
