// Race 3, properties: a `MutableProperty` of a non-Sendable class is not Sendable, so a detached
// task cannot share it with the caller.
// expected-error: risks causing data races || with non-Sendable type

import Rivulet

final class Draft {
    var text = ""
}

func edit(_ draft: MutableProperty<Draft>) -> String {
    Task.detached {
        draft.value.text = "from the task"
    }
    return draft.value.text
}
