// Sound pattern: an observer closure formed in a `@MainActor` method that touches no main-actor
// state (it only uses its value and Sendable captures) needs no annotation.

import Rivulet

@MainActor
final class Logger {
    let prefix = "value"

    func log(_ values: Signal<Int, Never>) {
        let prefix = self.prefix
        values.observeValues { value in
            print(prefix, value)
        }
    }
}
