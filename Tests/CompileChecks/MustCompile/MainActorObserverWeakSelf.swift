// Sound pattern: a `@MainActor` view model observes with `{ @MainActor [weak self] value in ... }`,
// which selects the main-actor observer overload (it needs `Value: Sendable`): the closure always
// runs on the main actor, so it may update the view model's state.

import Rivulet

@MainActor
final class ProfileViewModel {
    var name = ""
    var visits = 0
    private var disposables: [Disposable] = []

    func bind(names: Signal<String, Never>, visits: SignalProducer<Int, Never>) {
        if let disposable = names.observeValues({ @MainActor [weak self] value in self?.name = value }) {
            disposables.append(disposable)
        }
        disposables.append(
            visits.startWithValues { @MainActor [weak self] value in
                self?.visits = value
            }
        )
    }
}
