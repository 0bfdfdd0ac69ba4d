import Testing
import RivuletChannels
import RivuletContracts

/// A6: releasing an output deactivates the part of the graph that only it used, and state from
/// `initialState:` variants resets.
@Suite(.checksLiveObjects) struct A6DeactivationTests {
    /// Subscribes, sends 1, 2, 3, cancels, subscribes again and sends 1: what the two outputs saw.
    private func twoActivations(_ make: (Channel<Int>) -> Channel<Int>) -> ([String], [String]) {
        let (input, source) = Channel<Int>.createMultiInput()
        let channel = make(source)
        let first = ChannelLog<Int>()
        let output = channel.subscribe(first.handler)
        for value in 1...3 { input.send(value: value) }
        output.cancel()
        let second = ChannelLog<Int>()
        let again = channel.subscribe(second.handler)
        input.send(value: 1)
        withExtendedLifetime(again) {}
        return (first.all, second.all)
    }

    @Test("A6 transform(initialState:) resets on deactivation")
    func transformResets() {
        let (first, second) = twoActivations { channel in
            channel.transform(initialState: 0) { (count: inout Int, result: Result<Int, ChannelEnd>) -> ChannelNext<Int> in
                guard case .success = result else { return .none }
                count += 1
                return .value(count)
            }
        }
        #expect(first == ["1", "2", "3"])
        #expect(second == ["1"])
    }

    @Test("A6 map(initialState:) resets on deactivation")
    func mapResets() {
        let (first, second) = twoActivations { channel in
            channel.map(initialState: 100) { (sum: inout Int, value: Int) -> Int in
                sum += value
                return sum
            }
        }
        #expect(first == ["101", "103", "106"])
        #expect(second == ["101"])
    }

    @Test("A6 compactMap(initialState:) resets on deactivation")
    func compactMapResets() {
        let (first, second) = twoActivations { channel in
            channel.compactMap(initialState: 0) { (seen: inout Int, value: Int) -> Int? in
                seen += 1
                return seen == 1 ? nil : value * seen
            }
        }
        #expect(first == ["4", "9"])
        #expect(second == [])
    }

    @Test("A6 combine(initialState:) resets on deactivation")
    func combineResets() {
        let (other, otherChannel) = Channel<String>.createMultiInput()
        let (first, second) = twoActivations { channel in
            channel.combine(otherChannel, initialState: 0) {
                (count: inout Int, either: EitherResult2<Int, String>) -> ChannelNext<Int> in
                if case .result1(.success) = either { count += 1 }
                return .value(count)
            }
        }
        #expect(first == ["1", "2", "3"])
        #expect(second == ["1"])
        withExtendedLifetime(other) {}
    }

    @Test("A6 continuousWhileActive forgets its value when the last output leaves; continuous keeps it")
    func continuousWhileActiveForgets() {
        let (input, source) = Channel<Int>.createMultiInput()
        let whileActive = source.continuousWhileActive()
        let output = whileActive.subscribe { _ in }
        input.send(value: 5)
        let late = ChannelLog<Int>()
        let lateOutput = whileActive.subscribe(late.handler)
        #expect(late.all == ["5"])
        output.cancel()
        lateOutput.cancel()
        let afterwards = ChannelLog<Int>()
        let again = whileActive.subscribe(afterwards.handler)
        #expect(afterwards.all == [])
        withExtendedLifetime(again) {}

        let (keptInput, keptSource) = Channel<Int>.createMultiInput()
        let continuous = keptSource.continuous()
        continuous.subscribe { _ in }.cancel()
        keptInput.send(value: 6)
        let kept = ChannelLog<Int>()
        let keptOutput = continuous.subscribe(kept.handler)
        #expect(kept.all == ["6"])
        withExtendedLifetime(keptOutput) {}
    }

    @Test("A6 releasing an output deactivates what only it used; shared parts stay active")
    func partialDeactivation() {
        let shared = Shared<[String]>([])
        let sharedInput = Shared<ChannelInput<Int>?>(nil)
        let multi = Channel<Int>.generate { input in
            shared.withLock { $0.append(input == nil ? "shared off" : "shared on") }
            sharedInput.set(input)
        }
        .multicast()
        let privateEvents = Shared<[String]>([])
        let privateInput = Shared<ChannelInput<Int>?>(nil)
        let privateSource = Channel<Int>.generate { input in
            privateEvents.withLock { $0.append(input == nil ? "private off" : "private on") }
            privateInput.set(input)
        }
        let a = ChannelLog<Int>()
        let b = ChannelLog<Int>()
        let outputA = multi.merge(privateSource).subscribe(a.handler)
        let outputB = multi.map { $0 * 10 }.subscribe(b.handler)
        #expect(shared.current == ["shared on"])
        #expect(privateEvents.current == ["private on"])
        outputA.cancel()
        #expect(privateEvents.current == ["private on", "private off"])
        #expect(shared.current == ["shared on"])
        sharedInput.current?.send(value: 1)
        #expect(b.all == ["10"])
        #expect(a.all == [])
        outputB.cancel()
        #expect(shared.current == ["shared on", "shared off"])
    }

    @Test("A6 releasing the output (not only cancel) deactivates")
    func releasingDeactivates() {
        let events = Shared<[Bool]>([])
        let kept = Shared<ChannelInput<Int>?>(nil)
        let channel = Channel<Int>.generate { input in
            events.withLock { $0.append(input != nil) }
            kept.set(input)
        }
        do {
            let output = channel.map { $0 }.subscribe { _ in }
            withExtendedLifetime(output) {}
        }
        #expect(events.current == [true, false])
    }

    @Test(
        "A6 releasing the output of a combineLatestWith deactivates both sides",
        .keepsLiveObjects(
            "the generator keeps its inputs and an input holds its channel: a cycle the test makes on purpose (releasing an input would end the channel, A7)"
        ))
    func combineDeactivatesBothSides() {
        let events = Shared<[String]>([])
        let kept = Shared<[ChannelInput<Int>]>([])
        func source(_ name: String) -> Channel<Int> {
            Channel<Int>.generate { input in
                events.withLock { $0.append(input == nil ? "\(name) off" : "\(name) on") }
                if let input { kept.withLock { $0.append(input) } }
            }
        }
        let output = source("a").combineLatestWith(source("b")) { $0 + $1 }.subscribe { _ in }
        #expect(events.current.sorted() == ["a on", "b on"])
        output.cancel()
        #expect(events.current.sorted() == ["a off", "a on", "b off", "b on"])
    }
}
