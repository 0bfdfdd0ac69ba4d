import Testing
@testable import Rivulet
import RivuletContracts

@Suite("SerialDisposable", .checksLiveObjects)
struct SerialDisposableTests {
    @Test("a new serial disposable is empty and not disposed")
    func emptyInit() {
        let serial = SerialDisposable()
        #expect(serial.inner == nil)
        #expect(!serial.isDisposed)
        serial.dispose()
        #expect(serial.isDisposed)
        #expect(serial.inner == nil)
    }

    @Test("init with a disposable holds it without disposing of it")
    func initWithDisposable() {
        let first = DisposalProbe()
        let serial = SerialDisposable(first)
        #expect(serial.inner === first)
        #expect(!serial.isDisposed)
        #expect(first.disposeCount == 0)
    }

    @Test("setting inner disposes of the previous inner, not the new one")
    func settingInnerDisposesPrevious() {
        let first = DisposalProbe(1)
        let second = DisposalProbe(2)
        let third = DisposalProbe(3)
        let serial = SerialDisposable(first)

        serial.inner = second
        #expect(first.disposeCount == 1)
        #expect(second.disposeCount == 0)
        #expect(serial.inner === second)

        serial.inner = third
        #expect(first.disposeCount == 1)
        #expect(second.disposeCount == 1)
        #expect(third.disposeCount == 0)
        #expect(serial.inner === third)

        serial.inner = nil
        #expect(third.disposeCount == 1)
        #expect(serial.inner == nil)
        #expect(!serial.isDisposed, "clearing inner does not dispose of the serial disposable")
    }

    @Test("dispose disposes of the inner once and clears it")
    func disposeDisposesInner() {
        let inner = DisposalProbe()
        let serial = SerialDisposable()
        serial.inner = inner

        serial.dispose()
        #expect(serial.isDisposed)
        #expect(inner.disposeCount == 1)
        #expect(serial.inner == nil)

        serial.dispose()
        #expect(inner.disposeCount == 1, "a second dispose() does nothing")
    }

    @Test("setting inner after disposal disposes of the new value at once")
    func settingAfterDisposal() {
        let serial = SerialDisposable()
        serial.dispose()

        let late = DisposalProbe()
        serial.inner = late
        #expect(late.disposeCount == 1)
        #expect(serial.inner == nil)
        #expect(serial.isDisposed)

        serial.inner = nil
        #expect(serial.isDisposed)
    }

    @Test("the replaced inner is released")
    func replacedInnerIsReleased() {
        let serial = SerialDisposable()
        let weakFirst: WeakBox<DisposalProbe>
        do {
            let first = DisposalProbe()
            weakFirst = WeakBox(first)
            serial.inner = first
        }
        #expect(weakFirst.object != nil)
        serial.inner = AnyDisposable()
        #expect(weakFirst.object == nil)
    }

    @Test("concurrent assignments leave every replaced disposable disposed of exactly once")
    func concurrentAssignments() {
        var wrongCounts = 0
        var wrongSurvivor = 0
        for _ in 0..<30 {
            let serial = SerialDisposable()
            let probes = (0..<8).map { t in (0..<50).map { DisposalProbe(t * 100 + $0) } }
            runConcurrently(8) { index in
                for probe in probes[index] { serial.inner = probe }
            }
            let all = Array(probes.joined())
            let survivors = all.filter { $0.disposeCount == 0 }
            // Exactly one assignment is current; all others were replaced and disposed once.
            if survivors.count != 1 || survivors.first !== serial.inner { wrongSurvivor += 1 }
            wrongCounts += all.filter { $0.disposeCount > 1 }.count

            serial.dispose()
            wrongCounts += all.filter { $0.disposeCount != 1 }.count
        }
        #expect(wrongSurvivor == 0)
        #expect(wrongCounts == 0)
    }

    @Test("concurrent assignments racing dispose: every value is disposed of exactly once")
    func concurrentAssignmentsRacingDispose() {
        var wrongCounts = 0
        var innerLeft = 0
        for iteration in 0..<40 {
            let serial = SerialDisposable()
            let probes = (0..<7).map { t in (0..<40).map { DisposalProbe(t * 100 + $0) } }
            let spin = (iteration % 10) * 10
            runConcurrently(8) { index in
                if index == 7 {
                    for _ in 0..<spin { _ = serial.isDisposed }
                    serial.dispose()
                } else {
                    for probe in probes[index] { serial.inner = probe }
                }
            }
            wrongCounts += probes.joined().filter { $0.disposeCount != 1 }.count
            if serial.inner != nil { innerLeft += 1 }
        }
        #expect(wrongCounts == 0)
        #expect(innerLeft == 0)
    }

    @Test("eight threads disposing at once dispose of the inner exactly once")
    func concurrentDispose() {
        var counts: [Int] = []
        for _ in 0..<50 {
            let inner = DisposalProbe()
            let serial = SerialDisposable(inner)
            runConcurrently(8) { _ in serial.dispose() }
            counts.append(inner.disposeCount)
        }
        #expect(counts.allSatisfy { $0 == 1 }, "dispose counts: \(counts)")
    }

    @Test("an inner that assigns a new inner while being replaced: defined result, no deadlock")
    func reentrantAssignmentWhileReplaced() {
        let serial = SerialDisposable()
        let third = DisposalProbe(3)
        let second = DisposalProbe(2)
        let firstRuns = Counter()
        let finished = withWatchdog(seconds: 300, "assignment from inside a replaced inner") {
            serial.inner = AnyDisposable { [serial] in
                firstRuns.increment()
                serial.inner = third
            }
            serial.inner = second
        }
        // On a timeout the watchdog has recorded the failure; the objects may still be locked.
        guard finished else { return }
        #expect(firstRuns.value == 1)
        // `second` became current, then the first inner's disposal replaced it with `third`.
        #expect(second.disposeCount == 1)
        #expect(third.disposeCount == 0)
        #expect(serial.inner === third)
    }

    @Test("an inner that assigns or disposes while the serial is disposed of: the late value is disposed of")
    func reentrantAssignmentDuringDispose() {
        let serial = SerialDisposable()
        let late = DisposalProbe()
        let runs = Counter()
        let finished = withWatchdog(seconds: 300, "assignment from inside SerialDisposable.dispose") {
            serial.inner = AnyDisposable { [serial] in
                runs.increment()
                serial.inner = late
                serial.dispose()
            }
            serial.dispose()
        }
        // On a timeout the watchdog has recorded the failure; the objects may still be locked.
        guard finished else { return }
        #expect(runs.value == 1)
        #expect(late.disposeCount == 1)
        #expect(serial.inner == nil)
        #expect(serial.isDisposed)
    }

    @Test("replaced and disposed inners are released outside the lock (their deinit may use the serial)")
    func innersReleasedOutsideLock() {
        let deinits = Counter()
        let serial = SerialDisposable()
        let finished = withWatchdog(seconds: 300, "inner deinit touching the serial disposable") {
            do {
                serial.inner = DeinitHookDisposable { [serial] in
                    _ = serial.inner
                    deinits.increment()
                }
            }
            serial.inner = nil
            do {
                serial.inner = DeinitHookDisposable { [serial] in
                    _ = serial.isDisposed
                    deinits.increment()
                }
            }
            serial.dispose()
            // After disposal, the rejected value is disposed of and released too.
            serial.inner = DeinitHookDisposable { [serial] in
                _ = serial.isDisposed
                deinits.increment()
            }
        }
        // On a timeout the watchdog has recorded the failure; the objects may still be locked.
        guard finished else { return }
        #expect(deinits.value == 3)
    }
}

@Suite(.checksLiveObjects) struct SerialDisposableReassignmentTests {
    @Test("assigning the current inner again keeps it and does not dispose of it")
    func reassigningTheSameInnerIsANoOp() {
        let inner = AnyDisposable()
        let serial = SerialDisposable(inner)
        serial.inner = serial.inner
        #expect(inner.isDisposed == false)
        #expect(serial.inner === inner)
        serial.dispose()
        #expect(inner.isDisposed)
    }
}
