import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct CombiningStageTests {
    private typealias Stage = CombiningStage<CombineLatestStateMachine<Int>, [Int], TestError>

    /// A stage over two sources whose downstream records into `recorder` and holds `tracked`.
    private func makeSinks(
        _ recorder: EventRecorder<[Int], TestError>,
        holding tracked: Tracked,
        lifetime: Lifetime
    ) -> [EventSink<Int, TestError>] {
        let signal = CombiningSource<Int, TestError>(startsInstance: false) { _, _ in }
        let stage = Stage(
            sources: [signal, signal],
            endOrder: .reverse,
            combine: { element in [element(0), element(1)] },
            downstream: { event in
                withExtendedLifetime(tracked) {}
                recorder.record(event)
            },
            lifetime: lifetime
        )
        return [stage.sink(for: 0), stage.sink(for: 1)]
    }

    @Test func theDownstreamIsReleasedAtTheFirstTerminalEventAndNothingFollows_E1() {
        let (lifetime, token) = Lifetime.make()
        let recorder = EventRecorder<[Int], TestError>()
        let weak = WeakBox<Tracked>(nil)
        let sinks: [EventSink<Int, TestError>] = {
            let tracked = Tracked()
            weak.object = tracked
            return makeSinks(recorder, holding: tracked, lifetime: lifetime)
        }()
        sinks[0](.value(1))
        sinks[1](.value(2))
        #expect(weak.object != nil)
        sinks[1](.failed(TestError(1)))
        #expect(weak.object == nil)
        sinks[0](.value(3))
        sinks[0](.interrupted)
        #expect(recorder.events == [.value([1, 2]), .failed(TestError(1))])
        withExtendedLifetime(token) {}
    }

    @Test func endingTheLifetimeReleasesTheDownstream() {
        let (lifetime, token) = Lifetime.make()
        let recorder = EventRecorder<[Int], TestError>()
        let weak = WeakBox<Tracked>(nil)
        let sinks: [EventSink<Int, TestError>] = {
            let tracked = Tracked()
            weak.object = tracked
            return makeSinks(recorder, holding: tracked, lifetime: lifetime)
        }()
        #expect(weak.object != nil)
        token.dispose()
        #expect(weak.object == nil)
        sinks[0](.value(1))
        sinks[1](.value(2))
        #expect(recorder.events.isEmpty)
    }

    @Test(arguments: [false, true])
    func aSourceThatCompletesStopsItsWorkBeforeTheResultEnds_P4(zip: Bool) {
        let first = TrackedSource<Int>()
        let second = TrackedSource<Int>()
        let recorder = EventRecorder<Pair<Int, Int>, TestError>()
        let combined =
            zip
            ? SignalProducer<Int, TestError>.zip(first.producer, second.producer)
            : SignalProducer<Int, TestError>.combineLatest(first.producer, second.producer)
        let disposable = combined.map(Pair.init).start(recorder.observer)
        first.input?.send(value: 1)
        first.input?.send(value: 2)
        first.input?.sendCompleted()
        // The first source's start is over: its work stops now, not when the result ends.
        #expect(first.endedCount == 1)
        #expect(second.endedCount == 0)
        second.input?.send(value: 10)
        #expect(recorder.events == [.value(Pair(zip ? 1 : 2, 10))])
        disposable.dispose()
        #expect(first.endedCount == 1)
        #expect(second.endedCount == 1)
    }

    @Test func aSourceEndedByAFusedStageStopsItsUpstream_P4() {
        let first = TrackedSource<Int>()
        let second = TrackedSource<Int>()
        let recorder = EventRecorder<Pair<Int, Int>, TestError>()
        let disposable = SignalProducer<Int, TestError>.combineLatest(first.producer.take(first: 1), second.producer)
            .map(Pair.init)
            .start(recorder.observer)
        first.input?.send(value: 1)
        #expect(first.endedCount == 1)
        second.input?.send(value: 10)
        second.input?.sendCompleted()
        #expect(recorder.events == [.value(Pair(1, 10)), .completed])
        withExtendedLifetime(disposable) {}
    }

    @Test(arguments: [false, true])
    func theSequenceOfProducersIsReadOnEachStart_P1_P2(zip: Bool) {
        let reads = Counter()
        let producers = AnySequence { () -> IndexingIterator<[SignalProducer<Int, TestError>]> in
            let read = reads.increment()
            return [SignalProducer(value: read), SignalProducer(value: 0)].makeIterator()
        }
        let combined =
            zip ? SignalProducer<Int, TestError>.zip(producers) : SignalProducer<Int, TestError>.combineLatest(producers)
        #expect(reads.value == 0)
        let first = EventRecorder<[Int], TestError>()
        let second = EventRecorder<[Int], TestError>()
        combined.start(first.observer)
        combined.start(second.observer)
        #expect(reads.value == 2)
        #expect(first.events == [.value([1, 0]), .completed])
        #expect(second.events == [.value([2, 0]), .completed])
    }

    @Test func aSourceKeepsTheKindOfEventWhenErasedOrPromoted() {
        let erased = EventRecorder<Any, TestError>()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let (lifetime, token) = Lifetime.make()
        signal.combiningSource.erased.attach({ erased.record($0) }, lifetime)
        input.send(value: 3)
        input.send(error: TestError(2))
        #expect(erased.events.count == 2)
        #expect(erased.events.first?.value as? Int == 3)
        #expect(erased.events.last?.error == TestError(2))

        let promoted = EventRecorder<Pair<Int, Int>, TestError>()
        let (never, neverInput) = Signal<Int, Never>.pipe()
        never.combiningSource.map({ Pair($0, $0) }, promotingErrorTo: TestError.self)
            .attach({ promoted.record($0) }, lifetime)
        neverInput.send(value: 1)
        neverInput.sendInterrupted()
        #expect(promoted.events == [.value(Pair(1, 1)), .interrupted])
        withExtendedLifetime(token) {}
    }

    @Test func disposingTheLifetimeStopsObservingASignalSource() {
        let recorder = EventRecorder<Int, Never>()
        let (signal, input) = Signal<Int, Never>.pipe()
        let (lifetime, token) = Lifetime.make()
        signal.combiningSource.attach({ recorder.record($0) }, lifetime)
        input.send(value: 1)
        token.dispose()
        input.send(value: 2)
        #expect(recorder.events == [.value(1)])
    }
}
