import Rivulet
import XCTest

/// ReactiveSwift lets an operator's argument be spelled as an implicit member of
/// `SignalProducer` (`.empty`, `.init(value:)`); each line compiles only if an overload typed to
/// `SignalProducer` exists, and each test checks that the chosen overload does what it says.
final class ContextualProducerTests: XCTestCase {
    func testThenAcceptsEmptyAfterAFailableProducer() {
        let events = Events<Int, TestError>()
        SignalProducer<Int, TestError>(value: 1).then(.empty).start(events.observer)
        XCTAssertEqual(events.all, [.completed])
    }

    func testThenAcceptsEmptyAfterANeverFailingProducer() {
        let events = Events<Int, Never>()
        SignalProducer<Int, Never>(value: 1).then(.empty).start(events.observer)
        XCTAssertEqual(events.all, [.completed])
    }

    func testThenAcceptsAnInferredValueProducer() {
        let failable = Events<String, TestError>()
        SignalProducer<Int, TestError>(value: 1).then(.init(value: "next")).start(failable.observer)
        XCTAssertEqual(failable.all, [.value("next"), .completed])

        let neverFailing = Events<String, Never>()
        SignalProducer<Int, Never>(value: 1).then(.init(value: "next")).start(neverFailing.observer)
        XCTAssertEqual(neverFailing.all, [.value("next"), .completed])
    }

    func testThenAcceptsAResultProducer() {
        let events = Events<String, TestError>()
        SignalProducer<Int, Never>.empty
            .then(.init(result: Result<String, TestError>.failure(.first)))
            .start(events.observer)
        XCTAssertEqual(events.all, [.failed(.first)])

        let fromFailable = Events<String, TestError>()
        SignalProducer<Int, TestError>.empty
            .then(.init(result: Result<String, TestError>.success("s")))
            .start(fromFailable.observer)
        XCTAssertEqual(fromFailable.all, [.value("s"), .completed])
    }

    func testFlatMapAcceptsAnInferredValueProducer() {
        let (neverFailing, neverInput) = Signal<Int, Never>.pipe()
        let neverEvents = Events<Int, Never>()
        neverFailing.flatMap(.latest) { _ in .init(value: 0) }.observe(neverEvents.observer)
        neverInput.send(value: 5)
        XCTAssertEqual(neverEvents.values, [0])

        let (failable, failableInput) = Signal<Int, TestError>.pipe()
        let failableEvents = Events<Int, TestError>()
        failable.flatMap(.latest) { _ in .init(value: 0) }.observe(failableEvents.observer)
        failableInput.send(value: 5)
        failableInput.send(error: .second)
        XCTAssertEqual(failableEvents.all, [.value(0), .failed(.second)])
    }

    func testFlatMapAcceptsAResultProducer() {
        let events = Events<Int, TestError>()
        SignalProducer<Int, TestError>(value: 1)
            .flatMap(.latest) { _ in .init(result: Result<Int, TestError>.failure(.first)) }
            .start(events.observer)
        XCTAssertEqual(events.all, [.failed(.first)])
    }

    func testFlatMapErrorAcceptsAnInferredValueProducer() {
        let events = Events<Int, Never>()
        SignalProducer<Int, TestError>(error: .first)
            .flatMapError { _ in .init(value: 0) }
            .start(events.observer)
        XCTAssertEqual(events.all, [.value(0), .completed])
    }
}
