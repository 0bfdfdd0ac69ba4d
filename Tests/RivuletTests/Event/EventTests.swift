import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct EventTests {
    typealias Event = Signal<Int, TestError>.Event

    @Test func terminatingEventsAreTheThreeTerminals() {
        #expect(Event.value(1).isTerminating == false)
        #expect(Event.failed(TestError()).isTerminating)
        #expect(Event.completed.isTerminating)
        #expect(Event.interrupted.isTerminating)
        #expect(Event.completed.isCompleted)
        #expect(Event.interrupted.isCompleted == false)
    }

    @Test func valueAndErrorAccessors() {
        #expect(Event.value(3).value == 3)
        #expect(Event.completed.value == nil)
        #expect(Event.failed(TestError(7)).error == TestError(7))
        #expect(Event.value(3).error == nil)
    }

    @Test func mapTransformsOnlyValues() {
        #expect(Event.value(3).map { "\($0)!" } == .value("3!"))
        #expect(Event.failed(TestError(1)).map { "\($0)" } == .failed(TestError(1)))
        #expect(Event.completed.map { $0 * 2 } == .completed)
        #expect(Event.interrupted.map { $0 * 2 } == .interrupted)
    }

    @Test func mapErrorTransformsOnlyFailures() {
        struct Wrapped: Swift.Error, Equatable { let inner: TestError }
        #expect(Event.failed(TestError(2)).mapError(Wrapped.init) == .failed(Wrapped(inner: TestError(2))))
        #expect(Event.value(1).mapError(Wrapped.init) == .value(1))
        #expect(Event.completed.mapError(Wrapped.init) == .completed)
    }

    @Test func descriptionNamesTheEvent() {
        #expect(Event.value(5).description == "VALUE 5")
        #expect(Event.completed.description == "COMPLETED")
        #expect(Event.interrupted.description == "INTERRUPTED")
    }
}
