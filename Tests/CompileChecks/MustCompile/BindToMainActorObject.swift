// Sound pattern: binding to a `@MainActor` object's state with `<~`. The target's action is a
// `@MainActor` closure, which selects `BindingTarget.init(lifetime:action:)` for main-actor
// actions: every value is applied on the main actor, in order.

import Rivulet

@MainActor
final class TitleViewModel {
    var title = ""
    let (lifetime, token) = Lifetime.make()

    var titleTarget: BindingTarget<String> {
        BindingTarget(lifetime: lifetime) { @MainActor [weak self] value in
            self?.title = value
        }
    }

    func bind(_ titles: SignalProducer<String, Never>) {
        titleTarget <~ titles
    }
}
