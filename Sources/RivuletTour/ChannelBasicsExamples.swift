import RivuletChannels

// Docs/Activation.md, first half: the seed article's examples written with Rivulet's channels.

func activationBasicChannel() {
    let (input, channel) = Channel<Int>.create()
    let output = channel.subscribeValues { print($0) }
    input.send(value: 1)
    input.send(value: 2)
    input.send(value: 3)
    output.cancel() // done listening: the channel deactivates
}

func activationInactiveSend() {
    let (input, channel) = Channel<Int>.create()
    print("send 1:", input.send(value: 1).map { "\($0)" } ?? "delivered") // nothing listens yet
    print("send 2:", input.send(value: 2).map { "\($0)" } ?? "delivered")
    let output = channel.subscribeValues { print("got \($0)") }
    print("send 3:", input.send(value: 3).map { "\($0)" } ?? "delivered")
    output.cancel()
}

func activationContinuous() {
    let (input, hour) = Channel<Int>.create { $0.continuous() }
    input.send(value: 1)
    input.send(value: 2) // the multi keeps only the latest value
    let output = hour.subscribeValues { print("hour \($0)") }
    input.send(value: 3)
    output.cancel()
}

func activationContinuousInitialValue() {
    let (input, volume) = Channel<Int>.create { $0.continuous(initialValue: 5) }
    let speaker = volume.subscribeValues { print("speaker: \($0)") }
    let slider = volume.subscribeValues { print("slider: \($0)") }
    input.send(value: 6)
    speaker.cancel()
    slider.cancel()
}

func activationGenerate() {
    let current = Atomic<ChannelInput<Int>?>(nil) // keeps generate's input: dropping it ends the channel
    let numbers = Channel<Int>.generate { input in
        current.value = input
        guard let input else { return print("deactivated") }
        print("activated")
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
    }
    print("nothing has run yet")
    let first = numbers.subscribeValues { print($0) }
    first.cancel()
    print("input while inactive: \(current.value == nil ? "none" : "kept")")
    let second = numbers.subscribeValues { print("again \($0)") } // a fresh input, a fresh run
    second.cancel()
}

func activationCapture() {
    let (input, channel) = Channel<Int>.create { $0.continuous() }
    input.send(value: 1)
    input.send(value: 2)

    let capture = channel.capture() // pulls the activation value now
    print("activation values: \(capture.values)")

    input.send(value: 3) // held by the capture
    input.send(value: 4)

    let output = capture.subscribeValues { print("later value: \($0)") }
    output.cancel()
}

func activationDuplicate() {
    let (input, channel) = Channel<Int>.create()
    let first = channel.subscribeValues { print("first: \($0)") }
    let second = channel.subscribe { result in
        if case .failure(.other(ChannelBindError<Int>.duplicate)) = result {
            print("second: ended at once with a duplicate error")
        }
    }
    input.send(value: 1)
    print("second is closed: \(second.isClosed)")
    first.cancel()
}

func activationMultiFanOut() {
    let (input, channel) = Channel<String>.create()
    let news = channel.multicast() // no activation values: joiners see what follows
    let phone = news.subscribeValues { print("phone: \($0)") }
    input.send(value: "morning edition")
    let watch = news.subscribeValues { print("watch: \($0)") }
    input.send(value: "evening edition")
    phone.cancel()
    watch.cancel()

    let (recorder, recording) = Channel<String>.create { $0.playback() }
    recorder.send(value: "verse")
    recorder.send(value: "chorus")
    recorder.complete()
    let listener = recording.subscribe { result in // every value, then the end
        switch result {
        case let .success(part): print("listener: \(part)")
        case let .failure(end): print("listener: ended, \(end)")
        }
    }
    listener.cancel()
}
