// Race 1, producer variant: `startWithValues` from a `@MainActor` method, with a closure that
// calls a main-actor method. The producer's values arrive on whatever thread sends them.
// expected-error: call to main actor-isolated instance method 'render'

import Rivulet

@MainActor
final class CounterScreen {
    private var text = ""

    func render(_ count: Int) {
        text = "\(count)"
    }

    func bind(_ counts: SignalProducer<Int, Never>) {
        counts.startWithValues { count in
            self.render(count)
        }
    }
}
