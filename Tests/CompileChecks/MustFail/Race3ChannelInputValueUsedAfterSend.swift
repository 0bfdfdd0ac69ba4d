// Race 3, channels: an input may be used from any thread, so it takes its value as `sending`: the
// value goes to whichever thread delivers it. Changing the value after sending it races with that
// thread.
// expected-error: risks causing data races

import RivuletChannels

final class Frame {
    var pixels: [UInt8] = []
}

func sendAndReuse(_ input: ChannelInput<Frame>) {
    let frame = Frame()
    input.send(value: frame)
    frame.pixels.append(1)
}
