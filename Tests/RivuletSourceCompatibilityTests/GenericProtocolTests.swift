import Rivulet
import XCTest

// App code written against ReactiveSwift extends every signal or producer of a kind through these
// protocols; the extensions below compile only if the protocols and their members exist.
extension SignalProtocol where Value == Int {
    func doubled() -> Signal<Int, Error> {
        signal.map { $0 * 2 }
    }
}

extension SignalProducerProtocol where Value == Int {
    func doubled() -> SignalProducer<Int, Error> {
        producer.map { $0 * 2 }
    }
}

extension SignalProducerProtocol where Value: EventProtocol, Error == Never {
    func unwrappedEvents() -> SignalProducer<Value.Value, Value.Error> {
        producer.dematerialize()
    }
}

final class GenericProtocolTests: XCTestCase {
    func testSignalProtocolExtensionsApplyToEverySignalOfTheirValue() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let events = Events<Int, TestError>()
        signal.doubled().observe(events.observer)
        input.send(value: 2)
        input.send(error: .first)
        XCTAssertEqual(events.all, [.value(4), .failed(.first)])
        XCTAssertTrue(signal.signal === signal)
    }

    func testSignalProducerProtocolExtensionsApplyToEveryProducerOfTheirValue() {
        let events = Events<Int, Never>()
        SignalProducer(values: 1, 2).doubled().start(events.observer)
        XCTAssertEqual(events.all, [.value(2), .value(4), .completed])
    }

    func testDematerializeWorksThroughEventProtocol() {
        let carried: [Signal<String, TestError>.Event] = [.value("a"), .failed(.second), .value("ignored")]
        let events = Events<String, TestError>()
        SignalProducer(carried).unwrappedEvents().start(events.observer)
        XCTAssertEqual(events.all, [.value("a"), .failed(.second)])
        XCTAssertEqual(Signal<Int, Never>.Event.value(3).event, .value(3))
    }

    func testSignalObserverIsAnObserverOfItsTypes() {
        let events = Events<Int, TestError>()
        let (signal, input) = Signal<Int, TestError>.pipe()
        signal.observe(events.observer)
        let observer: Observer<Int, TestError> = input
        observer.receive(1)
        observer.terminate(.failed(.second))
        observer.receive(2)
        XCTAssertEqual(events.all, [.value(1), .failed(.second)])
    }

    func testTerminationStandsForEachTerminalEvent() {
        for (termination, expected) in [
            (Termination<TestError>.completed, Signal<Int, TestError>.Event.completed),
            (.interrupted, .interrupted),
            (.failed(.first), .failed(.first)),
        ] {
            let events = Events<Int, TestError>()
            events.observer.terminate(termination)
            XCTAssertEqual(events.all, [expected])
        }
    }
}
