// Race 1 and 3, every observer family that receives values: an explicit `{ @MainActor ... }`
// closure given to a plain (`sending`) observer parameter compiles (Swift 6.3 converts it to the
// nonisolated type without a word) and then runs on the sending thread, off the main actor. Only a
// `@MainActor` overload, which needs `Value: Sendable`, makes such a closure sound; with a
// non-Sendable value, each of these must therefore be rejected.
// expected-error: 'Row' does not conform to the 'Sendable' protocol || requires that 'Row' conform to 'Sendable'
// expected-error: 'Row' does not conform to the 'Sendable' protocol || requires that 'Row' conform to 'Sendable'
// expected-error: 'Row' does not conform to the 'Sendable' protocol || requires that 'Row' conform to 'Sendable'
// expected-error: 'Row' does not conform to the 'Sendable' protocol || requires that 'Row' conform to 'Sendable'
// expected-error: 'Row' does not conform to the 'Sendable' protocol || requires that 'Row' conform to 'Sendable'

import Rivulet

final class Row {
    var label = ""
}

@MainActor
final class RowLog {
    var lines: [String] = []

    func bind(_ rows: Signal<Row, Never>, _ loaded: SignalProducer<Row, Never>) {
        rows.observe { @MainActor [weak self] event in
            self?.lines.append("\(event)")
        }
        rows.observeResult { @MainActor [weak self] result in
            self?.lines.append("\(result)")
        }
        loaded.startWithValues { @MainActor [weak self] row in
            self?.lines.append(row.label)
        }
        loaded.start { @MainActor [weak self] event in
            self?.lines.append("\(event)")
        }
        loaded.startWithResult { @MainActor [weak self] result in
            self?.lines.append("\(result)")
        }
    }
}
