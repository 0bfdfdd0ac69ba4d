import Dispatch
import Foundation
import Testing
import RivuletChannels
import RivuletContracts

/// A stopped output lets go of its handler, and of whatever the handler captured, once no
/// delivery to it can still be running: even a handler that keeps its own output (to cancel it
/// from inside) is released, in every way an output stops (issue 19).
@Suite(.checksLiveObjects) struct OutputHandlerReleaseTests {
    /// Where the watched output listens.
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        /// A plain channel: its node's turn calls the handler.
        case plainChannel
        /// A multi's branch with `subscribe`: after the first value, the multi calls the consumer
        /// without the branch's turn.
        case multiBranch
        /// A multi's branch with `subscribeValues`: after the first value, the multi calls the
        /// handler itself (`directValues`).
        case multiDirectValues

        var testDescription: String { rawValue }
    }

    /// A channel to watch an output on, with what keeps it going.
    struct Subject {
        let input: ChannelInput<Int>
        let channel: Channel<Int>
        /// A second output on a multi, so that it stays active when the watched one leaves.
        let other: ChannelOutput<Int>?

        init(_ place: Place) {
            let (input, channel) = Channel<Int>.createMultiInput()
            self.input = input
            switch place {
            case .plainChannel:
                self.channel = channel
                other = nil
            case .multiBranch, .multiDirectValues:
                let multi = channel.multicast()
                self.channel = multi
                other = multi.subscribe { _ in }
            }
        }

        /// Attaches an output that calls `body` with each value (and, unless it takes values
        /// only, `-1` for the end), keeping `captured` and its own output (through `slot`).
        func watchedOutput(
            _ place: Place, captured: Tracked, slot: Slot<ChannelOutput<Int>>,
            _ body: @escaping @Sendable (Int) -> Void
        ) -> ChannelOutput<Int> {
            let output: ChannelOutput<Int>
            switch place {
            case .plainChannel, .multiBranch:
                output = channel.subscribe { result in
                    _ = captured
                    _ = slot
                    switch result {
                    case let .success(value): body(value)
                    case .failure: body(-1)
                    }
                }
            case .multiDirectValues:
                output = channel.subscribeValues { value in
                    _ = captured
                    _ = slot
                    body(value)
                }
            }
            slot.value = output
            return output
        }

        /// A watched output (as `watchedOutput`) whose handler records each value in `seen`, then
        /// runs `then` with the output's slot; returns weak references to what the handler
        /// captured and to the output, which only the handler keeps.
        func watched(
            _ place: Place, seen: Shared<[Int]>,
            then: @escaping @Sendable (Int, Slot<ChannelOutput<Int>>) -> Void = { _, _ in }
        ) -> (captured: WeakBox<Tracked>, output: WeakBox<ChannelOutput<Int>>) {
            let captured = Tracked()
            let slot = Slot<ChannelOutput<Int>>()
            let output = watchedOutput(place, captured: captured, slot: slot) { value in
                seen.withLock { $0.append(value) }
                then(value, slot)
            }
            return (WeakBox(captured), WeakBox(output))
        }
    }

    @Test(
        "A6 an output cancelled from inside its handler lets go of the handler, which kept the output", arguments: Place.allCases)
    func cancelledFromInside(_ place: Place) {
        let subject = Subject(place)
        let seen = Shared<[Int]>([])
        let (watch, outputWatch) = subject.watched(place, seen: seen) { value, slot in
            if value == 3 { slot.value?.cancel() }
        }
        for value in 1...2 { subject.input.send(value: value) }
        #expect(!watch.isReleased)
        // A multi's branch is called without its turn from the second value on; the third
        // cancels the output from inside the handler.
        subject.input.send(value: 3)
        #expect(watch.isReleased)
        #expect(outputWatch.isReleased)
        subject.input.send(value: 4)
        #expect(seen.current == [1, 2, 3])
        withExtendedLifetime(subject) {}
    }

    @Test(
        "A6 an output cancelled from another thread during a delivery keeps its handler until the delivery returns, then lets go",
        arguments: Place.allCases)
    func cancelledDuringDelivery(_ place: Place) {
        let subject = Subject(place)
        let watch: WeakBox<Tracked>
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let usedAfterCancel = Shared<[Int]>([])
        do {
            let captured = Tracked(7)
            watch = WeakBox(captured)
            let slot = Slot<ChannelOutput<Int>>()
            let output = subject.watchedOutput(place, captured: captured, slot: slot) { value in
                guard value == 2 else { return }
                entered.signal()
                proceed.wait()
                // The output was cancelled meanwhile; what the handler captured is still there.
                usedAfterCancel.withLock { $0.append(captured.id) }
            }
            // The first value makes a multi's branch direct: the second skips the branch's turn.
            subject.input.send(value: 1)
            let sender = Thread { subject.input.send(value: 2) }
            sender.start()
            entered.wait()
            output.cancel()
        }
        // The delivery under way holds the consumer, and so the handler, whatever the place.
        #expect(!watch.isReleased)
        proceed.signal()
        // Released by the sending thread once its delivery returns.
        waitUntil { watch.isReleased }
        #expect(usedAfterCancel.current == [7])
        withExtendedLifetime(subject) {}
    }

    @Test("A6 an idle output cancelled from outside lets go of its handler at once", arguments: Place.allCases)
    func cancelledWhenIdle(_ place: Place) {
        let subject = Subject(place)
        let watch: WeakBox<Tracked>
        let outputWatch: WeakBox<ChannelOutput<Int>>
        do {
            let captured = Tracked()
            watch = WeakBox(captured)
            let output = subject.watchedOutput(place, captured: captured, slot: Slot()) { _ in }
            outputWatch = WeakBox(output)
            subject.input.send(value: 1)
            subject.input.send(value: 2)
            output.cancel()
        }
        #expect(watch.isReleased)
        #expect(outputWatch.isReleased)
        withExtendedLifetime(subject) {}
    }

    @Test("A6 an output released without cancel() lets go of its handler", arguments: Place.allCases)
    func releasedWithoutCancel(_ place: Place) {
        let subject = Subject(place)
        let watch: WeakBox<Tracked>
        do {
            let captured = Tracked()
            watch = WeakBox(captured)
            let output: ChannelOutput<Int>
            switch place {
            case .plainChannel, .multiBranch: output = subject.channel.subscribe { _ in _ = captured }
            case .multiDirectValues: output = subject.channel.subscribeValues { _ in _ = captured }
            }
            subject.input.send(value: 1)
            subject.input.send(value: 2)
            withExtendedLifetime(output) {}
        }
        #expect(watch.isReleased)
        withExtendedLifetime(subject) {}
    }

    @Test("A6 an output whose channel ends lets go of its handler, which kept the output", arguments: Place.allCases)
    func endedOutput(_ place: Place) {
        let subject = Subject(place)
        let seen = Shared<[Int]>([])
        let (watch, outputWatch) = subject.watched(place, seen: seen)
        subject.input.send(value: 1)
        subject.input.send(value: 2)
        #expect(!watch.isReleased)
        subject.input.complete()
        #expect(watch.isReleased)
        #expect(outputWatch.isReleased)
        #expect(seen.current == (place == .multiDirectValues ? [1, 2] : [1, 2, -1]))
        withExtendedLifetime(subject) {}
    }

    @Test("A6 an output with a context lets go of its handler after the end its hop delivered")
    func endedOnAHop() {
        let scheduler = TestScheduler()
        let (input, channel) = Channel<Int>.create()
        let watch: WeakBox<Tracked>
        let seen = Shared<[String]>([])
        do {
            let captured = Tracked()
            watch = WeakBox(captured)
            let slot = Slot<ChannelOutput<Int>>()
            slot.value = channel.subscribe(context: Exec(scheduler)) { result in
                _ = (captured, slot)
                seen.withLock { $0.append("\(result)") }
            }
        }
        input.send(value: 1)
        input.complete()
        // The end is on its way through the hop, which holds the handler until it has run.
        #expect(!watch.isReleased)
        scheduler.advance()
        #expect(seen.current.count == 2)
        #expect(watch.isReleased)
    }

    @Test("A6 an output with a context lets go of its handler when cancelled from inside it or with results queued")
    func cancelledOnAHop() {
        let scheduler = TestScheduler()
        let (input, channel) = Channel<Int>.createMultiInput()
        let insideWatch: WeakBox<Tracked>
        let outsideWatch: WeakBox<Tracked>
        let outside: ChannelOutput<Int>
        let multi = channel.multicast()
        do {
            let captured = Tracked()
            insideWatch = WeakBox(captured)
            let slot = Slot<ChannelOutput<Int>>()
            slot.value = multi.subscribe(context: Exec(scheduler)) { result in
                _ = captured
                if case .success(2) = result { slot.value?.cancel() }
            }
            let other = Tracked()
            outsideWatch = WeakBox(other)
            outside = multi.subscribeValues(context: Exec(scheduler)) { _ in _ = other }
        }
        for value in 1...3 { input.send(value: value) }
        #expect(!insideWatch.isReleased)
        #expect(!outsideWatch.isReleased)
        // Cancelled with values queued on its hop: nothing can call it any more.
        outside.cancel()
        #expect(outsideWatch.isReleased)
        scheduler.advance()
        #expect(insideWatch.isReleased)
    }

    @Test("A6 subscribeWhile lets go of its handler after the end, and when it returns false from a multi's direct path")
    func subscribeWhileReleased() {
        let (input, channel) = Channel<Int>.createMultiInput()
        let multi = channel.multicast()
        let other = multi.subscribe { _ in }
        // A self-retained output whose handler answers `false` at `stopAt` (never if `nil`).
        func watchedWhile(stoppingAt stopAt: Int?) -> WeakBox<Tracked> {
            let captured = Tracked()
            multi.subscribeWhile { result in
                _ = captured
                guard let stopAt, case let .success(value) = result else { return true }
                return value != stopAt
            }
            return WeakBox(captured)
        }
        let untilEnd = watchedWhile(stoppingAt: nil)
        // The third value reaches it without its branch's turn.
        let untilFalse = watchedWhile(stoppingAt: 3)
        for value in 1...3 { input.send(value: value) }
        #expect(untilFalse.isReleased)
        #expect(!untilEnd.isReleased)
        input.complete()
        #expect(untilEnd.isReleased)
        withExtendedLifetime(other) {}
    }

    @Test(
        "A9 stress: outputs cancelled from a third thread or from inside their handlers, or ended, while two threads send, all let go of their handlers",
        arguments: [false, true])
    func releasedUnderLoad(onHops: Bool) {
        let released = Shared(0)
        let violations = Shared<[String]>([])
        var made = 0
        for round in 0..<(onHops ? 40 : 100) {
            let (input, channel) = Channel<Int>.createMultiInput()
            let multi = channel.multicast()
            let other = multi.subscribe { _ in }
            // Outputs 0, 3, 6 … cancel themselves from inside, 1, 4, 7 … are cancelled by the third
            // thread, and the others end. Each handler keeps its own output, and an object whose
            // deinit counts. On hops, each output's handler runs on a serial queue of its own.
            let slots = (0..<12).map { _ in Slot<ChannelOutput<Int>>() }
            for (index, slot) in slots.enumerated() {
                let counted = DeinitCounted(released)
                let cancelAt = index % 3 == 0 ? 20 + index * 5 : nil
                let cancelled = Shared(false)
                let handler: @Sendable (Int) -> Void = { value in
                    _ = counted
                    if cancelled.current {
                        // The strong rule: cancel() returned on this thread, before this call.
                        if cancelAt != nil { violations.withLock { $0.append("round \(round): after cancel") } }
                        return
                    }
                    if let cancelAt, value % 1_000 >= cancelAt {
                        slot.value?.cancel()
                        cancelled.set(true)
                    }
                }
                let context: Exec = onHops ? .global : .direct
                slot.value =
                    index % 2 == 0
                    ? multi.subscribeValues(context: context, handler)
                    : multi.subscribe(context: context) { if case let .success(value) = $0 { handler(value) } }
                made += 1
            }
            let finished = withWatchdog(seconds: 300, "round \(round)") {
                runConcurrently(3) { thread in
                    if thread == 2 {
                        for (index, slot) in slots.enumerated() where index % 3 == 1 {
                            slot.value?.cancel()
                            for _ in 0..<(index % 4) { _ = Thread.current }
                        }
                        return
                    }
                    for index in 0..<100 { input.send(value: thread * 1_000 + index) }
                }
            }
            #expect(finished)
            input.complete()
            // Every output stops: cancelled by the third thread, by itself (each sender's values
            // reach every threshold), or by the end (on a hop, once its drain delivered it).
            waitUntil { slots.allSatisfy { $0.value?.isClosed == true } }
            withExtendedLifetime(other) {}
        }
        // Every handler, with its object, is released by whichever thread held the last path to
        // its consumer: at once without hops, once each drain is done with them on hops.
        waitUntil { released.current == made }
        #expect(released.current == made)
        #expect(violations.current == [])
    }
}

/// An object that counts its own release.
final class DeinitCounted: Sendable {
    let counter: Shared<Int>

    init(_ counter: Shared<Int>) { self.counter = counter }

    deinit { counter.withLock { $0 += 1 } }
}
