// Race 1, event and terminal-event observers: `observe`, `observeCompleted` and `observeFailed`
// closures formed in a `@MainActor` method are not main-actor isolated either.
// expected-error: main actor-isolated property 'status' can not be mutated from a
// expected-error: main actor-isolated property 'status' can not be mutated from a
// expected-error: main actor-isolated property 'status' can not be mutated from a

import Rivulet

enum LoadError: Error {
    case offline
}

@MainActor
final class LoadStatus {
    var status = "idle"

    func bind(_ loads: Signal<Int, LoadError>) {
        loads.observe { event in
            self.status = "\(event)"
        }
        loads.observeCompleted {
            self.status = "done"
        }
        loads.observeFailed { _ in
            self.status = "failed"
        }
    }
}
