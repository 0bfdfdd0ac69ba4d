import Dispatch
import RivuletChannels

// Docs/Activation.md, second half: rewiring, several inputs, contexts, who waits, bridges.

func activationJunction() {
    let (input, screen) = Channel<String>.create()
    let output = screen.subscribeValues { print("screen shows \($0)") }
    input.send(value: "idle")

    let (weatherInput, weather) = Channel<String>.create { $0.continuous() }
    weatherInput.send(value: "sunny")
    let junction = weather.junction()
    do {
        try junction.bind(to: input) // the junction takes the input's place
    } catch {
        print("bind failed: \(error)")
    }
    weatherInput.send(value: "rain")
    print("old input:", input.send(value: "ignored").map { "\($0)" } ?? "delivered")

    let fresh = junction.disconnect() // the weather stops feeding the screen
    weatherInput.send(value: "snow")
    fresh?.send(value: "idle again")
    output.cancel()
}

func activationMultiInput() {
    let (input, log) = Channel<String>.createMultiInput()
    let output = log.subscribeValues { print("log: \($0)") }

    let (networkInput, network) = Channel<String>.create()
    input.add(network)
    input.send(value: "app started")
    networkInput.send(value: "online")
    networkInput.complete() // only detaches this source
    input.send(value: "still logging")
    output.cancel()

    let (merged, downloads) = Channel<Int>.createMergedInput(onLastInputClosed: .complete)
    let progress = downloads.subscribe { result in
        switch result {
        case let .success(percent): print("progress: \(percent) %")
        case let .failure(end): print("downloads ended: \(end)")
        }
    }
    let (first, firstChannel) = Channel<Int>.create()
    let (second, secondChannel) = Channel<Int>.create()
    merged.add(firstChannel, closePropagation: .errors)
    merged.add(secondChannel, closePropagation: .errors)
    first.send(value: 50)
    first.complete() // one source left
    second.send(value: 100)
    second.complete() // the last one: the channel completes
    progress.cancel()
}

func activationContexts() {
    let worker = TestScheduler() // stands in for a background queue; Exec works on any scheduler
    let (input, numbers) = Channel<Int>.create { $0.continuous(initialValue: 2) }
    let output = numbers.map(context: Exec(worker)) { $0 * $0 }
        .subscribeValues { print("squared: \($0)") } // the activation value is processed now
    input.send(value: 3)
    print("sent 3") // the map waits for the worker
    worker.run()
    output.cancel()
}

func activationWhoWaits() {
    let (input, channel) = Channel<String>.create()
    let output = channel.subscribeValues { value in
        print("handling \(value)")
        guard value == "first" else { return }
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let outcome = input.send(value: "second") // queued for the handling thread
            print("the other thread's send returned \(outcome.map { "\($0)" } ?? "nil: queued")")
            sent.signal()
        }
        sent.wait() // a core Signal's sender would wait for this handler: a deadlock
        print("done with first")
    }
    input.send(value: "first")
    output.cancel()
}

func activationProducerBridge() {
    let (input, channel) = Channel<Int>.create()
    let start = channel.producer.start { event in print("producer: \(event)") }
    input.send(value: 1)
    input.send(end: .cancelled) // any end but .complete arrives as a failure
    start.dispose()

    let numbers = SignalProducer<Int, Never>(values: [10, 20]).channel()
    let output = numbers.subscribe { result in
        switch result {
        case let .success(number): print("channel: \(number)")
        case let .failure(end): print("channel ended: \(end)")
        }
    }
    output.cancel()
}

func activationPropertyBridge() {
    let (input, level) = Channel<Int>.create { $0.continuous(initialValue: 1) }
    if let property = level.property {
        print("level \(property.value)")
        input.send(value: 2)
        print("level \(property.value)")
    }
    let silent = Channel<Int>.generate { _ in }.multicast() // no activation value to start from
    print("a multicast has a property: \(silent.property != nil)")
}
