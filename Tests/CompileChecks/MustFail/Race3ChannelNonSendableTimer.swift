// Race 3, channels: a timer sends its value from its clock's thread, so the value must be
// `Sendable`.
// expected-error: 'Frame' does not conform to the 'Sendable' protocol || requires that 'Frame' conform to 'Sendable'

import RivuletChannels

final class Frame {
    var pixels: [UInt8] = []
}

func blankLater() -> Channel<Frame> {
    Channel<Frame>.timer(interval: .seconds(1), value: Frame())
}
