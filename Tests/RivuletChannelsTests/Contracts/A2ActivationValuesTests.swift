import Dispatch
import Foundation
import Testing
import RivuletChannels
import RivuletContracts

/// A2: cached activation values are delivered synchronously during activation, before any later
/// value.
@Suite(.checksLiveObjects) struct A2ActivationValuesTests {
    @Test("A2 activation values arrive inside subscribe, before later values")
    func synchronousAndFirst() {
        let (input, multi) = Channel<Int>.create { $0.playback() }
        input.send(value: 1)
        input.send(value: 2)
        let log = ChannelLog<Int>()
        let output = multi.subscribe(log.handler)
        #expect(log.all == ["1", "2"])
        input.send(value: 3)
        #expect(log.all == ["1", "2", "3"])
        withExtendedLifetime(output) {}
    }

    @Test("A2 a value sent from another thread during activation comes after the activation values")
    func otherThreadDuringActivation() {
        let (input, multi) = Channel<Int>.create { $0.playback() }
        for value in 1...3 { input.send(value: value) }
        let log = ChannelLog<Int>()
        let sendResult = Shared<ChannelSendError??>(.none)
        let finished = withWatchdog(seconds: 300, "send from another thread during activation") {
            let output = multi.subscribe { result in
                log.append(result)
                guard case .success(1) = result else { return }
                // Another thread sends while this activation is under way; its send never
                // waits for this thread (A9), so joining it here cannot deadlock.
                let sent = DispatchSemaphore(value: 0)
                let thread = Thread {
                    sendResult.set(.some(input.send(value: 4)))
                    sent.signal()
                }
                thread.start()
                sent.wait()
            }
            log.appendText("returned")
            withExtendedLifetime(output) {}
        }
        #expect(finished)
        #expect(log.all == ["1", "2", "3", "4", "returned"])
        #expect(sendResult.current == .some(nil))
    }

    @Test("A2 a value sent from a handler during activation comes after the remaining activation values")
    func handlerSendDuringActivation() {
        let (input, multi) = Channel<Int>.create { $0.playback() }
        for value in 1...3 { input.send(value: value) }
        let log = ChannelLog<Int>()
        let output = multi.subscribe { result in
            log.append(result)
            if case .success(1) = result { input.send(value: 10) }
        }
        #expect(log.all == ["1", "2", "3", "10"])
        withExtendedLifetime(output) {}
    }

    @Test(
        "A2 activation values are delivered inside subscribe through .global and queue contexts",
        arguments: ["global", "queue", "scheduler"])
    func throughContexts(kind: String) async {
        let context: Exec
        switch kind {
        case "global": context = .global
        case "queue": context = .queue(DispatchQueue(label: "A2.serial"), .serialAsync)
        default: context = Exec(QueueScheduler(name: "A2.scheduler"))
        }
        let (input, multi) = Channel<Int>.create { $0.playback() }
        input.send(value: 1)
        input.send(value: 2)
        let log = ChannelLog<Int>()
        let output = multi.subscribe(context: context, log.handler)
        #expect(log.all == ["1", "2"])
        input.send(value: 3)
        await eventually { log.all.count == 3 }
        #expect(log.all == ["1", "2", "3"])
        withExtendedLifetime(output) {}
    }

    @Test("A2 a transform on a .global context processes activation values synchronously")
    func transformContextActivation() async {
        let (input, multi) = Channel<Int>.create { $0.continuous(initialValue: 1) }
        let log = ChannelLog<Int>()
        let output = multi.map(context: .global) { $0 * 10 }.subscribe(log.handler)
        #expect(log.all == ["10"])
        input.send(value: 2)
        await eventually { log.all.count == 2 }
        #expect(log.all == ["10", "20"])
        withExtendedLifetime(output) {}
    }

    @Test("A2 with a TestScheduler context, activation values come at once and later values when the scheduler runs")
    func testSchedulerContext() {
        let scheduler = TestScheduler()
        let (input, multi) = Channel<Int>.create { $0.continuous(initialValue: 0) }
        let log = ChannelLog<Int>()
        let output = multi.subscribe(context: Exec(scheduler), log.handler)
        #expect(log.all == ["0"])
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.all == ["0"])
        scheduler.advance()
        #expect(log.all == ["0", "1", "2"])
        withExtendedLifetime(output) {}
    }

    @Test("A2 activation values of a Channel(producer) are the producer's synchronous values")
    func producerActivationValues() {
        let capture = Channel(SignalProducer<Int, Never>([1, 2])).capture()
        #expect(capture.values == [1, 2])
        #expect(capture.end?.isComplete == true)
    }
}
