import Testing
import RivuletChannels
import RivuletContracts

/// Bridges between channels and the core: `Channel(producer)`, `channel.producer`,
/// `multi.property`.
@Suite(.checksLiveObjects) struct ProducerBridgeTests {
    @Test("E1 Channel(producer) maps completed to complete, failed to other, interrupted to cancelled")
    func producerEventMapping() {
        let completed = ChannelLog<Int>()
        let o1 = Channel(SignalProducer<Int, Never>([1])).subscribe(completed.handler)
        #expect(completed.all == ["1", "complete"])

        let failed = ChannelLog<Int>()
        let o2 = Channel(SignalProducer<Int, ChannelTestError>(error: ChannelTestError(6))).subscribe(failed.handler)
        #expect(failed.all == ["other(E6)"])

        let interrupted = ChannelLog<Int>()
        let o3 = Channel(SignalProducer<Int, Never> { observer, _ in observer.sendInterrupted() })
            .subscribe(interrupted.handler)
        #expect(interrupted.all == ["cancelled"])

        let channelEnd = ChannelLog<Int>()
        let o4 = SignalProducer<Int, ChannelEnd>(error: .cancelled).channel().subscribe(channelEnd.handler)
        #expect(channelEnd.all == ["cancelled"])
        withExtendedLifetime((o1, o2, o3, o4)) {}
    }

    @Test("A1 Channel(producer) starts the producer on activation and disposes of it on deactivation")
    func producerLifecycle() {
        let starts = Shared(0)
        let disposals = Shared(0)
        let channel = Channel(
            SignalProducer<Int, Never> { _, lifetime in
                starts.withLock { $0 += 1 }
                lifetime.observeEnded { disposals.withLock { $0 += 1 } }
            })
        #expect(starts.current == 0)
        let output = channel.subscribe { _ in }
        #expect(starts.current == 1)
        output.cancel()
        #expect(disposals.current == 1)
    }

    @Test("E1 channel.producer forwards values, complete as completed, other ends as failed")
    func channelToProducer() {
        let (input, channel) = Channel<Int>.create()
        let events = Shared<[String]>([])
        let disposable = channel.producer.start { event in
            switch event {
            case let .value(value): events.withLock { $0.append("\(value)") }
            case .completed: events.withLock { $0.append("completed") }
            case let .failed(end): events.withLock { $0.append("failed \(ChannelLog<Int>.describe(end))") }
            case .interrupted: events.withLock { $0.append("interrupted") }
            }
        }
        input.send(value: 1)
        input.complete()
        #expect(events.current == ["1", "completed"])

        let (failing, failingChannel) = Channel<Int>.create()
        let failures = Shared<[String]>([])
        let d2 = failingChannel.producer.startWithFailed { end in
            failures.withLock { $0.append(ChannelLog<Int>.describe(end)) }
        }
        failing.cancel()
        #expect(failures.current == ["cancelled"])
        withExtendedLifetime((disposable, d2)) {}
    }

    @Test("A6 disposing a start of channel.producer cancels its output")
    func producerDisposeCancels() {
        let (input, channel) = Channel<Int>.create()
        let disposable = channel.producer.start()
        #expect(input.send(value: 1) == nil)
        disposable.dispose()
        #expect(input.send(value: 2) == .disconnected)
    }

    @Test("A2 multi.property is nil without an activation value, else holds the latest value")
    func multiProperty() {
        let (_, multicast) = Channel<Int>.create { $0.multicast() }
        #expect(multicast.property == nil)
        let (_, empty) = Channel<Int>.create { $0.continuous() }
        #expect(empty.property == nil)
        let (input, multi) = Channel<Int>.create { $0.continuous(initialValue: 1) }
        guard let property = multi.property else {
            Issue.record("expected a property")
            return
        }
        #expect(property.value == 1)
        input.send(value: 2)
        #expect(property.value == 2)
        input.complete()
        #expect(property.value == 2)
    }
}
