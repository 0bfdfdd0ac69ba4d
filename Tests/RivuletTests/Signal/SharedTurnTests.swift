import Dispatch
import Foundation
import Testing
@testable import Rivulet
import RivuletContracts

/// Signals that share their upstream's delivery turn (`map`, `filter` and the other stages that
/// send only while their upstream delivers): they behave exactly like signals with a turn of
/// their own, observer changes included.
@Suite(.checksLiveObjects) struct SharedTurnTests {
    typealias IntSignal = Signal<Int, TestError>

    @Test("A chain of stages shares the turn of the signal at its top")
    func chainSharesTheTopSignalsTurn() {
        let (signal, _) = IntSignal.pipe()
        let mapped = signal.map { $0 + 1 }
        let filtered = mapped.filter { $0 > 0 }
        let host = signal.core.storage as AnyObject
        #expect(mapped.core.sharedTurnHost.map { $0 === host } == true)
        #expect(filtered.core.sharedTurnHost.map { $0 === host } == true)
        #expect(signal.core.sharedTurnHost == nil)
        // A stage with work of its own (a merge) keeps a turn of its own.
        #expect(IntSignal.merge([mapped, filtered]).core.sharedTurnHost == nil)
    }

    @Test("Values, then the terminal event, reach every stage's observers in order")
    func eventsFlowThroughTheChain() {
        let (signal, input) = IntSignal.pipe()
        let middle = EventRecorder<Int, TestError>()
        let end = EventRecorder<Int, TestError>()
        let mapped = signal.map { $0 * 10 }
        mapped.observe(middle.observer)
        mapped.filter { $0 != 20 }.observe(end.observer)
        for value in 1...3 { input.send(value: value) }
        input.send(error: TestError(7))
        #expect(middle.events == [.value(10), .value(20), .value(30), .failed(TestError(7))])
        #expect(end.events == [.value(10), .value(30), .failed(TestError(7))])
    }

    @Test("An observer attached from inside the member's own delivery gets the next value, not the current one")
    func observerAttachedDuringTheMembersDeliveryStartsWithTheNextValue() {
        let (signal, input) = IntSignal.pipe()
        let mapped = signal.map { $0 }
        let late = EventRecorder<Int, TestError>()
        let attached = Locked(false)
        mapped.observeValues { _ in
            let first = attached.withLock { attached in
                defer { attached = true }
                return !attached
            }
            if first { mapped.observe(late.observer) }
        }
        input.send(value: 1)
        input.send(value: 2)
        #expect(late.values == [2])
    }

    @Test("An observer attached to a member from inside the host's delivery, before the member's turn, gets the current value")
    func observerAttachedBeforeTheMembersTurnGetsTheCurrentValue() {
        let (signal, input) = IntSignal.pipe()
        let late = EventRecorder<Int, TestError>()
        let attachedOnce = Locked(false)
        // Box, because the member is made after the observer that attaches to it.
        let member = Locked<IntSignal?>(nil)
        signal.observeValues { _ in
            let shouldAttach = attachedOnce.withLock { attached in
                defer { attached = true }
                return !attached
            }
            if shouldAttach, let mapped = member.withLock({ $0 }) { mapped.observe(late.observer) }
        }
        member.withLock { $0 = signal.map { $0 * 2 } }
        input.send(value: 1)
        input.send(value: 2)
        // As with a turn of its own: the member had not delivered 1 yet when the observer came.
        #expect(late.values == [2, 4])
    }

    @Test("An observer that disposes of itself receives nothing more and is released after the turn")
    func selfDisposalInsideTheTurn() {
        let (signal, input) = IntSignal.pipe()
        let mapped = signal.map { $0 }
        let tracked = WeakBox<Tracked>(nil)
        let received = Locked<[Int]>([])
        let disposable = Locked<Disposable?>(nil)
        do {
            let object = Tracked()
            tracked.object = object
            disposable.withLock {
                $0 = mapped.observeValues { value in
                    withExtendedLifetime(object) { received.withLock { $0.append(value) } }
                    disposable.withLock { $0 }?.dispose()
                }
            }
        }
        // A second observer of the same member, after the first: it still gets every value.
        let second = EventRecorder<Int, TestError>()
        mapped.observe(second.observer)
        input.send(value: 1)
        input.send(value: 2)
        #expect(received.withLock { $0 } == [1])
        #expect(second.values == [1, 2])
        #expect(tracked.object == nil)
        #expect(mapped.core.observerCount == 1)
    }

    @Test("An observer attached from another thread while the turn is held joins between two events")
    func attachFromAnotherThreadWhileTheTurnIsHeld() {
        let (signal, input) = IntSignal.pipe()
        let mapped = signal.map { $0 + 100 }
        let late = EventRecorder<Int, TestError>()
        DeliveryHolder(1, on: signal).whileHeld(sentBy: { input.send(value: 1) }) {
            // The sender holds the shared turn, blocked inside the host's delivery.
            mapped.observe(late.observer)
            #expect(mapped.core.observerCount == 1)
        }
        // The attachment waited for the turn's owner, which applied it before giving the turn up.
        input.send(value: 2)
        input.sendCompleted()
        #expect(late.values == [102])
        #expect(late.terminalCount == 1)
    }

    @Test("A member that nobody observes or keeps stops silently and leaves its upstream")
    func abandonedMemberLeavesItsUpstream() {
        let (signal, input) = IntSignal.pipe()
        let transformed = Counter()
        do {
            let disposable = signal.map { value -> Int in
                _ = transformed.increment()
                return value
            }.filter { _ in true }.observeValues { _ in }
            input.send(value: 1)
            disposable?.dispose()
        }
        #expect(signal.core.observerCount == 0)
        input.send(value: 2)
        #expect(transformed.value == 1)
    }

    @Test("A member ended by its stage inside the turn leaves its upstream after the turn")
    func memberEndedInsideTheTurn() {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.map { $0 }.take(first: 2).observe(recorder.observer)
        for value in 1...4 { input.send(value: value) }
        #expect(recorder.events == [.value(1), .value(2), .completed])
        // take's member left map's, and then map's member, abandoned, left the pipe.
        #expect(signal.core.observerCount == 0)
    }

    @Test("A member of a signal that has already ended is interrupted for every observer (S3)")
    func memberOfAnEndedSignal() {
        let (signal, input) = IntSignal.pipe()
        input.sendCompleted()
        let recorder = EventRecorder<Int, TestError>()
        signal.map { $0 }.observe(recorder.observer)
        #expect(recorder.events == [.interrupted])
    }

    @Test(
        "A value sent into the host from a member's observer is delivered after the current one (E6)",
        .observerKeepsWhatItObserves)
    func reentrantSendThroughAMember() {
        let (signal, input) = IntSignal.pipe()
        let recorder = EventRecorder<Int, TestError>()
        let mapped = signal.map { $0 }
        mapped.observeValues { value in
            if value == 1 { input.send(value: 2) }
        }
        mapped.observe(recorder.observer)
        input.send(value: 1)
        #expect(recorder.values == [1, 2])
    }
}

/// Races on shared turns: observers of members attached and detached from other threads while
/// values go down the chain. CI runs these under Thread Sanitizer.
@Suite(.checksLiveObjects) struct SharedTurnStressTests {
    typealias IntSignal = Signal<Int, TestError>

    @Test("Observers of a member, attached and detached from other threads during sends, see contiguous runs, one at a time")
    func membersObserversChangeDuringSends() {
        let (signal, input) = IntSignal.pipe()
        let member = signal.map { $0 }.filter { _ in true }.map { $0 }
        let detector = OverlapDetector()
        member.observeValues { _ in
            detector.enter()
            detector.leave()
        }
        let recorders = Locked<[EventRecorder<Int, TestError>]>([])
        let changersDone = Locked(0)
        let sent = Locked(0)
        let finished = withWatchdog(seconds: 120, "member observers during sends") {
            runConcurrently(3) { thread in
                if thread == 0 {
                    var value = 0
                    while changersDone.withLock({ $0 }) < 2 {
                        input.send(value: value)
                        value += 1
                    }
                    sent.withLock { $0 = value }
                } else {
                    for round in 0..<200 {
                        let recorder = EventRecorder<Int, TestError>()
                        let disposable = member.observe(recorder.observer)
                        if round.isMultiple(of: 2) {
                            usleep(20)
                            disposable?.dispose()
                        } else {
                            recorders.withLock { $0.append(recorder) }
                        }
                    }
                    changersDone.withLock { $0 += 1 }
                }
            }
        }
        #expect(finished)
        input.sendCompleted()
        let total = sent.withLock { $0 }
        for recorder in recorders.withLock({ $0 }) {
            if let first = recorder.values.first {
                #expect(recorder.values == Array(first..<total))
            }
            #expect(recorder.terminalCount == 1)
        }
        #expect(detector.overlapCount == 0)
        #expect(member.core.observerCount == 0)
    }

    @Test("Sends from several threads through a chain of members arrive one at a time, each sender's in order")
    func sendsFromSeveralThreadsThroughMembers() {
        let (signal, input) = IntSignal.pipe()
        let detector = OverlapDetector()
        let received = Locked<[Int]>([])
        signal.map { $0 }.filter { $0 >= 0 }.map { $0 }.observeValues { value in
            detector.enter()
            received.withLock { $0.append(value) }
            detector.leave()
        }
        let perSender = 2_000
        let finished = withWatchdog(seconds: 120, "sends through members") {
            runConcurrently(4) { thread in
                for index in 0..<perSender { input.send(value: thread * 1_000_000 + index) }
            }
        }
        #expect(finished)
        let values = received.withLock { $0 }
        #expect(values.count == 4 * perSender)
        for thread in 0..<4 {
            let own = values.filter { $0 / 1_000_000 == thread }
            #expect(own == (0..<perSender).map { thread * 1_000_000 + $0 })
        }
        #expect(detector.overlapCount == 0)
    }

    @Test("Members dropped from other threads while values flow leave their upstream")
    func membersDroppedDuringSends() {
        let (signal, input) = IntSignal.pipe()
        let stop = Locked(false)
        let finished = withWatchdog(seconds: 120, "members dropped during sends") {
            runConcurrently(3) { thread in
                if thread == 0 {
                    var value = 0
                    while !stop.withLock({ $0 }) {
                        input.send(value: value)
                        value += 1
                    }
                } else {
                    for _ in 0..<300 {
                        let disposable = signal.map { $0 }.filter { _ in true }.observeValues { _ in }
                        usleep(10)
                        disposable?.dispose()
                    }
                    if thread == 2 { stop.withLock { $0 = true } }
                }
            }
        }
        #expect(finished)
        input.send(value: -1)
        #expect(signal.core.observerCount == 0)
    }
}
