import Testing
@testable import Rivulet

@Suite struct CombiningStageTests {
    private typealias Stage = CombiningStage<CombineLatestStateMachine<Int>, [Int], TestError>

    /// A stage over two sources whose downstream records into `recorder` and holds `tracked`.
    private func makeSinks(
        _ recorder: EventRecorder<[Int], TestError>,
        holding tracked: Tracked,
        lifetime: Lifetime
    ) -> [EventSink<Int, TestError>] {
        let stage = Stage(
            sourceCount: 2,
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

    @Test func erasingValueKeepsTheKindOfEvent() {
        #expect(Signal<Int, TestError>.Event.value(3).erasingValue.value as? Int == 3)
        #expect(Signal<Int, TestError>.Event.failed(TestError(2)).erasingValue.error == TestError(2))
        #expect(Signal<Int, TestError>.Event.completed.erasingValue.isCompleted)
        if case .interrupted = Signal<Int, TestError>.Event.interrupted.erasingValue {} else {
            Issue.record("interrupted was not kept")
        }
    }
}
