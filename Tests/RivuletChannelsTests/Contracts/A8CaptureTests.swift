import Testing
import RivuletChannels
import RivuletContracts

/// A8: `capture` pulls activation values synchronously and holds later values until the capture
/// is subscribed or resumed, then delivers them in order.
@Suite(.checksLiveObjects) struct A8CaptureTests {
    @Test("A8 capture pulls activation values synchronously and holds later ones until subscribed")
    func holdsUntilSubscribed() throws {
        let (input, multi) = Channel<Int>.create { $0.playback() }
        input.send(value: 1)
        input.send(value: 2)
        let capture = multi.capture()
        #expect(capture.values == [1, 2])
        #expect(capture.end == nil)
        #expect(capture.peek() == 2)
        #expect(try capture.get() == 2)
        input.send(value: 3)
        input.send(value: 4)
        let log = ChannelLog<Int>()
        let output = capture.subscribe(log.handler)
        #expect(log.all == ["3", "4"])
        input.send(value: 5)
        input.complete()
        #expect(log.all == ["3", "4", "5", "complete"])
        withExtendedLifetime(output) {}
    }

    static let selections: [(ChannelActivationSelection, [String])] = [
        (.none, ["3", "4", "complete"]),
        (.all, ["1", "2", "3", "4", "complete"]),
        (.deferred, ["1", "2", "3", "4", "complete"]),
        (.first, ["1", "2", "3", "4", "complete"]),
        (.last, ["2", "3", "4", "complete"]),
    ]

    @Test("A8 resume(resend:) repeats what the selection says, then the held values in order", arguments: 0..<5)
    func resendSelections(index: Int) {
        let (selection, expected) = Self.selections[index]
        let (input, multi) = Channel<Int>.create { $0.playback() }
        input.send(value: 1)
        input.send(value: 2)
        let capture = multi.capture()
        input.send(value: 3)
        input.send(value: 4)
        input.complete()
        let log = ChannelLog<Int>()
        let output = capture.resume(resend: selection).subscribe(log.handler)
        #expect(log.all == expected, "\(selection)")
        withExtendedLifetime(output) {}
    }

    @Test("A8 resume() with no argument repeats nothing")
    func resumeDefault() {
        let (input, multi) = Channel<Int>.create { $0.continuous(initialValue: 0) }
        let capture = multi.capture()
        input.send(value: 1)
        let log = ChannelLog<Int>()
        let output = capture.resume().subscribe(log.handler)
        #expect(capture.values == [0])
        #expect(log.all == ["1"])
        withExtendedLifetime(output) {}
    }

    @Test("A8 bind(to:resend:) feeds another channel's input, held values first")
    func bindToInput() throws {
        let (input, multi) = Channel<Int>.create { $0.playback() }
        input.send(value: 1)
        let capture = multi.capture()
        input.send(value: 2)
        let (targetInput, target) = Channel<Int>.create()
        try capture.bind(to: targetInput, resend: .all)
        let log = ChannelLog<Int>()
        let output = target.subscribe(log.handler)
        input.send(value: 3)
        #expect(log.all == ["1", "2", "3"])
        #expect(targetInput.send(value: 99) == .disconnected)
        withExtendedLifetime(output) {}
    }

    @Test("A8 bind(to:) to an input that is no longer current throws cancelled")
    func bindToStaleInput() throws {
        let (input, multi) = Channel<Int>.create { $0.continuous() }
        let (targetInput, _) = Channel<Int>.create()
        let (otherInput, other) = Channel<Int>.create { $0.continuous() }
        try other.junction().bind(to: targetInput)
        let capture = multi.capture()
        #expect {
            try capture.bind(to: targetInput)
        } throws: { error in
            guard let error = error as? ChannelBindError<Int>, case .cancelled = error else { return false }
            return true
        }
        withExtendedLifetime((input, otherInput)) {}
    }

    @Test("A8 the capture of an ended channel holds the end; get() throws it")
    func captureOfEnded() {
        let capture = Channel<Int>.preclosed(end: .other(ChannelTestError(1))).capture()
        #expect(capture.values == [])
        if case let .other(error)? = capture.end {
            #expect(error as? ChannelTestError == ChannelTestError(1))
        } else {
            Issue.record("expected an .other end, got \(String(describing: capture.end))")
        }
        #expect(throws: ChannelEnd.self) { try capture.get() }
        let log = ChannelLog<Int>()
        let output = capture.subscribe(log.handler)
        #expect(log.all == ["other(E1)"])
        withExtendedLifetime(output) {}
    }

    @Test("A8 get() on a capture with neither value nor end throws cancelled")
    func getWithNothing() {
        let (input, channel) = Channel<Int>.create()
        let capture = channel.capture()
        #expect {
            try capture.get()
        } throws: { error in
            (error as? ChannelEnd)?.isCancelled == true
        }
        withExtendedLifetime(input) {}
    }

    @Test("A8 a capture is resumed once: a second resumed channel ends with duplicate")
    func secondResume() {
        let (input, multi) = Channel<Int>.create { $0.continuous() }
        let capture = multi.capture()
        let first = ChannelLog<Int>()
        let second = ChannelLog<Int>()
        let o1 = capture.resume().subscribe(first.handler)
        let o2 = capture.resume().subscribe(second.handler)
        input.send(value: 1)
        #expect(first.all == ["1"])
        #expect(second.all == ["duplicate"])
        withExtendedLifetime((o1, o2)) {}
    }

    @Test(
        "A8 values sent from other threads while captured are delivered in order once resumed")
    func heldFromOtherThreads() {
        let (input, multi) = Channel<Int>.create { $0.multicast() }
        let capture = multi.capture()
        let finished = withWatchdog(seconds: 300, "sending into a capture") {
            runConcurrently(4) { thread in
                for index in 0..<250 { input.send(value: thread * 1_000 + index) }
            }
        }
        #expect(finished)
        let log = ChannelLog<Int>()
        let output = capture.subscribeValues { log.appendText("\($0)") }
        let values = log.all.compactMap { Int($0) }
        #expect(values.count == 1_000)
        for thread in 0..<4 {
            #expect(values.filter { $0 / 1_000 == thread } == Array(thread * 1_000..<thread * 1_000 + 250))
        }
        withExtendedLifetime(output) {}
    }
}
