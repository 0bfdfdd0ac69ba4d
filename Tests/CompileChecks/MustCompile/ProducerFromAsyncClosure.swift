// Sound pattern: a producer whose work is an async closure, and one whose start handler is async.

import Rivulet

func fetchNumber() async -> Int {
    42
}

func asyncProducers() -> [SignalProducer<Int, Never>] {
    let single = SignalProducer<Int, Never> { await fetchNumber() }
    let several = SignalProducer<Int, Never> { observer, _ async in
        observer.send(value: await fetchNumber())
        observer.sendCompleted()
    }
    return [single, several]
}
