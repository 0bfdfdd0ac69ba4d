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
    scheduler.advance(by: .seconds(1)) // prints
}
