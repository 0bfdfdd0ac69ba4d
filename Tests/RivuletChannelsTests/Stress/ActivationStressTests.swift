import Dispatch
import Foundation
import Testing
import RivuletChannels
import RivuletContracts

/// Activation racing sends: the moments where a node changes hands. Run under Thread Sanitizer.
/// Deadlines are hang guards only.
@Suite(.checksLiveObjects) struct ActivationStressTests {
    @Test("A4 stress: 4 threads subscribe to one plain channel at once: one output wins, the others get duplicate")
    func racingSubscribers() {
        for round in 0..<200 {
            let (input, channel) = Channel<Int>.create()
            let logs = (0..<4).map { _ in ChannelLog<Int>() }
            let outputs = Shared<[ChannelOutput<Int>]>([])
            runConcurrently(4) { thread in
                let output = channel.subscribe(logs[thread].handler)
                outputs.withLock { $0.append(output) }
            }
            input.send(value: 1)
            let entries = logs.map(\.all)
            #expect(entries.filter { $0 == ["1"] }.count == 1, "round \(round): \(entries)")
            #expect(entries.filter { $0 == ["duplicate"] }.count == 3, "round \(round): \(entries)")
            withExtendedLifetime(outputs) {}
        }
    }

    @Test("A8 stress: a capture resumed while another thread sends delivers every value once, in order")
    func captureResumedWhileSending() {
        for round in 0..<100 {
            let (input, channel) = Channel<Int>.create()
            let capture = channel.capture()
            let values = Shared<[Int]>([])
            let outputs = Shared<[ChannelOutput<Int>]>([])
            let finished = withWatchdog(seconds: 300, "round \(round)") {
                runConcurrently(2) { thread in
                    if thread == 0 {
                        for value in 0..<500 { input.send(value: value) }
                    } else {
                        let output = capture.subscribeValues { value in values.withLock { $0.append(value) } }
                        outputs.withLock { $0.append(output) }
                    }
                }
            }
            #expect(finished)
            #expect(values.current == Array(0..<500), "round \(round)")
            withExtendedLifetime(outputs) {}
        }
    }

    @Test("A2 stress: outputs joining a continuous while another thread sends see an increasing run ending with the last value")
    func joiningWhileSending() {
        let (input, multi) = Channel<Int>.create { $0.continuous(initialValue: -1) }
        let logs = Shared<[Shared<[Int]>]>([])
        let outputs = Shared<[ChannelOutput<Int>]>([])
        let finished = withWatchdog(seconds: 120, "joining while sending") {
            runConcurrently(3) { thread in
                if thread == 0 {
                    for value in 0..<5_000 { input.send(value: value) }
                    return
                }
                for _ in 0..<100 {
                    let values = Shared<[Int]>([])
                    let output = multi.subscribeValues { value in values.withLock { $0.append(value) } }
                    logs.withLock { $0.append(values) }
                    outputs.withLock { $0.append(output) }
                }
            }
        }
        #expect(finished)
        for values in logs.current {
            let seen = values.current
            // The activation value first, then every later value once and in order.
            #expect(!seen.isEmpty)
            #expect(seen == Array((seen.first ?? 0)...(seen.last ?? 0)), "\(seen.prefix(10))")
            #expect(seen.last == 4_999)
        }
        withExtendedLifetime(outputs) {}
    }

    @Test(
        "A3 stress: generate under subscribe/cancel churn from 3 threads gets a distinct input each activation",
        .keepsLiveObjects(
            "the generator keeps its inputs and an input holds its channel: a cycle the test makes on purpose (releasing an input would end the channel, A7)"
        ))
    func generateChurn() {
        let inputs = Shared<[ObjectIdentifier]>([])
        let live = Shared<[ChannelInput<Int>]>([])
        let nils = Shared(0)
        let multi = Channel<Int>.generate { input in
            if let input {
                inputs.withLock { $0.append(ObjectIdentifier(input)) }
                live.withLock { $0.append(input) }
            } else {
                nils.withLock { $0 += 1 }
            }
        }
        .multicast()
        let finished = withWatchdog(seconds: 120, "generate churn") {
            runConcurrently(3) { _ in
                for _ in 0..<300 {
                    let output = multi.subscribe { _ in }
                    output.cancel()
                }
            }
        }
        #expect(finished)
        let all = inputs.current
        #expect(Set(all).count == all.count)
        #expect(nils.current == all.count)
    }
}
