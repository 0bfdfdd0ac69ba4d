// Race 1: an observer closure formed in a `@MainActor` method touches main-actor state, without
// asking for the main actor. The signal may send from any thread, and the observer runs on the
// sending thread, so the closure is not main-actor isolated: mutating `title` in it must not compile.
// (The sound spelling is `{ @MainActor [weak self] value in ... }`; see MustCompile.)
// expected-error: main actor-isolated property 'title' can not be mutated from a

import Rivulet

@MainActor
final class TitleViewModel {
    var title = ""

    func bind(_ titles: Signal<String, Never>) {
        titles.observeValues { value in
            self.title = value
        }
    }
}
