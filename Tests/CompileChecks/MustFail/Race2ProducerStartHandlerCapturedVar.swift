// Race 2, producers: a producer's start handler runs on whatever thread starts it, possibly several
// at once, so it may not mutate a captured local.
// expected-error: captured var 'starts' in concurrently-executing code

import Rivulet

func countedProducer() -> SignalProducer<Int, Never> {
    var starts = 0
    return SignalProducer { observer, _ in
        starts += 1
        observer.send(value: starts)
        observer.sendCompleted()
    }
}
