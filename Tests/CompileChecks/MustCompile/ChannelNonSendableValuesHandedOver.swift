// Sound pattern, channels: a channel of non-Sendable values stays with its caller, while its input
// (always `Sendable`) may be used from another thread: each value is made there and handed over
// whole (`sending`), so only the channel's side reaches it afterwards.

import Dispatch
import RivuletChannels

final class Frame {
    var pixels: [UInt8] = []
}

func latestFrameSize() -> Int {
    let (input, frames) = Channel<Frame>.create { $0.continuous() }
    let capture = frames.capture()
    DispatchQueue.global().async {
        let frame = Frame()
        frame.pixels = [1, 2, 3]
        input.send(value: frame)
    }
    return capture.values.last?.pixels.count ?? 0
}
