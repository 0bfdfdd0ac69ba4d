// Race 2, actions: an action's work may run on any thread, so its `values` observers and the
// observers of its applied producer may not mutate locals that the caller reads afterwards.
// expected-error: risks causing data races || in concurrently-executing code
// expected-error: risks causing data races || in concurrently-executing code

import Rivulet

func outputs(of action: Action<Int, Int, Never>) -> [Int] {
    var outputs: [Int] = []
    action.values.observeValues { value in
        outputs.append(value)
    }
    var applied = 0
    action.apply(1).startWithValues { _ in
        applied += 1
    }
    return outputs + [applied]
}
