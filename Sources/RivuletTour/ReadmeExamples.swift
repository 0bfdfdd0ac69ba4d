import Rivulet

func readmeFirstExample() {
    let (temperatures, input) = Signal<Double, Never>.pipe()

    let disposable = temperatures.observeValues { celsius in
        print("now \(celsius) °C")
    }
    input.send(value: 21.5)
    input.send(value: 22.0)
    disposable?.dispose()
    input.send(value: 30.0) // nobody is listening any more
    input.sendCompleted()
}

func readmeReentrantSend() {
    let (counter, counterInput) = Signal<Int, Never>.pipe()
    counter.observeValues { value in
        print("got \(value)")
        if value < 3 { counterInput.send(value: value + 1) } // queued, delivered next
    }
    counterInput.send(value: 1)
}

func readmeVirtualTime() {
    let scheduler = TestScheduler()
    scheduler.schedule(after: .seconds(5)) { print("five seconds later") }
    scheduler.advance(by: .seconds(4)) // nothing yet
    scheduler.advance(by: .seconds(1)) // prints: five seconds later
}

func readmeProducers() {
    let words = SignalProducer<String, Never>(values: ["hot", "cold", "warm"])
    let loud = words.filter { $0.count > 3 }.map { $0.uppercased() }
    loud.startWithValues { print($0) }
    loud.startWithValues { print("again: \($0)") } // a second, independent start
}

func readmeCombiningInVirtualTime() {
    let clock = TestScheduler()
    let (query, typed) = Signal<String, Never>.pipe()
    let (online, connectivity) = Signal<Bool, Never>.pipe()

    query.debounce(0.3, on: clock)
        .combineLatest(with: online)
        .filter { _, isOnline in isOnline }
        .observeValues { text, _ in print("search for \(text)") }

    connectivity.send(value: true)
    typed.send(value: "riv")
    typed.send(value: "rivulet")    // replaces "riv" before the pause ends
    clock.advance(by: .milliseconds(300)) // prints: search for rivulet
}

func readmeProperties() {
    let celsius = MutableProperty(20.0)
    let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
    let display = MutableProperty("")
    display <~ fahrenheit.map { "\($0) °F" }
    celsius.value = 25
    print(display.value) // prints: 77.0 °F
}
