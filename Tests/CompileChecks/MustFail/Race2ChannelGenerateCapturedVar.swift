// Race 2, channels: `generate`'s closure runs on its context whenever the channel activates or
// deactivates, on whichever thread that happens; here it stores the input in a local `var` that
// the caller reads afterwards.
// expected-error: in concurrently-executing code

import RivuletChannels

func generatedInputIsKept() -> Bool {
    var current: ChannelInput<Int>?
    let numbers = Channel<Int>.generate(context: .global) { input in
        current = input
    }
    let output = numbers.subscribeValues { _ in }
    output.cancel()
    return current != nil
}
