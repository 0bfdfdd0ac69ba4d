import Testing
import RivuletChannels
import RivuletContracts

@Suite(.checksLiveObjects) struct SmokeTests {
    @Test func capture() throws {
        let (input, multi) = Channel<Int>.create { $0.continuous() }
        input.send(value: 1)
        input.send(value: 2)
        let capture = multi.capture()
        #expect(capture.values == [2])
        #expect(try capture.get() == 2)
        input.send(value: 3)
        input.send(value: 4)
        let log = ChannelLog<Int>()
        let output = capture.subscribe(log.handler)
        input.send(value: 5)
        #expect(log.all == ["3", "4", "5"])
        withExtendedLifetime(output) {}
    }

    @Test func captureResendLast() {
        let (input, multi) = Channel<Int>.create { $0.playback() }
        input.send(value: 1)
        input.send(value: 2)
        let capture = multi.capture()
        #expect(capture.values == [1, 2])
        input.send(value: 3)
        let log = ChannelLog<Int>()
        let output = capture.resume(resend: .last).subscribe(log.handler)
        #expect(log.all == ["2", "3"])
        withExtendedLifetime(output) {}
    }

    @Test func junction() throws {
        let (sourceInput, source) = Channel<Int>.create()
        let (targetInput, target) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = target.subscribe(log.handler)
        targetInput.send(value: 1)
        let junction = source.junction()
        try junction.bind(to: targetInput)
        #expect(targetInput.send(value: 99) == .disconnected)
        sourceInput.send(value: 2)
        let fresh = junction.disconnect()
        #expect(sourceInput.send(value: 3) == .disconnected)
        fresh?.send(value: 4)
        #expect(log.all == ["1", "2", "4"])
        #expect(throws: ChannelBindError<Int>.self) { try junction.bind(to: targetInput) }
        withExtendedLifetime(output) {}
    }

    @Test func multiInput() {
        let (input, channel) = Channel<Int>.createMultiInput()
        let (aInput, a) = Channel<Int>.create()
        input.add(a)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        input.send(value: 1)
        aInput.send(value: 2)
        aInput.complete()
        input.send(value: 3)
        input.cancel()
        #expect(log.all == ["1", "2", "3", "cancelled"])
        withExtendedLifetime(output) {}
    }

    @Test func merge() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = Channel<Int>.merge(ca, cb).subscribe(log.handler) // swiftlang/swift#80146
        a.send(value: 1)
        b.send(value: 2)
        a.complete()
        b.send(value: 3)
        b.complete()
        #expect(log.all == ["1", "2", "3", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test func combineLatest() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<String>.create()
        let log = ChannelLog<String>()
        let output = ca.combineLatestWith(cb) { "\($0)\($1)" }.subscribe(log.handler)
        a.send(value: 1)
        b.send(value: "x")
        a.send(value: 2)
        b.complete()
        #expect(log.all == ["1x", "2x", "complete"])
        withExtendedLifetime(output) {}
    }

    @Test func producerBridge() {
        let log = ChannelLog<Int>()
        let output = Channel(SignalProducer<Int, Never>([1, 2, 3])).subscribe(log.handler)
        #expect(log.all == ["1", "2", "3", "complete"])
        let (input, multi) = Channel<Int>.create { $0.continuous(initialValue: 7) }
        let seen = Shared<[Int]>([])
        let disposable = multi.producer.startWithResult { if case let .success(v) = $0 { seen.withLock { $0.append(v) } } }
        input.send(value: 8)
        #expect(seen.current == [7, 8])
        let property = multi.property
        #expect(property?.value == 8)
        input.send(value: 9)
        #expect(property?.value == 9)
        disposable.dispose()
        withExtendedLifetime(output) {}
    }

    @Test func releasingTheOutputDeactivates() {
        let events = Shared<[String]>([])
        let kept = Shared<ChannelInput<Int>?>(nil)
        let channel = Channel<Int>.generate { input in
            events.withLock { $0.append(input == nil ? "nil" : "input") }
            kept.set(input)
        }
        .map { $0 }
        var output: ChannelOutput<Int>? = channel.subscribe { _ in }
        #expect(events.current == ["input"])
        output = nil
        #expect(events.current == ["input", "nil"])
        output = channel.subscribe { _ in }
        #expect(events.current == ["input", "nil", "input"])
        kept.current?.send(value: 1)
        withExtendedLifetime(output) {}
    }
}

@Suite(.checksLiveObjects) struct FlatteningEndsTests {
    @Test("E4 an inner channel cancelled inside switchLatest only drops out")
    func innerCancellationDropsOut() {
        let (outer, channels) = Channel<Channel<Int>>.create()
        let log = ChannelLog<Int>()
        let output = channels.switchLatest().subscribe(log.handler)
        let (first, firstChannel) = Channel<Int>.create()
        outer.send(value: firstChannel)
        first.send(value: 1)
        first.cancel()
        let (second, secondChannel) = Channel<Int>.create()
        outer.send(value: secondChannel)
        second.send(value: 2)
        second.send(error: ChannelTestError(5))
        #expect(log.all == ["1", "2", "other(E5)"])
        withExtendedLifetime(output) {}
    }
}
