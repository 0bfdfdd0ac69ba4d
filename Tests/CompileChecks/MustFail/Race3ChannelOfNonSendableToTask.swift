// Race 3, channels: a channel of non-Sendable values is not Sendable, so it stays with its
// caller: handing it to a task and using it here too would let two threads reach its values.
// expected-error: risks causing data races

import RivuletChannels

final class Frame {
    var pixels: [UInt8] = []
}

func peekTwice(_ frames: Channel<Frame>) -> Int {
    Task.detached {
        _ = frames.peek()
    }
    return frames.peek()?.pixels.count ?? 0
}
