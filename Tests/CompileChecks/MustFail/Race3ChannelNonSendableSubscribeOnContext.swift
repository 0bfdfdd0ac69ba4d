// Race 3, channels: a handler on another context receives the channel's values on that context's
// thread, so subscribing on a context needs `Value: Sendable`; a non-Sendable class must not
// cross.
// expected-error: 'Frame' does not conform to the 'Sendable' protocol || requires that 'Frame' conform to 'Sendable'

import RivuletChannels

final class Frame {
    var pixels: [UInt8] = []
}

func show(_ frames: Channel<Frame>) -> ChannelOutput<Frame> {
    frames.subscribeValues(context: .mainAsync) { frame in
        frame.pixels.removeAll()
    }
}
