import Rivulet

struct AgeError: Swift.Error {}

func propertiesReadingWriting() {
    let volume = MutableProperty(3)
    volume.producer.startWithValues { print("volume \($0)") } // the current value first; prints: volume 3
    volume.value = 7                                          // prints: volume 7
    let previous = volume.swap(9)                             // previous is 7; prints: volume 9
    volume.modify { $0 += 1 }                                 // read and written atomically; prints: volume 10
    print("was \(previous), now \(volume.value)")             // prints: was 7, now 10
}

func propertiesReentrantWrite() {
    let level = MutableProperty(0)
    level.signal.observeValues { value in
        print("first observer got \(value)")
        if value == 1 { level.value = 2 } // takes effect now, emitted after the current change
    }
    level.signal.observeValues { value in
        print("second observer got \(value), value is now \(level.value)")
    }
    level.value = 1
}

func propertiesComposing() {
    let firstName = MutableProperty("Ada")
    let lastName = MutableProperty("Lovelace")
    let fullName = firstName.combineLatest(with: lastName).map { "\($0) \($1)" }
    print(fullName.value) // prints: Ada Lovelace
    lastName.value = "Byron"
    print(fullName.value) // prints: Ada Byron
}

func propertiesValidating() {
    let age = ValidatingProperty<Int, AgeError>(0) { proposed in
        switch proposed {
        case ..<0: .invalid(AgeError())
        case 150...: .coerced(150, AgeError())
        default: .valid
        }
    }
    age.value = 200
    print(age.value, age.result.value.isInvalid) // coerced; prints: 150 false
    age.value = -1
    print(age.value, age.result.value.isInvalid) // rejected, value unchanged; prints: 150 true
}

func propertiesBinding() {
    let slider = MutableProperty(0.25)
    let label = MutableProperty("")
    label <~ slider.map { "\(Int($0 * 100)) %" }
    slider.value = 0.5
    print(label.value) // prints: 50 %
}

func propertiesTransaction() {
    let price = MutableProperty(10)
    let net = price.map { $0 * 100 }
    let tax = price.map { $0 * 20 }
    let invoice = net.combineLatest(with: tax)
    invoice.signal.observeValues { net, tax in print("net \(net), tax \(tax)") }

    price.value = 20 // without a transaction: a glitch (the new net with the old tax), then the right pair
    PropertyTransaction.perform {
        price.value = 30
        price.value = 40
    } // once, with the final pair
}

func propertiesAction() {
    let isOnline = MutableProperty(true)
    let send = Action<String, Int, Never>(enabledIf: isOnline) { message in
        SignalProducer(value: message.count) // the work: here, the length of the message
    }
    send.values.observeValues { print("sent \($0) characters") }
    send.apply("hello").start()              // prints: sent 5 characters
    isOnline.value = false
    send.apply("again").startWithFailed { print("refused: \($0)") } // prints: refused: disabled
}
