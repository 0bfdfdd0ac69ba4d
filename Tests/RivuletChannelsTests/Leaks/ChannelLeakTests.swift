import Testing
import RivuletChannels
import RivuletContracts

/// After deactivation or the end, every closure a graph held (handlers, processors, generate
/// closures) and everything they captured is released (weak-reference checks).
@Suite(.checksLiveObjects) struct ChannelLeakTests {
    @Test("Leaks: handler and processors are released when the output is cancelled")
    func releasedOnCancel() {
        let (input, channel) = Channel<Int>.createMultiInput()
        var watches: [WeakBox<Tracked>] = []
        var output: ChannelOutput<Int>? = {
            let h = Tracked(1)
            let m = Tracked(2)
            let s = Tracked(3)
            watches = [WeakBox(h), WeakBox(m), WeakBox(s)]
            return channel.map { value -> Int in
                _ = m
                return value
            }
            .transform(initialState: s) { (state: inout Tracked, result: Result<Int, ChannelEnd>) -> ChannelNext<Int> in
                _ = state
                return .single(result)
            }
            .subscribe { _ in _ = h }
        }()
        input.send(value: 1)
        #expect(watches.allSatisfy { !$0.isReleased })
        output?.cancel()
        output = nil
        // Only the output held the processor nodes; the source channel and its input live on.
        for watch in watches { #expect(watch.isReleased) }
        withExtendedLifetime(input) {}
    }

    @Test("Leaks: an output and a processor with an execution context are released after cancel")
    func releasedWithContexts() {
        let scheduler = TestScheduler()
        let (input, channel) = Channel<Int>.create()
        var watches: [WeakBox<Tracked>] = []
        var output: ChannelOutput<Int>? = {
            let h = Tracked(1)
            let m = Tracked(2)
            watches = [WeakBox(h), WeakBox(m)]
            return channel.map(context: Exec(scheduler)) { value -> Int in
                _ = m
                return value
            }
            .subscribe(context: Exec(scheduler)) { _ in _ = h }
        }()
        input.send(value: 1)
        scheduler.advance()
        #expect(watches.allSatisfy { !$0.isReleased })
        output?.cancel()
        output = nil
        scheduler.advance()
        // Each context's hop held its link, which held the hop: stopping the hop breaks that.
        for watch in watches { #expect(watch.isReleased) }
        withExtendedLifetime(input) {}
    }

    @Test("Leaks: a graph deactivated and then dropped is released with the links kept for reuse")
    func releasedAfterReuse() {
        let nodeWatch: WeakBox<Channel<Int>>
        let closureWatch: WeakBox<Tracked>
        do {
            let captured = Tracked(1)
            closureWatch = WeakBox(captured)
            let (input, channel) = Channel<Int>.createMultiInput()
            let mapped = channel.map { value -> Int in
                _ = captured
                return value
            }
            nodeWatch = WeakBox(mapped)
            let log = ChannelLog<Int>()
            // Two activations: the second reuses the map's link, parked by the first.
            for value in 1...2 {
                let output = mapped.subscribe(log.handler)
                input.send(value: value)
                output.cancel()
            }
            #expect(log.all == ["1", "2"])
        }
        #expect(nodeWatch.isReleased)
        #expect(closureWatch.isReleased)
    }

    @Test("Leaks: a whole graph with its closures is released after the end")
    func releasedAfterEnd() {
        let watches: [WeakBox<Tracked>]
        let channelWatch: WeakBox<Channel<Int>>
        do {
            let captured = [Tracked(1), Tracked(2), Tracked(3), Tracked(4)]
            watches = captured.map { WeakBox($0) }
            let (input, channel) = Channel<Int>.create()
            channelWatch = WeakBox(channel)
            let multi = channel.map { value -> Int in
                _ = captured[0]
                return value
            }
            .filter { _ in
                _ = captured[1]; return true
            }
            .continuous()
            let output = multi.subscribe { _ in _ = captured[2] }
            let other = multi.compactMap { value -> Int? in
                _ = captured[3]
                return value
            }
            .subscribe { _ in }
            input.send(value: 1)
            input.complete()
            withExtendedLifetime((output, other)) {}
        }
        for watch in watches { #expect(watch.isReleased) }
        #expect(channelWatch.isReleased)
    }

    @Test("Leaks: generate's closure and what it captured are released with the graph")
    func generateReleased() {
        let watch: WeakBox<Tracked>
        let inputWatch = Shared<WeakBox<ChannelInput<Int>>?>(nil)
        do {
            let captured = Tracked()
            watch = WeakBox(captured)
            let channel = Channel<Int>.generate { input in
                _ = captured
                if let input { inputWatch.set(WeakBox(input)) }
            }
            let output = channel.subscribe { _ in }
            output.cancel()
        }
        #expect(watch.isReleased)
        #expect(inputWatch.current?.isReleased == true)
    }

    @Test("Leaks: subscribeWhile's handler is released once it returns false")
    func subscribeWhileReleased() {
        let (input, channel) = Channel<Int>.create { $0.multicast() }
        let watch: WeakBox<Tracked>
        do {
            let captured = Tracked()
            watch = WeakBox(captured)
            channel.subscribeWhile { _ in
                _ = captured
                return false
            }
        }
        #expect(!watch.isReleased)
        input.send(value: 1)
        #expect(watch.isReleased)
    }

    @Test("Leaks: a capture's upstream closures are released with the capture")
    func captureReleased() {
        let watch: WeakBox<Tracked>
        do {
            let captured = Tracked()
            watch = WeakBox(captured)
            let (a, ca) = Channel<Int>.create()
            let capture = ca.map { value -> Int in
                _ = captured
                return value
            }
            .capture()
            a.send(value: 1)
            let output = capture.subscribe { _ in }
            output.cancel()
        }
        #expect(watch.isReleased)
    }

    @Test("Leaks: a junction's upstream closures are released once the graph is let go")
    func junctionReleased() throws {
        let watch: WeakBox<Tracked>
        do {
            let captured = Tracked()
            watch = WeakBox(captured)
            let (a, ca) = Channel<Int>.create()
            let (targetInput, target) = Channel<Int>.create()
            try ca.map { value -> Int in
                _ = captured
                return value
            }
            .junction().bind(to: targetInput)
            let output = target.subscribe { _ in }
            a.send(value: 1)
            output.cancel()
        }
        #expect(watch.isReleased)

    }

    @Test("Leaks: a multi input's sources are released once the graph is let go")
    func multiInputReleased() {
        let watch: WeakBox<Tracked>
        do {
            let captured = Tracked()
            watch = WeakBox(captured)
            let (a, ca) = Channel<Int>.create()
            let (multiInput, multiChannel) = Channel<Int>.createMultiInput()
            multiInput.add(
                ca.map { value -> Int in
                    _ = captured
                    return value
                })
            let output = multiChannel.subscribe { _ in }
            a.send(value: 1)
            output.cancel()
        }
        #expect(watch.isReleased)
    }

    @Test("Leaks: a capture bound to an input is released once the graph is let go")
    func captureBindReleased() throws {
        let watch: WeakBox<Tracked>
        do {
            let captured = Tracked()
            watch = WeakBox(captured)
            let (a, ca) = Channel<Int>.create()
            let capture = ca.map { value -> Int in
                _ = captured
                return value
            }
            .capture()
            let (targetInput, target) = Channel<Int>.create()
            try capture.bind(to: targetInput)
            let output = target.subscribe { _ in }
            a.send(value: 1)
            output.cancel()
        }
        #expect(watch.isReleased)

    }

    @Test("Leaks: 20,000 subscribe/cancel cycles leave nothing behind")
    func manyCycles() {
        let (input, multi) = Channel<Int>.create { $0.continuous(initialValue: 0) }
        let watches = Shared<[WeakBox<Tracked>]>([])
        for index in 0..<20_000 {
            let captured = Tracked(index)
            if index % 1_000 == 0 { watches.withLock { $0.append(WeakBox(captured)) } }
            let output = multi.subscribe { _ in _ = captured }
            output.cancel()
        }
        for watch in watches.current { #expect(watch.isReleased) }
        withExtendedLifetime(input) {}
    }
}
