import Testing
@testable import Rivulet
import RivuletContracts

@Suite("CompositeDisposable", .checksLiveObjects)
struct CompositeDisposableTests {
    // MARK: Basics

    @Test("an empty composite is not disposed until dispose()")
    func emptyComposite() {
        let composite = CompositeDisposable()
        #expect(!composite.isDisposed)
        composite.dispose()
        #expect(composite.isDisposed)
        composite.dispose()
        #expect(composite.isDisposed)
    }

    @Test("members are disposed of once, in insertion order")
    func disposesMembersInInsertionOrder() {
        let log = DisposalLog()
        let composite = CompositeDisposable()
        let probes = (0..<3).map { DisposalProbe($0, log: log) }

        composite.add(probes[0])
        composite.add { log.append(100) }
        composite.add(probes[1])
        composite += { log.append(101) }
        composite += probes[2]

        #expect(log.all.isEmpty, "nothing is disposed of before dispose()")
        #expect(probes.allSatisfy { !$0.isDisposed })

        composite.dispose()
        #expect(log.all == [0, 100, 1, 101, 2])
        #expect(probes.map(\.disposeCount) == [1, 1, 1])

        composite.dispose()
        #expect(log.all == [0, 100, 1, 101, 2], "a second dispose() does nothing")
        #expect(probes.map(\.disposeCount) == [1, 1, 1])
    }

    @Test("members are released after disposal")
    func membersAreReleasedAfterDisposal() {
        let composite = CompositeDisposable()
        let weakMember: WeakBox<DisposalProbe>
        let weakCaptured: WeakBox<Tracked>
        do {
            let member = DisposalProbe()
            let captured = Tracked()
            weakMember = WeakBox(member)
            weakCaptured = WeakBox(captured)
            composite.add(member)
            composite.add { _ = captured.id }
        }
        #expect(weakMember.object != nil)
        #expect(weakCaptured.object != nil)
        composite.dispose()
        #expect(weakMember.object == nil)
        #expect(weakCaptured.object == nil)
    }

    // MARK: add

    @Test("add after disposal disposes of the addition at once and returns nil")
    func addAfterDisposal() {
        let composite = CompositeDisposable()
        composite.dispose()

        let probe = DisposalProbe()
        let handle = composite.add(probe)
        #expect(handle == nil)
        #expect(probe.disposeCount == 1)

        let runs = Counter()
        let actionHandle = composite.add { runs.increment() }
        #expect(actionHandle == nil)
        #expect(runs.value == 1)

        let viaOperator = DisposalProbe()
        #expect((composite += viaOperator) == nil)
        #expect(viaOperator.disposeCount == 1)

        #expect((composite += { runs.increment() }) == nil)
        #expect(runs.value == 2)
    }

    @Test("add(nil) returns nil and changes nothing")
    func addNil() {
        let composite = CompositeDisposable()
        let member = DisposalProbe()
        composite.add(member)

        #expect(composite.add(nil) == nil)
        #expect((composite += nil) == nil)
        #expect(!composite.isDisposed)

        composite.dispose()
        #expect(member.disposeCount == 1)
        #expect(composite.add(nil) == nil)
    }

    @Test("add returns a live handle for a live composite")
    func addReturnsHandle() {
        let composite = CompositeDisposable()
        let handle = composite.add(DisposalProbe())
        let actionHandle = composite.add {}
        #expect(handle != nil)
        #expect(actionHandle != nil)
        #expect(handle?.isDisposed == false)
        #expect(actionHandle?.isDisposed == false)
    }

    @Test("the handle removes its member without disposing of it")
    func handleRemovesWithoutDisposing() throws {
        let log = DisposalLog()
        let composite = CompositeDisposable()
        let first = DisposalProbe(1, log: log)
        let second = DisposalProbe(2, log: log)
        let third = DisposalProbe(3, log: log)
        composite.add(first)
        let handle = try #require(composite.add(second))
        composite.add(third)

        handle.dispose()
        #expect(handle.isDisposed)
        #expect(second.disposeCount == 0, "removing must not dispose of the member")
        #expect(!composite.isDisposed, "removing a member does not dispose of the composite")

        composite.dispose()
        #expect(log.all == [1, 3])
        #expect(first.disposeCount == 1)
        #expect(second.disposeCount == 0)
        #expect(third.disposeCount == 1)

        handle.dispose()
        #expect(second.disposeCount == 0)
    }

    @Test("the handle of an action cancels the action")
    func actionHandleCancelsAction() throws {
        let composite = CompositeDisposable()
        let runs = Counter()
        let added = composite += { runs.increment() }
        let handle = try #require(added)
        handle.dispose()
        composite.dispose()
        #expect(runs.value == 0)
    }

    @Test("disposing a handle after the composite was disposed of changes nothing")
    func handleAfterCompositeDisposal() throws {
        let composite = CompositeDisposable()
        let member = DisposalProbe()
        let handle = try #require(composite.add(member))
        composite.dispose()
        #expect(member.disposeCount == 1)
        handle.dispose()
        #expect(member.disposeCount == 1)
        #expect(composite.isDisposed)
    }

    @Test("each handle removes only its own member, even for the same disposable added twice")
    func handlesAreIndependent() throws {
        let composite = CompositeDisposable()
        let member = DisposalProbe()
        let firstHandle = try #require(composite.add(member))
        _ = try #require(composite.add(member))
        firstHandle.dispose()
        composite.dispose()
        #expect(member.disposeCount == 1, "one of the two registrations remains")
    }

    @Test("the removed member is released by the composite")
    func removedMemberIsReleased() throws {
        let composite = CompositeDisposable()
        let weakMember: WeakBox<DisposalProbe>
        let handle: Disposable
        do {
            let member = DisposalProbe()
            weakMember = WeakBox(member)
            handle = try #require(composite.add(member))
        }
        #expect(weakMember.object != nil)
        handle.dispose()
        #expect(weakMember.object == nil)
        withExtendedLifetime(composite) {}
    }

    @Test("a handle does not keep the composite alive")
    func handleDoesNotRetainComposite() throws {
        let weakComposite: WeakBox<CompositeDisposable>
        let handle: Disposable
        let member = DisposalProbe()
        do {
            let composite = CompositeDisposable()
            weakComposite = WeakBox(composite)
            handle = try #require(composite.add(member))
        }
        #expect(weakComposite.object == nil)
        handle.dispose()
        #expect(member.disposeCount == 0)
    }

    // MARK: Sequence initializers

    @Test("init from a sequence of disposables keeps them, in order, until dispose()")
    func initFromSequence() {
        let log = DisposalLog()
        let probes = (0..<4).map { DisposalProbe($0, log: log) }
        let composite = CompositeDisposable(probes.map { $0 as Disposable })

        #expect(!composite.isDisposed)
        #expect(log.all.isEmpty)
        composite.dispose()
        #expect(log.all == [0, 1, 2, 3])
        #expect(probes.allSatisfy { $0.disposeCount == 1 })
    }

    @Test("init from a non-array sequence")
    func initFromLazySequence() {
        let log = DisposalLog()
        let probes = (0..<3).map { DisposalProbe($0, log: log) }
        let composite = CompositeDisposable(probes.lazy.reversed().map { $0 as Disposable })
        composite.dispose()
        #expect(log.all == [2, 1, 0])
    }

    @Test("init from a sequence of optionals skips the nils")
    func initFromOptionals() {
        let log = DisposalLog()
        let a = DisposalProbe(1, log: log)
        let b = DisposalProbe(2, log: log)
        let members: [Disposable?] = [nil, a, nil, b, nil]
        let composite = CompositeDisposable(members)

        #expect(!composite.isDisposed)
        composite.dispose()
        #expect(log.all == [1, 2])
        #expect(a.disposeCount == 1)
        #expect(b.disposeCount == 1)
    }

    @Test("init from an empty sequence or all nils")
    func initFromEmptySequences() {
        let empty = CompositeDisposable([Disposable]())
        #expect(!empty.isDisposed)
        empty.dispose()
        #expect(empty.isDisposed)

        let nils = CompositeDisposable([Disposable?](repeating: nil, count: 3))
        #expect(!nils.isDisposed)
        let later = DisposalProbe()
        nils.add(later)
        nils.dispose()
        #expect(later.disposeCount == 1)
    }

    // MARK: Concurrency

    @Test("eight threads disposing at once dispose each member exactly once")
    func concurrentDispose() {
        var bad: [[Int]] = []
        for _ in 0..<50 {
            let probes = (0..<10).map { DisposalProbe($0) }
            let composite = CompositeDisposable(probes.map { $0 as Disposable })
            runConcurrently(8) { _ in composite.dispose() }
            let counts = probes.map(\.disposeCount)
            if counts.contains(where: { $0 != 1 }) { bad.append(counts) }
            #expect(composite.isDisposed)
        }
        #expect(bad.isEmpty, "dispose counts that were not all 1: \(bad)")
    }

    @Test("adds racing dispose lose no member: each is disposed of exactly once")
    func concurrentAddRacingDispose() {
        let iterations = 60
        let adders = 7
        let perAdder = 40
        var lost = 0
        var doubled = 0
        let nilHandleButNotDisposed = Counter()
        let addedBeforeDisposal = Counter()
        let rejectedAfterDisposal = Counter()

        for iteration in 0..<iterations {
            let composite = CompositeDisposable()
            let probes = (0..<adders).map { adder in
                (0..<perAdder).map { DisposalProbe(adder * 1000 + $0) }
            }
            // Vary where the disposal lands among the adds.
            let disposeDelay = iteration % 20

            runConcurrently(adders + 1) { index in
                if index == adders {
                    for _ in 0..<(disposeDelay * 5) { _ = composite.isDisposed }
                    composite.dispose()
                } else {
                    for probe in probes[index] {
                        if composite.add(probe) == nil {
                            rejectedAfterDisposal.increment()
                            // A nil handle means the composite was disposed of and the
                            // addition must already have been disposed of.
                            if probe.disposeCount != 1 { nilHandleButNotDisposed.increment() }
                        } else {
                            addedBeforeDisposal.increment()
                        }
                    }
                }
            }

            for probe in probes.joined() {
                if probe.disposeCount == 0 { lost += 1 }
                if probe.disposeCount > 1 { doubled += 1 }
            }
        }

        #expect(lost == 0, "members never disposed of")
        #expect(doubled == 0, "members disposed of more than once")
        #expect(nilHandleButNotDisposed.value == 0)
        #expect(addedBeforeDisposal.value + rejectedAfterDisposal.value == iterations * adders * perAdder)
    }

    @Test("adds, removals and dispose racing: kept members once, removed members at most once")
    func concurrentAddRemoveDispose() {
        var badKept = 0
        var badRemoved = 0
        for iteration in 0..<40 {
            let composite = CompositeDisposable()
            let kept = (0..<4).map { t in (0..<30).map { DisposalProbe(t * 100 + $0) } }
            let removed = (0..<3).map { t in (0..<30).map { DisposalProbe(t * 100 + $0) } }
            let spin = (iteration % 10) * 10

            runConcurrently(8) { index in
                switch index {
                case 0..<4:
                    for probe in kept[index] { composite.add(probe) }
                case 4..<7:
                    for probe in removed[index - 4] { composite.add(probe)?.dispose() }
                default:
                    for _ in 0..<spin { _ = composite.isDisposed }
                    composite.dispose()
                }
            }
            badKept += kept.joined().filter { $0.disposeCount != 1 }.count
            badRemoved += removed.joined().filter { $0.disposeCount > 1 }.count
        }
        #expect(badKept == 0)
        #expect(badRemoved == 0)
    }

    // MARK: Re-entrancy

    @Test("a member that disposes of the composite again does not deadlock; every member runs once")
    func reentrantDisposeFromMember() {
        let log = DisposalLog()
        let composite = CompositeDisposable()
        let finished = withWatchdog(seconds: 300, "re-entrant CompositeDisposable.dispose") {
            composite.add(DisposalProbe(1, log: log))
            composite.add { [composite] in
                log.append(2)
                composite.dispose()
            }
            composite.add(DisposalProbe(3, log: log))
            composite.dispose()
        }
        // On a timeout the watchdog has recorded the failure; the objects may still be locked.
        guard finished else { return }
        #expect(log.all == [1, 2, 3])
        #expect(composite.isDisposed)
    }

    @Test("a member that adds to the composite while it is disposed of: the addition is disposed of at once")
    func reentrantAddFromMember() {
        struct Outcome: Sendable {
            var handleWasNil: Bool?
            var isDisposedInside: Bool?
        }
        let outcome = Locked(Outcome())
        let log = DisposalLog()
        let composite = CompositeDisposable()
        let finished = withWatchdog(seconds: 300, "add from inside CompositeDisposable.dispose") {
            composite.add { [composite] in
                log.append(1)
                let disposedInside = composite.isDisposed
                let handle = composite.add(DisposalProbe(10, log: log))
                outcome.withLock {
                    $0.handleWasNil = handle == nil
                    $0.isDisposedInside = disposedInside
                }
                log.append(11)
            }
            composite.add(DisposalProbe(2, log: log))
            composite.dispose()
        }
        // On a timeout the watchdog has recorded the failure; the objects may still be locked.
        guard finished else { return }
        let result = outcome.withLock { $0 }
        #expect(result.isDisposedInside == true)
        #expect(result.handleWasNil == true)
        #expect(log.all == [1, 10, 11, 2], "the late addition is disposed of synchronously inside add")
    }

    @Test("removed and disposed members are released outside the lock (their deinit may use the composite)")
    func membersReleasedOutsideLock() {
        let deinits = Counter()
        let composite = CompositeDisposable()
        let finished = withWatchdog(seconds: 300, "member deinit touching the composite") {
            // Removal through the handle.
            var handle: Disposable?
            do {
                let hook = DeinitHookDisposable { [composite] in
                    _ = composite.isDisposed
                    deinits.increment()
                }
                handle = composite.add(hook)
            }
            handle?.dispose()
            handle = nil

            // Disposal of the whole composite.
            do {
                let hook = DeinitHookDisposable { [composite] in
                    composite.add(AnyDisposable())
                    deinits.increment()
                }
                composite.add(hook)
            }
            composite.dispose()
        }
        // On a timeout the watchdog has recorded the failure; the objects may still be locked.
        guard finished else { return }
        #expect(deinits.value == 2)
    }
}
