// Race 1 and 3 together: the `@MainActor` observer overload hands each value to the main actor,
// so it needs `Value: Sendable`; with a non-Sendable class there is no main-actor observer, and
// the closure formed in the `@MainActor` method may not touch main-actor state.
// expected-error: 'Row' does not conform to the 'Sendable' protocol || requires that 'Row' conform to 'Sendable' || main actor-isolated

import Rivulet

final class Row {
    var label = ""
}

@MainActor
final class Table {
    var rows: [Row] = []

    func bind(_ added: Signal<Row, Never>) {
        added.observeValues { @MainActor [weak self] row in
            self?.rows.append(row)
        }
    }
}
