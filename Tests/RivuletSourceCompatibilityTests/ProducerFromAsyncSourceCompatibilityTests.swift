import Rivulet
import XCTest

/// Issue 17, item 5, in the Swift 5 language mode: the async initialisers of `SignalProducer` do
/// not take over ReactiveSwift's closure spellings. A closure that does not `await` still picks
/// the synchronous initialiser (its events arrive before `start` returns, E7); one that awaits
/// picks the async one.
final class ProducerFromAsyncSourceCompatibilityTests: XCTestCase {
    func testSynchronousClosuresKeepTheirInitialisers() {
        let action = Events<Int, Never>()
        SignalProducer<Int, Never> { 1 }.start(action.observer)
        XCTAssertEqual(action.all, [.value(1), .completed])

        let throwing = Events<Int, Error>()
        SignalProducer<Int, Error> { () throws -> Int in throw TestError.first }.start(throwing.observer)
        XCTAssertEqual(throwing.all.first?.error as? TestError, .first)

        let handler = Events<Int, TestError>()
        SignalProducer<Int, TestError> { observer, _ in
            observer.send(value: 2)
            observer.sendCompleted()
        }
        .start(handler.observer)
        XCTAssertEqual(handler.all, [.value(2), .completed])
    }

    func testAsyncClosuresPickTheAsyncInitialisers() async {
        let operation = SignalProducer<Int, TestError> { () async throws(TestError) -> Int in
            await Task.yield()
            return 3
        }
        let value = await operation.awaitLast()
        XCTAssertEqual(value, .success(3))

        let handler = SignalProducer<Int, Never> { observer, _ async in
            await Task.yield()
            observer.send(value: 4)
            observer.sendCompleted()
        }
        let handled = await handler.awaitLast()
        XCTAssertEqual(handled, .success(4))
    }

    func testAnAsyncStreamMakesAProducer() async {
        let stream = AsyncStream<Int> { continuation in
            continuation.yield(5)
            continuation.finish()
        }
        let last = await SignalProducer(stream).awaitLast()
        XCTAssertEqual(last, .success(5))
    }
}
