// Race 1, scheduler variant: `observe(on: UIScheduler())` does deliver on the main thread, but the
// compiler cannot know that from the types, so an unannotated observer closure still may not touch
// main-actor state. (The sound spelling is `{ @MainActor [weak self] value in ... }`.)
// expected-error: main actor-isolated property 'names' can not be mutated from a

import Rivulet

@MainActor
final class NameList {
    var names: [String] = []

    func bind(_ added: Signal<String, Never>) {
        added.observe(on: UIScheduler()).observeValues { name in
            self.names.append(name)
        }
    }
}
