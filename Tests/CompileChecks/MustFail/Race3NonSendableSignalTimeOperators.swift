// Race 3, time and scheduler operators on signals: `delay`, `debounce` and `lazyMap` deliver values
// on the scheduler's thread, so each needs `Value: Sendable`.
// expected-error: 'Reading' does not conform to the 'Sendable' protocol || requires that 'Reading' conform to 'Sendable'
// expected-error: 'Reading' does not conform to the 'Sendable' protocol || requires that 'Reading' conform to 'Sendable'
// expected-error: 'Reading' does not conform to the 'Sendable' protocol || requires that 'Reading' conform to 'Sendable'

import Rivulet

final class Reading {
    var celsius = 0.0
}

func shifted(_ readings: Signal<Reading, Never>) -> [Signal<Double, Never>] {
    let scheduler = QueueScheduler()
    return [
        readings.delay(1, on: scheduler).map { $0.celsius },
        readings.debounce(1, on: scheduler).map { $0.celsius },
        readings.lazyMap(on: scheduler) { $0.celsius },
    ]
}
