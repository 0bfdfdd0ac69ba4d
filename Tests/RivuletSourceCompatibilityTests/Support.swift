import Rivulet

/// An error for tests of streams that can fail.
enum TestError: Error, Equatable {
    case first
    case second
}

/// Records the events a stream delivers, in order.
final class Events<Value, Error: Swift.Error> {
    private(set) var all: [Signal<Value, Error>.Event] = []

    var observer: Signal<Value, Error>.Observer {
        Signal<Value, Error>.Observer { event in self.all.append(event) }
    }

    var values: [Value] {
        all.compactMap(\.value)
    }

    var terminated: Bool {
        all.last?.isTerminating ?? false
    }
}

/// Counts calls; a class, so that the closures that count and the test that reads share it.
final class Counter {
    private(set) var value = 0

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        value += 1
        return value
    }
}
