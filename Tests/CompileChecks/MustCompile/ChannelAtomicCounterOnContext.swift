// Sound pattern, channels: a handler on another context counts into Rivulet's `Atomic` (a
// lock-protected box, `Sendable` for a `Sendable` value), which the caller may read at any time.

import RivuletChannels

func countOnGlobal(_ numbers: Channel<Int>) -> Int {
    let count = Atomic(0)
    let output = numbers.subscribeValues(context: .global) { _ in
        count.modify { $0 += 1 }
    }
    output.cancel()
    return count.value
}
