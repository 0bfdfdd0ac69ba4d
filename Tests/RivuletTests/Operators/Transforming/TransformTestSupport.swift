import Testing
@testable import Rivulet

/// How many observers `signal` has right now.
func observerCount<V, E>(_ signal: Signal<V, E>) -> Int {
    signal.core.observerCount
}

/// P4 for an operator, on both façades: disposing of the observation of the operator's signal
/// detaches it from the upstream signal, and disposing of a start of the operator's producer ends
/// the upstream start's lifetime.
func expectDisposalStopsUpstream<V, E, U, F>(
    _: (V, E).Type = (V, E).self,
    signal operation: (Signal<V, E>) -> Signal<U, F>,
    producer producerOperation: (SignalProducer<V, E>) -> SignalProducer<U, F>,
    sourceLocation: SourceLocation = #_sourceLocation
) where V: Sendable {
    let (upstream, input) = Signal<V, E>.pipe()
    let observation = operation(upstream).observe { _ in }
    #expect(observerCount(upstream) == 1, "signal observed", sourceLocation: sourceLocation)
    observation?.dispose()
    #expect(observerCount(upstream) == 0, "signal detached", sourceLocation: sourceLocation)
    withExtendedLifetime(input) {}

    let ended = Counter()
    // The lifetime observation keeps the start's input alive, so the start stays open.
    let source = SignalProducer<V, E> { input, lifetime in
        lifetime.observeEnded {
            withExtendedLifetime(input) {}
            ended.increment()
        }
    }
    let start = producerOperation(source).start()
    #expect(ended.value == 0, "producer running", sourceLocation: sourceLocation)
    start.dispose()
    #expect(ended.value == 1, "producer stopped", sourceLocation: sourceLocation)
}

/// A producer whose starts are counted, each sending `script` synchronously.
final class CountingSource<V: Sendable, E: Swift.Error>: Sendable {
    let starts = Counter()
    let ends = Counter()
    private let scripts: [[Signal<V, E>.Event]]

    /// Start number `n` (from 0) sends `scripts[min(n, scripts.count - 1)]`.
    init(_ scripts: [[Signal<V, E>.Event]]) {
        self.scripts = scripts
    }

    var producer: SignalProducer<V, E> {
        SignalProducer { [self] observer, lifetime in
            let index = starts.increment() - 1
            lifetime.observeEnded { [ends] in ends.increment() }
            let script = scripts[min(index, scripts.count - 1)]
            for event in script { observer.send(event) }
        }
    }
}
