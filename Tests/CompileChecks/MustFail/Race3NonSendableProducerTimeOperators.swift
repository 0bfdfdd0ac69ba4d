// Race 3, time and scheduler operators on producers: `start(on:)`, `delay` and `throttle` hand
// values to another thread, so each needs `Value: Sendable`.
// expected-error: 'Sample' does not conform to the 'Sendable' protocol || requires that 'Sample' conform to 'Sendable'
// expected-error: 'Sample' does not conform to the 'Sendable' protocol || requires that 'Sample' conform to 'Sendable'
// expected-error: 'Sample' does not conform to the 'Sendable' protocol || requires that 'Sample' conform to 'Sendable'

import Rivulet

final class Sample {
    var reading = 0.0
}

func shifted(_ samples: SignalProducer<Sample, Never>) -> [SignalProducer<Sample, Never>] {
    let scheduler = QueueScheduler()
    return [
        samples.start(on: scheduler),
        samples.delay(1, on: scheduler),
        samples.throttle(1, on: scheduler),
    ]
}
