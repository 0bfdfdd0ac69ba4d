// Sound pattern: binding to a `@MainActor` object's state with `<~`, made on the main actor.
// UNSURE (final API): the target is a `BindingTarget` whose action is a `@MainActor` closure
// (mirroring the `@MainActor` observer overload), delivered on `UIScheduler`. If the final API
// spells this differently (for example `viewModel.reactive[\.title] <~ producer`), update the case.

import Rivulet

@MainActor
final class TitleViewModel {
    var title = ""
    let (lifetime, token) = Lifetime.make()

    var titleTarget: BindingTarget<String> {
        BindingTarget(on: UIScheduler(), lifetime: lifetime) { @MainActor [weak self] value in
            self?.title = value
        }
    }

    func bind(_ titles: SignalProducer<String, Never>) {
        titleTarget <~ titles
    }
}
