import Dispatch
import Rivulet
import XCTest

final class UtilityTypeTests: XCTestCase {
    func testAtomicReadsWritesSwapsAndModifies() {
        let atomic = Atomic(1)
        XCTAssertEqual(atomic.value, 1)
        atomic.value = 2
        XCTAssertEqual(atomic.swap(3), 2)
        XCTAssertEqual(
            atomic.modify { value -> String in
                value += 1
                return "changed"
            }, "changed")
        XCTAssertEqual(atomic.withValue { $0 * 10 }, 40)
        XCTAssertEqual(atomic.value, 4)
    }

    func testAtomicModifyIsOneStepUnderContention() {
        let counter = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { counter.modify { $0 += 1 } }
        }
        XCTAssertEqual(counter.value, 8_000)
    }

    func testBagRemovesExactlyTheElementOfAToken() {
        var bag = Bag(["a", "b"])
        let first = bag.insert("c")
        let second = bag.insert("c")
        XCTAssertEqual(Array(bag), ["a", "b", "c", "c"])
        XCTAssertEqual(bag.remove(using: first), "c")
        XCTAssertEqual(Array(bag), ["a", "b", "c"])
        XCTAssertNil(bag.remove(using: first), "a token removes its element once")
        XCTAssertEqual(bag.remove(using: second), "c")
        XCTAssertEqual(Array(bag), ["a", "b"])
        XCTAssertTrue(bag.contains("a"))
    }

    func testBagKeepsTokensValidWhateverIsRemovedFirst() {
        var bag = Bag<Int>()
        let tokens = (0..<50).map { bag.insert($0) }
        for index in stride(from: 0, to: 50, by: 2) { bag.remove(using: tokens[index]) }
        XCTAssertEqual(Array(bag), Array(stride(from: 1, to: 50, by: 2)))
        for index in stride(from: 49, to: 0, by: -2) { XCTAssertEqual(bag.remove(using: tokens[index]), index) }
        XCTAssertTrue(bag.isEmpty)
    }

    func testScopedSerialDisposableReplacesItsInnerDisposable() {
        let scoped = ScopedDisposable(SerialDisposable())
        let first = AnyDisposable()
        let second = AnyDisposable()
        scoped.inner = first
        XCTAssertTrue(scoped.inner === first)
        scoped.inner = second
        XCTAssertTrue(first.isDisposed, "replacing the inner disposable disposes of the old one")
        XCTAssertFalse(second.isDisposed)
        scoped.dispose()
        XCTAssertTrue(second.isDisposed)
    }
}
