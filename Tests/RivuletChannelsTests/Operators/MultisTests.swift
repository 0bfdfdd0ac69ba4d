import Testing
import RivuletChannels
import RivuletContracts

/// What each kind of multi remembers for outputs that join later.
@Suite(.checksLiveObjects) struct MultisTests {
    @Test("A2 continuous forgets its value at the end: a late output gets only the end")
    func continuousForgetsAtEnd() {
        let (input, multi) = Channel<Int>.create { $0.continuous() }
        input.send(value: 1)
        input.send(value: 2)
        let early = ChannelLog<Int>()
        let earlyOutput = multi.subscribe(early.handler)
        input.complete()
        #expect(early.all == ["2", "complete"])
        let late = ChannelLog<Int>()
        let lateOutput = multi.subscribe(late.handler)
        #expect(late.all == ["complete"])
        withExtendedLifetime((earlyOutput, lateOutput)) {}
    }

    @Test("A2 continuous(initialValue:) starts from the initial value until a value arrives")
    func continuousInitialValue() {
        let (input, multi) = Channel<Int>.create { $0.continuous(initialValue: 7) }
        let first = ChannelLog<Int>()
        let o1 = multi.subscribe(first.handler)
        #expect(first.all == ["7"])
        input.send(value: 8)
        let second = ChannelLog<Int>()
        let o2 = multi.subscribe(second.handler)
        #expect(second.all == ["8"])
        withExtendedLifetime((o1, o2)) {}
    }

    @Test("A2 playback keeps every value and the end")
    func playbackKeepsAll() {
        let (input, multi) = Channel<Int>.create { $0.playback() }
        input.send(value: 1)
        input.send(value: 2)
        input.send(error: ChannelTestError(3))
        let late = ChannelLog<Int>()
        let output = multi.subscribe(late.handler)
        #expect(late.all == ["1", "2", "other(E3)"])
        withExtendedLifetime(output) {}
    }

    @Test("A2 multicast gives new outputs only what follows, and the end once there is one")
    func multicastNothingCached() {
        let (input, multi) = Channel<Int>.create { $0.multicast() }
        let first = ChannelLog<Int>()
        let o1 = multi.subscribe(first.handler)
        input.send(value: 1)
        let second = ChannelLog<Int>()
        let o2 = multi.subscribe(second.handler)
        input.send(value: 2)
        input.complete()
        #expect(first.all == ["1", "2", "complete"])
        #expect(second.all == ["2", "complete"])
        let late = ChannelLog<Int>()
        let o3 = multi.subscribe(late.handler)
        #expect(late.all == ["complete"])
        withExtendedLifetime((o1, o2, o3)) {}
    }

    @Test("A2 customActivation serves what its updater left, end included")
    func customActivationServesUpdaterState() {
        let (input, multi) = Channel<Int>.create {
            // Keep the last two even values; keep the end.
            $0.customActivation(initialValues: [0]) { values, end, result in
                switch result {
                case let .success(value) where value % 2 == 0:
                    values.append(value)
                    if values.count > 2 { values.removeFirst() }
                case .success:
                    break
                case let .failure(received):
                    end = received
                }
            }
        }
        let initial = ChannelLog<Int>()
        let o1 = multi.subscribe(initial.handler)
        #expect(initial.all == ["0"])
        for value in 1...6 { input.send(value: value) }
        let middle = ChannelLog<Int>()
        let o2 = multi.subscribe(middle.handler)
        #expect(middle.all == ["4", "6"])
        input.complete()
        let late = ChannelLog<Int>()
        let o3 = multi.subscribe(late.handler)
        #expect(late.all == ["4", "6", "complete"])
        #expect(initial.all == ["0", "1", "2", "3", "4", "5", "6", "complete"])
        withExtendedLifetime((o1, o2, o3)) {}
    }

    @Test("A2 customActivation whose updater drops the end serves only values to late outputs")
    func customActivationDropsEnd() {
        let (input, multi) = Channel<Int>.create {
            $0.customActivation { values, _, result in
                if case let .success(value) = result { values = [value] }
            }
        }
        input.send(value: 1)
        input.complete()
        let late = ChannelLog<Int>()
        let output = multi.subscribe(late.handler)
        #expect(late.all == ["1"])
        withExtendedLifetime(output) {}
    }

    @Test("E1 reduce keeps a running state; a throw ends it with other")
    func reduceState() {
        let (input, multi) = Channel<Int>.create {
            $0.reduce(initialState: 0) { state, value in
                if value < 0 { throw ChannelTestError(value) }
                return state + value
            }
        }
        let log = ChannelLog<Int>()
        let output = multi.subscribe(log.handler)
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: -1)
        input.send(value: 5)
        #expect(log.all == ["0", "1", "3", "other(E-1)"])
        withExtendedLifetime(output) {}
    }

    @Test("A2 preclosed gives every output its values and end")
    func preclosed() {
        let multi = Channel<Int>.preclosed(1, 2, 3)
        for _ in 0..<2 {
            let log = ChannelLog<Int>()
            let output = multi.subscribe(log.handler)
            #expect(log.all == ["1", "2", "3", "complete"])
            #expect(output.isClosed)
        }
        let failed = ChannelLog<Int>()
        let output = Channel<Int>.preclosed(end: .cancelled).subscribe(failed.handler)
        #expect(failed.all == ["cancelled"])
        let custom = ChannelLog<Int>()
        let customOutput = Channel<Int>.preclosed(4, end: .other(ChannelTestError(2))).subscribe(custom.handler)
        #expect(custom.all == ["4", "other(E2)"])
        withExtendedLifetime((output, customOutput)) {}
    }
}
