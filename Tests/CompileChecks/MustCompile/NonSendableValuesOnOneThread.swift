// Sound pattern: non-Sendable values still flow through signals, producers and properties as long
// as nothing crosses threads: no scheduler, no task. (ReactiveSwift code relies on this.)

import Rivulet

final class Node {
    var visits = 0
}

func visitAll(_ nodes: [Node]) {
    let (signal, input) = Signal<Node, Never>.pipe()
    signal.map { node in node.visits + 1 }.observeValues { count in print(count) }
    for node in nodes { input.send(value: node) }

    let current = MutableProperty(Node())
    current.value.visits += 1
    SignalProducer<Node, Never>(nodes)
        .map { node in node.visits }
        .collect()
        .startWithValues { visits in print(visits.count, current.value.visits) }
}
