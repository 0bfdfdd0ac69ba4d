import Rivulet

// The samples of Docs/FrameworkOverview.md.

enum ParseError: Swift.Error {
    case notANumber(String)
}

func overviewEventGrammar() {
    let (numbers, numbersInput) = Signal<Int, ParseError>.pipe()
    numbers.observe { event in print(event) }

    numbersInput.send(value: 1)
    numbersInput.send(value: 2)
    numbersInput.send(error: .notANumber("three"))
    numbersInput.send(value: 4)    // after a terminal event: ignored
    numbersInput.sendCompleted()   // ignored too: there is at most one terminal event
}

func overviewLateObserver() {
    let (done, doneInput) = Signal<Int, Never>.pipe()
    doneInput.sendCompleted()
    done.observe { event in print("a late observer gets \(event)") } // prints: a late observer gets INTERRUPTED
}

func overviewDisposingAStart() {
    let download = SignalProducer<Int, Never> { observer, lifetime in
        lifetime.observeEnded { print("the start's lifetime ended: cancel the request") }
        observer.send(value: 10) // 10% done, and then nothing more for a while
    }
    let started = download.start { event in print("observer got \(event)") }
    started.dispose()
}

func overviewLifetime() {
    let (ticks, tickInput) = Signal<Int, Never>.pipe()
    let (screenLifetime, screenToken) = Lifetime.make()
    ticks.take(during: screenLifetime).observe { event in print("screen got \(event)") }

    tickInput.send(value: 1)
    screenToken.dispose() // what an owner's deinit does with its token
    tickInput.send(value: 2)
}

func overviewVirtualTime() {
    let clock = TestScheduler()
    SignalProducer(value: "reminder")
        .delay(60, on: clock)
        .startWithValues { print("\($0) after a minute") }

    clock.advance(by: .seconds(59)) // nothing yet
    clock.advance(by: .seconds(1))  // prints: reminder after a minute
}
