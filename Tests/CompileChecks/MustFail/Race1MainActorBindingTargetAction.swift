// Race 1, bindings: a `BindingTarget` action runs on the thread the bound source sends on (or on
// the target's scheduler), so an unannotated closure formed in a `@MainActor` method may not touch
// main-actor state. (The pass case, with a `@MainActor` closure, is MustCompile/BindToMainActorObject.)
// expected-error: main actor-isolated property 'title' can not be mutated from a

import Rivulet

@MainActor
final class HeaderViewModel {
    var title = ""
    let (lifetime, token) = Lifetime.make()

    func bind(_ titles: SignalProducer<String, Never>) {
        BindingTarget(on: QueueScheduler(), lifetime: lifetime) { [weak self] (value: String) in
            self?.title = value
        } <~ titles
    }
}
