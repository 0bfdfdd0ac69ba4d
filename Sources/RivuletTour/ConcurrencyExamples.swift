import Dispatch
import Foundation
import Rivulet

// The examples of Docs/Concurrency.md. The synchronous ones are registered in main.swift's
// `examples`; the async ones in its `asyncExamples`, which run in order after them, on the main
// actor. Every ```swift block of that document appears here line for line.

/// A warehouse's failure: nothing left of `item`.
struct StockError: Swift.Error, CustomStringConvertible {
    let item: String
    var description: String { "out of \(item)" }
}

/// Stands for any async API: a network client, a database, an actor of your app.
actor Warehouse {
    private var stock = ["apples": 3, "pears": 5, "kiwis": 0]

    func count(of item: String) -> Int {
        stock[item, default: 0]
    }

    func take(_ item: String) throws(StockError) -> Int {
        guard let count = stock[item], count > 0 else { throw StockError(item: item) }
        stock[item] = count - 1
        return count - 1
    }
}

// MARK: The threading model

func concurrencySendingThread() {
    let (signal, input) = Signal<String, Never>.pipe()
    signal.observeValues { print("\($0): observer on the main thread: \(Thread.isMainThread)") }
    input.send(value: "from the main thread")
    let sent = DispatchSemaphore(value: 0)
    DispatchQueue(label: "worker").async {
        input.send(value: "from a worker") // the observer runs here, before send returns
        sent.signal()
    }
    sent.wait()
}

func concurrencySchedulers() {
    let clock = TestScheduler()
    let numbers = SignalProducer<Int, Never> { observer, _ in
        print("start handler runs")
        observer.send(value: 1)
        observer.sendCompleted()
    }
    numbers.start(on: clock).startWithValues { print("start(on:) got \($0)") }
    print("nothing has run yet")
    clock.advance()
    numbers.observe(on: clock).startWithValues { print("observe(on:) got \($0)") }
    print("started, delivery pending")
    clock.advance()
}

@MainActor
func concurrencyBackToTheMainThread() async {
    let worker = QueueScheduler(name: "worker")
    let report = SignalProducer<String, Never> { observer, _ in
        observer.send(value: "computed off the main thread: \(!Thread.isMainThread)")
        observer.sendCompleted()
    }
    let onMain = report
        .start(on: worker)         // the start handler runs on the worker's queue
        .observe(on: UIScheduler()) // the events are delivered on the main queue
        .map { text in MainActor.assumeIsolated { "\(text); here, on the main actor" } } // traps elsewhere
    for await line in onMain.values {
        print(line)
    }
}

// MARK: Values as an async sequence

func concurrencyProducerValues() async {
    let countdown = SignalProducer<Int, Never>(values: [3, 2, 1])
    for await number in countdown.values {
        print(number)
    }
}

func concurrencyFailingValues() async {
    let shipments = SignalProducer<String, StockError> { observer, _ in
        observer.send(value: "box 1")
        observer.send(value: "box 2")
        observer.send(error: StockError(item: "boxes"))
    }
    do {
        for try await shipment in shipments.values {
            print("received \(shipment)")
        }
    } catch {
        print("failed: \(error)") // `error` is a StockError: the producer's own failure type
    }
}

func concurrencySignalValues() async {
    let (signal, input) = Signal<Int, Never>.pipe()
    let values = signal.values
    input.send(value: 0)                    // no iteration has begun: nobody sees it
    var iterator = values.makeAsyncIterator() // observes the signal from here on
    input.send(value: 1)
    input.send(value: 2)
    input.sendCompleted()
    while let value = await iterator.next() {
        print("got \(value)")
    }
}

func concurrencyPropertyValues() async {
    let progress = MutableProperty(0)
    var everyChange = progress.values.makeAsyncIterator() // the current value first, then each change
    var latestOnly = progress.values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
    progress.value = 50
    progress.value = 100 // no task is waiting yet: the values wait, as each policy allows
    for _ in 1...3 { print("every change:", await everyChange.next() ?? -1) }
    print("latest only:", await latestOnly.next() ?? -1) // prints: latest only: 100
}

func concurrencyBufferingPolicies() async {
    let readings = SignalProducer<Int, Never>(values: [1, 2, 3, 4, 5]) // all sent during the start
    let policies: [(String, AsyncValuesBufferingPolicy)] = [
        ("unbounded", .unbounded),
        ("bufferingNewest(2)", .bufferingNewest(2)),
        ("bufferingOldest(2)", .bufferingOldest(2)),
    ]
    for (name, policy) in policies {
        var kept: [Int] = []
        for await reading in readings.values(bufferingPolicy: policy) {
            kept.append(reading)
        }
        print("\(name): \(kept)")
    }
}

// MARK: Producers from async code

func concurrencyProducerFromAsyncFunction() async throws {
    let warehouse = Warehouse()
    let pears = SignalProducer<Int, Never> { await warehouse.count(of: "pears") }
    for await count in pears.values {
        print("pears in stock: \(count)") // prints: pears in stock: 5
    }
    let takePear = SignalProducer<Int, StockError> { () async throws(StockError) in
        try await warehouse.take("pears")
    }
    for try await left in takePear.values {
        print("took a pear, \(left) left") // prints: took a pear, 4 left
    }
}

func concurrencyProducerFromAsyncSequence() async {
    let (stream, continuation) = AsyncStream<String>.makeStream()
    let messages = SignalProducer(stream) // a SignalProducer<String, Never>: an AsyncStream cannot fail
    continuation.yield("hello")
    continuation.yield("world")
    continuation.finish()
    for await message in messages.map({ $0.uppercased() }).values {
        print(message)
    }
}

func concurrencyAsyncStartHandler() async {
    let warehouse = Warehouse()
    let stockTake = SignalProducer<String, Never> { observer, _ in
        for item in ["apples", "pears", "kiwis"] {
            observer.send(value: "\(item): \(await warehouse.count(of: item))")
        }
        observer.sendCompleted() // returning does not end the start: the handler ends it
    }
    for await line in stockTake.values {
        print(line)
    }
}

// MARK: Awaiting one result

func concurrencyAwaitingOneResult() async {
    let scores = SignalProducer<Int, Never>(values: [7, 3, 9])
    func show(_ result: Result<Int, Never>?) -> String { result.map { "\($0)" } ?? "nil" }
    print(show(await scores.awaitFirst()))  // prints: success(7)
    print(show(await scores.awaitLast()))   // prints: success(9)
    print(show(await scores.awaitSingle())) // more than one value; prints: nil
    print(await scores.awaitCompletion())   // prints: success()

    let warehouse = Warehouse()
    let kiwi = SignalProducer<Int, StockError> { () async throws(StockError) in
        try await warehouse.take("kiwis")
    }
    print(await kiwi.awaitCompletion())     // prints: failure(out of kiwis)
}

// MARK: Cancellation

func concurrencyCancellingTheIteration() async {
    let endless = SignalProducer<Int, Never> { observer, lifetime in
        lifetime.observeEnded { print("the start is disposed of") }
        observer.send(value: 1) // and never ends by itself
    }
    let (received, receivedInput) = AsyncStream<Int>.makeStream()
    let listener = Task {
        for await value in endless.values {
            receivedInput.yield(value)
        }
        print("the loop has ended")
    }
    for await value in received {
        print("the listener got \(value)")
        break
    }
    listener.cancel()
    await listener.value
}

func concurrencyDisposingCancelsTheTask() async {
    let (reports, report) = AsyncStream<String>.makeStream()
    let download = SignalProducer<Int, any Error> {
        report.yield("the download begins")
        do {
            try await Task.sleep(for: .seconds(3_600)) // stands for a long download
        } catch {
            report.yield("the download sees \(type(of: error))")
            throw error
        }
        return 42
    }
    var progress = reports.makeAsyncIterator()
    let start = download.start { event in print("event: \(event)") }
    print(await progress.next() ?? "")
    start.dispose()                    // prints: event: INTERRUPTED
    print(await progress.next() ?? "") // prints: the download sees CancellationError
}

// MARK: Schedulers in async code

@MainActor
func concurrencySleepingInVirtualTime() async {
    let clock = TestScheduler()
    let reminder = Task { @MainActor in
        try await clock.sleep(for: .seconds(60))
        print("a minute has passed on the clock")
    }
    await clock.advance(by: .seconds(59)) // nothing yet
    print("59 seconds")
    await clock.advance(by: .seconds(1))  // prints: a minute has passed on the clock
    try? await reminder.value
}
