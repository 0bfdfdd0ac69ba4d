// Race 3, scheduler operators: `observe(on:)` moves values to another thread, so it needs
// `Value: Sendable`; a non-Sendable class must not cross.
// expected-error: 'Frame' does not conform to the 'Sendable' protocol || requires that 'Frame' conform to 'Sendable'

import Rivulet

final class Frame {
    var pixels: [UInt8] = []
}

func frames(_ frames: Signal<Frame, Never>) -> Signal<Frame, Never> {
    frames.observe(on: QueueScheduler())
}
