import Testing
@testable import Rivulet
import RivuletContracts

/// Inner producers that send synchronously when started: each value goes downstream as it is sent.
@Suite(.checksLiveObjects) struct FlattenSynchronousInnerTests {
    @Test(arguments: allFlattenStrategies)
    func disposingTheResultStopsASynchronousInnerProducer_P4(strategy: FlattenStrategy) {
        let generated = Counter()
        let recorder = EventRecorder<Int, Never>()
        // A long synchronous inner: only disposal (by `take(first:)`) stops it early.
        let long = SignalProducer<Int, Never>(
            (1...100_000).lazy.map { value in
                generated.increment()
                return value
            })
        SignalProducer<Int, Never>(value: 0)
            .flatMap(strategy) { _ in long }
            .take(first: 3)
            .start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
        #expect(generated.value <= 4)
    }

    @Test func aLongChainOfSynchronousConcatInnersDoesNotRecurse() {
        let (outer, input) = Signal<SignalProducer<Int, Never>, Never>.pipe()
        let (first, firstInput) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        outer.flatten(.concat).observe(recorder.observer)
        input.send(value: first.producer)
        // Queued behind `first`, then run one after the other when it completes.
        for value in 0..<10_000 { input.send(value: SignalProducer(value: value)) }
        input.sendCompleted()
        firstInput.sendCompleted()
        #expect(recorder.values == Array(0..<10_000))
        #expect(recorder.events.last == .completed)
    }
}
