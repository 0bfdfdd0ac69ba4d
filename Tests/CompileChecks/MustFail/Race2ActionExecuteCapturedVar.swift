// Race 2, actions: an action is shared across threads and its work closure runs on whichever
// thread applies it, so the closure may not mutate a captured local.
// expected-error: captured var 'applied' in concurrently-executing code

import Rivulet

func countingAction() -> Action<Int, Int, Never> {
    var applied = 0
    return Action { input in
        applied += 1
        return SignalProducer(value: input + applied)
    }
}
