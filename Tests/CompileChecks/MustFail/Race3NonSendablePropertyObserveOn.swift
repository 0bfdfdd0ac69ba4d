// Race 3, properties: a property of a non-Sendable class cannot have its values moved to a
// scheduler's thread with `observe(on:)` either, whether from its producer or its signal.
// expected-error: 'Canvas' does not conform to the 'Sendable' protocol || requires that 'Canvas' conform to 'Sendable'
// expected-error: 'Canvas' does not conform to the 'Sendable' protocol || requires that 'Canvas' conform to 'Sendable'

import Rivulet

final class Canvas {
    var strokes = 0
}

func onQueue(_ canvas: MutableProperty<Canvas>) -> (SignalProducer<Canvas, Never>, Signal<Canvas, Never>) {
    (canvas.producer.observe(on: QueueScheduler()), canvas.signal.observe(on: QueueScheduler()))
}
