// Race 2, composed properties: a `map` closure runs on whichever thread sets the source property,
// so it may not capture a non-Sendable object shared with the caller.
// expected-error: non-Sendable type 'Counter'

import Rivulet

final class Counter {
    var calls = 0
}

func labelled(_ score: MutableProperty<Int>, counting counter: Counter) -> Property<String> {
    score.map { value in
        counter.calls += 1
        return "\(value) (\(counter.calls))"
    }
}
