// Race 2, channels: the handler runs on the `.global` context's queue and mutates a local `var`
// that the calling thread reads afterwards. A handler that takes an execution context is
// `@Sendable`, so it may not mutate what it captures.
// expected-error: in concurrently-executing code

import RivuletChannels

func totalOnGlobal(_ numbers: Channel<Int>) -> Int {
    var total = 0
    let output = numbers.subscribeValues(context: .global) { value in
        total += value
    }
    output.cancel()
    return total
}
