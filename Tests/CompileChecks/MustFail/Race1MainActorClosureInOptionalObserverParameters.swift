// Race: a `{ @MainActor [weak self] in … }` closure given to the optional observer parameters of
// `Signal.Observer(value:…)` or `on(value:…)`, which run it on the sending thread. As `sending`
// parameters, Swift 6.3 accepted it when it captured `self` weakly; as `@Sendable` ones, it is
// rejected.

import Rivulet

@MainActor
final class Meter {
    var reading = 0

    func follow(_ readings: Signal<Int, Never>) {
        // expected-error: loses global actor 'MainActor'
        _ = readings.observe(Signal<Int, Never>.Observer(value: { @MainActor [weak self] in self?.reading = $0 }))
        // expected-error: loses global actor 'MainActor'
        _ = readings.on(value: { @MainActor [weak self] in self?.reading = $0 })
    }
}
