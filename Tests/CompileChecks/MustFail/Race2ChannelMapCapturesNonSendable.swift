// Race 2, channels: a processor runs on its context (here another queue) while the caller keeps
// using the non-Sendable object it captured.
// expected-error: non-Sendable type 'Scale'

import RivuletChannels

final class Scale {
    var factor = 2
}

func scaled(_ numbers: Channel<Int>, by scale: Scale) -> Channel<Int> {
    numbers.map(context: .global) { $0 * scale.factor }
}
