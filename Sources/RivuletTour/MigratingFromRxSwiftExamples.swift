import Rivulet

// The samples of Docs/MigratingFromRxSwift.md.

func rxPublishSubject() {
    let (taps, tapInput) = Signal<String, Never>.pipe()
    taps.observe { event in
        switch event {
        case let .value(button): print("onNext \(button)")
        case .completed: print("onCompleted")
        case .failed, .interrupted: print("ended early: \(event)")
        }
    }
    tapInput.send(value: "play")
    tapInput.sendCompleted()
}

func rxBehaviorRelay() {
    let username = MutableProperty("guest")
    username.producer.startWithValues { print("hello, \($0)") } // the current value first, like a BehaviorRelay
    username.value = "ada"                                        // accept(_:)
    print("value is \(username.value)")                           // prints: value is ada
}

func rxReplay() {
    let (log, logInput) = Signal<String, Never>.pipe()
    let recent = SignalProducer(log).replayLazily(upTo: 2) // share(replay: 2)
    let firstReader = recent.startWithValues { print("first reader: \($0)") }
    for line in ["boot", "login", "sync"] {
        logInput.send(value: line)
    }
    recent.startWithValues { print("late reader: \($0)") } // the last two, then what comes next
    logInput.send(value: "logout")
    firstReader.dispose()
}

final class Ticker {
    // Like a DisposeBag: what is added here is disposed of when the ticker goes away.
    let disposables = ScopedDisposable(CompositeDisposable())

    init(ticks: Signal<Int, Never>) {
        disposables += ticks.observeValues { print("ticker got \($0)") }
    }
}

func rxDisposeBag() {
    let (ticks, tickInput) = Signal<Int, Never>.pipe()
    var ticker: Ticker? = Ticker(ticks: ticks)
    tickInput.send(value: 1)
    print("ticker alive: \(ticker != nil)") // prints: ticker alive: true
    ticker = nil // the bag goes with its owner
    tickInput.send(value: 2)
    print("ticker alive: \(ticker != nil)") // prints: ticker alive: false
}

enum FetchError: Swift.Error {
    case notFound
}

func rxTraits() {
    // Single: one value or a failure.
    let user = SignalProducer<String, FetchError>(value: "ada")
    if case let .success(name)? = user.single() { print("Single: \(name)") }

    // Completable: no values, only completion or failure.
    let save = SignalProducer<Never, FetchError>.empty
    save.startWithCompleted { print("Completable: saved") }

    // Maybe: at most one value, then completion.
    let cached = SignalProducer<String, FetchError>(values: ["cached page"]).take(first: 1)
    cached.startWithResult { print("Maybe: \($0)") }
}

enum RequestError: Swift.Error {
    case timedOut
}

func rxSchedulers() {
    let clock = TestScheduler() // RxTest's TestScheduler, with dates and intervals
    let reply = SignalProducer<String, RequestError>.never
        .timeout(after: 5, raising: .timedOut, on: clock)
    reply.startWithFailed { print("request failed: \($0)") }
    clock.advance(by: .seconds(4)) // nothing yet
    clock.advance(by: .seconds(1)) // prints: request failed: timedOut
}

func rxOperators() {
    let (button, buttonInput) = Signal<Void, Never>.pipe()
    let (field, fieldInput) = Signal<String, Never>.pipe()
    button
        .withLatest(from: field)          // withLatestFrom(_:)
        .map { _, text in text }
        .flatMap(.concat) { text in        // concatMap
            SignalProducer<String, Never>(values: ["sending \(text)", "sent \(text)"])
        }
        .observeValues { print($0) }
    fieldInput.send(value: "hi")
    buttonInput.send(value: ())
    fieldInput.send(value: "bye")
    buttonInput.send(value: ())
}

func rxReentrantWrite() {
    let counter = MutableProperty(0)
    counter.signal.observeValues { value in
        print("counter is \(value)")
        if value < 3 { counter.value = value + 1 } // no "Reentrancy anomaly": queued, in order
    }
    counter.value = 1
}
