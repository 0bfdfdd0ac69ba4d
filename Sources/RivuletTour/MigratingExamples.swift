import Rivulet

func migratingReentrantSend() {
    let (signal, input) = Signal<Int, Never>.pipe()
    var seen: [Int] = []
    signal.observeValues { value in
        seen.append(value)
        if value == 1 { input.send(value: 2) } // deadlocks in ReactiveSwift; queued in Rivulet
        if value == 2 { print(seen) } // prints: [1, 2]
    }
    input.send(value: 1)
}
