import Dispatch
import Foundation
import Rivulet

// The examples of Docs/DesignGuidelines.md, one function per contract clause (or small group).
// Every ```swift block of that document appears here line for line.

struct LoadError: Swift.Error, CustomStringConvertible {
    var description: String { "LoadError" }
}

/// Prints when it is deinitialized: shows when an observer (or an operator) lets go of it.
final class ReleaseReporter: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
    deinit { print("\(name) released") }
}

// MARK: Event contract

func guidelinesE1() {
    let (signal, input) = Signal<Int, Never>.pipe()
    signal.observe { event in print("received \(event)") }
    input.send(value: 1)
    input.sendCompleted()
    input.send(value: 2)   // ignored: the stream has ended
    input.sendCompleted()  // ignored too: there is only one terminal event
}

func guidelinesE2() {
    let clock = TestScheduler()
    let (signal, input) = Signal<Int, LoadError>.pipe()
    signal.delay(10, on: clock).observe { event in print("received \(event)") }
    input.send(value: 1)            // held back for ten seconds of the clock
    input.send(error: LoadError())  // delivered now, without moving the clock
    clock.advance(by: .seconds(10)) // nothing: the held value went with the failure
}

func guidelinesE3() {
    let (signal, input) = Signal<Int, LoadError>.pipe()
    signal.collect().observe { event in print("received \(event)") }
    input.send(value: 1)
    input.send(value: 2)
    input.sendCompleted() // the collected array is sent only because the stream succeeded
}

func guidelinesE4() {
    let clock = TestScheduler()
    let disposable = SignalProducer<Int, Never>(value: 1)
        .delay(5, on: clock)
        .start { event in print("received \(event)") }
    disposable.dispose()           // the delayed value is cancelled; prints: received INTERRUPTED
    clock.advance(by: .seconds(5)) // nothing
}

func guidelinesE4Flatten() {
    let (requests, send) = Signal<SignalProducer<String, Never>, Never>.pipe()
    requests.flatten(.merge).observe { event in print("received \(event)") }
    send.send(value: SignalProducer(value: "first"))
    send.send(value: SignalProducer { observer, _ in observer.sendInterrupted() }) // ignored
    send.send(value: SignalProducer(value: "third"))
    send.sendCompleted()
}

func guidelinesE5() {
    let (signal, input) = Signal<Int, Never>.pipe()
    var total = 0 // the observer's own state, no lock: deliveries never overlap
    signal.observeValues { value in
        total += value
        if total == 8_000 { print("total \(total)") } // prints: total 8000
    }
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
        for _ in 0..<1_000 { input.send(value: 1) }
    }
}

func guidelinesE6() {
    let (signal, input) = Signal<Int, Never>.pipe()
    signal.observeValues { value in
        print("A got \(value)")
        if value == 1 { input.send(value: 2) } // queued until every observer has seen 1
    }
    signal.observeValues { value in print("B got \(value)") }
    input.send(value: 1)
    print("send returned")
}

func guidelinesE7() {
    let (signal, input) = Signal<String, Never>.pipe()
    signal.observeValues { print("observer got \($0)") }
    print("before send")
    input.send(value: "now")
    print("after send") // the observer has already run, on this thread

    let clock = TestScheduler()
    signal.observe(on: clock).observeValues { print("scheduled observer got \($0)") }
    input.send(value: "later") // the first observer runs now; the scheduled one waits
    clock.advance()            // prints: scheduled observer got later
}

// MARK: Signal contract

func guidelinesS1() {
    let signal = Signal<Int, Never> { observer, _ in
        print("the generator runs")
        observer.send(value: 0) // nobody can be observing yet: this value reaches no one
    }
    print("the signal exists")
    signal.observeValues { print("got \($0)") } // prints nothing
}

func guidelinesS2() {
    let (signal, input) = Signal<Int, Never>.pipe(disposable: AnyDisposable { print("resources disposed") })
    let first = signal.observeValues { print("first got \($0)") }
    first?.dispose() // stops this observer only; the signal's work goes on
    signal.observeValues { print("second got \($0)") }
    input.send(value: 1)  // the resources are still in use; prints: second got 1
    input.sendCompleted() // only the end of the stream stops the work; prints: resources disposed
}

func guidelinesS3() {
    let (signal, input) = Signal<Int, Never>.pipe()
    signal.observeValues { print("early observer got \($0)") }
    input.send(value: 1)
    signal.observeValues { print("late observer got \($0)") } // sees only what follows
    input.send(value: 2)
    input.sendCompleted()
    signal.observe { print("after the end: \($0)") } // prints: after the end: INTERRUPTED
}

func guidelinesS4() {
    do {
        let (signal, input) = Signal<Int, Never>.pipe(disposable: AnyDisposable { print("unobserved signal disposed") })
        _ = (signal, input)
    } // neither reachable nor observed: disposed silently, no event sent
    var input: Signal<Int, Never>.Observer?
    do {
        let (signal, pipeInput) = Signal<Int, Never>.pipe()
        signal.observeValues { print("still observed: got \($0)") }
        input = pipeInput
    } // unreachable, but observed: it stays alive
    input?.send(value: 1)
}

func guidelinesS5() {
    let (signal, input) = Signal<Int, Never>.pipe(disposable: AnyDisposable { print("resources disposed") })
    signal.observe { [reporter = ReleaseReporter("observer")] event in
        print("\(reporter.name) got \(event)")
    }
    input.sendCompleted() // observer got COMPLETED; then the observer and the resources go
    print("sendCompleted returned")
}

// MARK: Producer contract

func guidelinesP1() {
    let greeting = SignalProducer<String, Never> { observer, _ in
        print("working")
        observer.send(value: "hello")
        observer.sendCompleted()
    }
    print("the producer exists; nothing has run")
    greeting.startWithValues { print("got \($0)") }
}

func guidelinesP2() {
    let sums = SignalProducer<Int, Never>(values: [1, 2, 3]).scan(0, +)
    sums.startWithValues { print("first start: \($0)") }  // 1, 3, 6
    sums.startWithValues { print("second start: \($0)") } // 1, 3, 6 again: no state is shared
}

extension Signal where Value == Int {
    /// Sends the largest value so far. Written once, for signals (O1).
    func runningMaximum() -> Signal<Int, Error> {
        scan(Int.min) { Swift.max($0, $1) }.skipRepeats() // composed from existing operators (O2)
    }
}

func guidelinesP3() {
    let (signal, input) = Signal<Int, Never>.pipe()
    signal.runningMaximum().observeValues { print("signal: \($0)") }
    for value in [3, 1, 4, 1, 5] { input.send(value: value) }

    let producer = SignalProducer<Int, Never>(values: [3, 1, 4, 1, 5])
    producer.lift { $0.runningMaximum() }.startWithValues { print("producer: \($0)") }
}

func guidelinesP4() {
    let ticker = SignalProducer<Int, Never> { observer, lifetime in
        observer.send(value: 1)
        lifetime.observeEnded { print("the start's lifetime ended") }
    }
    let start = ticker.start { event in print("received \(event)") }
    start.dispose() // received INTERRUPTED, then the lifetime ends
}

// MARK: Property contract

func guidelinesR1() {
    let temperature = MutableProperty(20)
    temperature.value = 21
    print("read back at once: \(temperature.value)") // prints: read back at once: 21
}

func guidelinesR2() {
    let temperature = MutableProperty(20)
    temperature.signal.observeValues { print("emitted \($0)") }
    temperature.value = 22  // before the assignment returns; prints: emitted 22
    print("assignment returned")
}

func guidelinesR3() {
    let temperature = MutableProperty(20)
    temperature.signal.observeValues { _ in
        print("inside the observer, value is \(temperature.value)") // no deadlock
    }
    temperature.value = 23
}

func guidelinesR4() {
    var source: MutableProperty<Int>? = MutableProperty(1)
    let doubled = source!.map { $0 * 2 }
    doubled.producer.startWithCompleted { print("doubled completed") }
    source = nil // the composed property did not keep its source alive
    print("doubled still reads \(doubled.value)") // prints: doubled still reads 2
}

// MARK: Writing operators

extension Signal {
    /// Sends each value together with how many values came before it.
    func numbered() -> Signal<(Int, Value), Error> {
        Signal<(Int, Value), Error> { observer, lifetime in
            var count = 0 // upstream delivery is serial (E5): no lock needed for one source
            lifetime += self.observe { event in
                switch event { // every case spelled out (O4)
                case let .value(value):
                    observer.send(value: (count, value))
                    count += 1
                case let .failed(error):
                    observer.send(error: error) // forwarded at once (O3)
                case .completed:
                    observer.sendCompleted()
                case .interrupted:
                    observer.sendInterrupted() // forwarded at once (O3)
                }
            }
        }
    }
}

func guidelinesO3O4() {
    let (signal, input) = Signal<String, LoadError>.pipe()
    signal.numbered().observe { print("received \($0)") }
    input.send(value: "a")
    input.send(value: "b")
    input.send(error: LoadError())
}

extension Signal where Value: Sendable {
    /// Sends each value again after `interval`: the time shift comes from the scheduler the
    /// caller passes in (O5), never from a queue the operator picks.
    func echoed(after interval: TimeInterval, on scheduler: DateScheduler) -> Signal<Value, Error> {
        Signal.merge([self, self.delay(interval, on: scheduler)])
    }
}

func guidelinesO5() {
    let clock = TestScheduler()
    let (signal, input) = Signal<String, Never>.pipe()
    signal.echoed(after: 1, on: clock).observeValues { print("got \($0)") }
    input.send(value: "hi")           // prints: got hi
    clock.advance(by: .seconds(1))    // prints: got hi
}

func guidelinesO6() {
    let (answers, answer) = Signal<Int, Never>.pipe()
    let (questions, ask) = Signal<String, Never>.pipe()
    // Waiting for an answer would block the sender; keep the latest answer instead.
    questions.withLatest(from: answers).observeValues { print("\($0) -> \($1)") }
    ask.send(value: "too early") // dropped: no answer yet, and nobody waits
    answer.send(value: 42)
    ask.send(value: "meaning")   // prints: meaning -> 42
}

/// The latest values of two sides, behind a lock: the two sources may send at the same time.
final class LatestPair: @unchecked Sendable { // @unchecked: `latest` is only touched under `lock`
    private let lock = NSLock()
    private var latest = (left: 0, right: 0)

    /// Applies `change` under the lock and returns the new sum.
    func update(_ change: (inout (left: Int, right: Int)) -> Void) -> Int {
        lock.withLock {
            change(&latest)
            return latest.left + latest.right
        }
    }
}

extension Signal where Value == Int, Error == Never {
    /// Sends the sum of the latest values of two signals. The state is shared by two sources, so
    /// it needs a lock; the lock is released before the observer is called (O7).
    func summed(with other: Signal<Int, Never>) -> Signal<Int, Never> {
        Signal<Int, Never> { observer, lifetime in
            let latest = LatestPair()
            lifetime += self.observeValues { value in
                let sum = latest.update { $0.left = value }
                observer.send(value: sum) // outside the lock
            }
            lifetime += other.observeValues { value in
                let sum = latest.update { $0.right = value }
                observer.send(value: sum) // outside the lock
            }
        }
    }
}

func guidelinesO7() {
    let (left, leftInput) = Signal<Int, Never>.pipe()
    let (right, rightInput) = Signal<Int, Never>.pipe()
    left.summed(with: right).observeValues { sum in
        print("sum \(sum)")
        // Calls back into the operator through the other source. Had the operator held its lock
        // while calling this observer, this send would deadlock.
        if sum == 1 { rightInput.send(value: 10) }
    }
    leftInput.send(value: 1) // sum 1, then sum 11
}

// MARK: Running them

func runDesignGuidelinesExamples() {
    let examples: [(clause: String, run: () -> Void)] = [
        ("E1", guidelinesE1), ("E2", guidelinesE2), ("E3", guidelinesE3), ("E4", guidelinesE4),
        ("E4 (flattening)", guidelinesE4Flatten), ("E5", guidelinesE5), ("E6", guidelinesE6),
        ("E7", guidelinesE7), ("S1", guidelinesS1), ("S2", guidelinesS2), ("S3", guidelinesS3),
        ("S4", guidelinesS4), ("S5", guidelinesS5), ("P1", guidelinesP1), ("P2", guidelinesP2),
        ("P3, O1, O2", guidelinesP3), ("P4", guidelinesP4), ("R1", guidelinesR1), ("R2", guidelinesR2),
        ("R3", guidelinesR3), ("R4", guidelinesR4), ("O3, O4", guidelinesO3O4), ("O5", guidelinesO5),
        ("O6", guidelinesO6), ("O7", guidelinesO7),
    ]
    for (index, example) in examples.enumerated() {
        if index > 0 { print() }
        print("· \(example.clause)")
        example.run()
    }
}
