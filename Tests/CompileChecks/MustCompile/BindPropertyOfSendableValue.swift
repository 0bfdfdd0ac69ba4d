// Sound pattern: binding a property of a Sendable value to a producer and another property that
// send on other threads; the property is Sendable and its storage is locked.

import Rivulet

final class Settings: Sendable {
    let volume = MutableProperty(0)
    let muted = MutableProperty(false)
}

func bind(_ settings: Settings, volumes: SignalProducer<Int, Never>) {
    settings.volume <~ volumes.observe(on: QueueScheduler())
    settings.muted <~ settings.volume.map { $0 == 0 }
}
