// Race: a closure written `{ @MainActor in … }` handed to a signal operator or to an observer's
// initialiser, which run it on the sending thread. (Swift 6.3 accepts such a closure for a
// `sending` parameter without a word, so these parameters are `@Sendable`, where the conversion
// is rejected.)

import Rivulet

@MainActor
final class Gauge {
    var level = 0

    func follow(_ levels: Signal<Int, Never>) {
        // expected-error: loses global actor 'MainActor'
        _ = levels.map { @MainActor level in self.level = level }
        // expected-error: loses global actor 'MainActor'
        _ = levels.observe(Signal<Int, Never>.Observer { @MainActor event in self.level = event.value ?? 0 })
    }
}
