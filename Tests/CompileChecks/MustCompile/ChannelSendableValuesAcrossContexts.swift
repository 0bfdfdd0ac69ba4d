// Sound pattern, channels: `Sendable` values processed on one context and handled on another; the
// processors capture only `Sendable` state, and the input is used from another thread.

import Dispatch
import RivuletChannels

struct Reading: Sendable {
    var celsius: Double
}

func fahrenheitLabels(offset: Double) -> (ChannelInput<Reading>, ChannelOutput<String>) {
    let (input, readings) = Channel<Reading>.create { $0.multicast() }
    let labels = Atomic<[String]>([])
    let output =
        readings
        .map(context: .global) { $0.celsius * 9 / 5 + 32 + offset }
        .filter { $0 > 0 }
        .combineLatestWith(readings, context: .direct) { fahrenheit, reading in "\(reading.celsius) → \(fahrenheit)" }
        .subscribeValues(context: .mainAsync) { label in labels.modify { $0.append(label) } }
    DispatchQueue.global().async {
        input.send(value: Reading(celsius: 21))
    }
    return (input, output)
}
