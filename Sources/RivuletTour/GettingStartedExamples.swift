import Rivulet

// The samples of Docs/GettingStarted.md, in the order the guide shows them.

func gettingStartedFirstSignal() {
    let (clicks, clickInput) = Signal<String, Never>.pipe()

    let observation = clicks.observe { event in
        print("event: \(event)")
    }
    clickInput.send(value: "OK")
    clickInput.send(value: "Cancel")
    clickInput.sendCompleted()
    clickInput.send(value: "Help") // ignored: the signal has completed
    observation?.dispose()
}

func gettingStartedHotSignal() {
    let (news, newsInput) = Signal<String, Never>.pipe()
    newsInput.send(value: "too early") // nobody observes yet: this value is gone
    news.observeValues { print("reader 1 got \($0)") }
    newsInput.send(value: "headline")
    news.observeValues { print("reader 2 got \($0)") }
    newsInput.send(value: "update")
}

func gettingStartedColdProducer() {
    let dice = SignalProducer<Int, Never> { observer, _ in
        print("rolling the dice")
        observer.send(value: 4)
        observer.sendCompleted()
    }
    print("nothing has rolled yet")
    dice.startWithValues { print("first start got \($0)") }
    dice.startWithValues { print("second start got \($0)") }
}

func gettingStartedProperty() {
    let itemCount = MutableProperty(0)
    let badge = itemCount.map { $0 == 0 ? "empty" : "\($0) items" }
    print(badge.value) // prints: empty

    badge.producer.startWithValues { print("badge shows \($0)") } // the current value, then changes
    itemCount.value = 3
    itemCount.value += 1
}
