import Testing
@testable import Rivulet
import RivuletContracts

@Suite("Lifetime", .checksLiveObjects)
struct LifetimeTests {
    // MARK: Ending

    @Test("make(): the lifetime ends when the token deinitializes")
    func endsWhenTokenDeinitializes() {
        let runs = Counter()
        let lifetime: Lifetime
        let weakToken: WeakBox<Lifetime.Token>
        do {
            let made = Lifetime.make()
            lifetime = made.lifetime
            weakToken = WeakBox(made.token)
            lifetime.observeEnded { runs.increment() }
            #expect(!lifetime.hasEnded)
            #expect(runs.value == 0)
            withExtendedLifetime(made.token) {}
        }
        #expect(weakToken.object == nil, "the lifetime must not keep its token alive")
        #expect(lifetime.hasEnded)
        #expect(runs.value == 1)
    }

    @Test("make(): the lifetime ends on token.dispose(), once")
    func endsOnTokenDispose() {
        let runs = Counter()
        let lifetime: Lifetime
        do {
            let (made, token) = Lifetime.make()
            lifetime = made
            lifetime.observeEnded { runs.increment() }
            token.dispose()
            #expect(lifetime.hasEnded)
            #expect(runs.value == 1)
            token.dispose()
            #expect(runs.value == 1)
        }
        // The token's deinit must not run the observation again.
        #expect(runs.value == 1)
        #expect(lifetime.hasEnded)
    }

    @Test("a lifetime made from a token directly ends with it")
    func lifetimeFromToken() {
        var token: Lifetime.Token? = Lifetime.Token()
        let lifetime = Lifetime(token!)
        let runs = Counter()
        lifetime.observeEnded { runs.increment() }
        #expect(!lifetime.hasEnded)
        token = nil
        #expect(lifetime.hasEnded)
        #expect(runs.value == 1)
    }

    @Test("two lifetimes from one token share its end")
    func twoLifetimesOneToken() {
        let token = Lifetime.Token()
        let a = Lifetime(token)
        let b = Lifetime(token)
        let runs = Counter()
        a.observeEnded { runs.increment() }
        b.observeEnded { runs.increment() }
        token.dispose()
        #expect(a.hasEnded)
        #expect(b.hasEnded)
        #expect(runs.value == 2)
    }

    @Test("a lifetime made from a composite ends when the composite is disposed of")
    func lifetimeFromComposite() {
        let composite = CompositeDisposable()
        let lifetime = Lifetime(composite)
        let runs = Counter()
        lifetime.observeEnded { runs.increment() }
        #expect(!lifetime.hasEnded)
        composite.dispose()
        #expect(lifetime.hasEnded)
        #expect(runs.value == 1)
    }

    @Test("Lifetime.empty has already ended")
    func emptyHasEnded() {
        #expect(Lifetime.empty.hasEnded)
        let runs = Counter()
        let handle = Lifetime.empty.observeEnded { runs.increment() }
        #expect(handle == nil)
        #expect(runs.value == 1)
        #expect(Lifetime.empty.hasEnded)
    }

    // MARK: observeEnded

    @Test("observeEnded runs every observation exactly once when the lifetime ends")
    func observeEndedRunsOnce() {
        let (lifetime, token) = Lifetime.make()
        let runs = (0..<5).map { _ in Counter() }
        for counter in runs { lifetime.observeEnded { counter.increment() } }
        #expect(runs.allSatisfy { $0.value == 0 })
        token.dispose()
        #expect(runs.allSatisfy { $0.value == 1 })
        token.dispose()
        #expect(runs.allSatisfy { $0.value == 1 })
    }

    @Test("observeEnded on an ended lifetime runs at once and returns nil")
    func observeEndedAfterEnd() {
        let (lifetime, token) = Lifetime.make()
        token.dispose()
        let runs = Counter()
        let handle = lifetime.observeEnded { runs.increment() }
        #expect(handle == nil)
        #expect(runs.value == 1)
    }

    @Test("the disposable returned by observeEnded cancels the observation")
    func observeEndedHandleCancels() throws {
        let (lifetime, token) = Lifetime.make()
        let cancelled = Counter()
        let kept = Counter()
        let handle = try #require(lifetime.observeEnded { cancelled.increment() })
        lifetime.observeEnded { kept.increment() }
        #expect(!handle.isDisposed)

        handle.dispose()
        #expect(handle.isDisposed)
        #expect(!lifetime.hasEnded, "cancelling an observation does not end the lifetime")
        #expect(cancelled.value == 0, "cancelling does not run the action")

        token.dispose()
        #expect(cancelled.value == 0)
        #expect(kept.value == 1)
    }

    // MARK: +=

    @Test("+= disposes of the disposable when the lifetime ends")
    func plusEqualsDisposesAtEnd() {
        let (lifetime, token) = Lifetime.make()
        let probe = DisposalProbe()
        let handle = lifetime += probe
        #expect(handle != nil)
        #expect(probe.disposeCount == 0)
        token.dispose()
        #expect(probe.disposeCount == 1)
    }

    @Test("+= on an ended lifetime disposes at once and returns nil; += nil returns nil")
    func plusEqualsAfterEnd() {
        let (lifetime, token) = Lifetime.make()
        #expect((lifetime += nil) == nil)
        token.dispose()
        let probe = DisposalProbe()
        #expect((lifetime += probe) == nil)
        #expect(probe.disposeCount == 1)

        let onEmpty = DisposalProbe()
        #expect((Lifetime.empty += onEmpty) == nil)
        #expect(onEmpty.disposeCount == 1)
    }

    @Test("the handle returned by += detaches the disposable without disposing of it")
    func plusEqualsHandleDetaches() throws {
        let (lifetime, token) = Lifetime.make()
        let probe = DisposalProbe()
        let added = lifetime += probe
        let handle = try #require(added)
        handle.dispose()
        token.dispose()
        #expect(probe.disposeCount == 0)
    }

    // MARK: Memory

    @Test("objects captured by an observation are released when the lifetime ends")
    func observationReleasedAtEnd() {
        let (lifetime, token) = Lifetime.make()
        let weakTracked: WeakBox<Tracked>
        do {
            let tracked = Tracked(7)
            weakTracked = WeakBox(tracked)
            lifetime.observeEnded { _ = tracked.id }
        }
        #expect(weakTracked.object != nil, "a pending observation keeps its captures alive")
        token.dispose()
        #expect(weakTracked.object == nil)
        withExtendedLifetime(lifetime) {}
    }

    @Test("an observation that captures its own lifetime forms no lasting cycle")
    func selfCapturingObservationIsReleased() {
        let weakLifetime: WeakBox<Lifetime>
        var token: Lifetime.Token?
        do {
            let made = Lifetime.make()
            token = made.token
            let lifetime = made.lifetime
            weakLifetime = WeakBox(lifetime)
            lifetime.observeEnded { withExtendedLifetime(lifetime) {} }
        }
        #expect(weakLifetime.object != nil, "the pending observation holds the lifetime")
        #expect(token != nil)
        token = nil
        #expect(weakLifetime.object == nil, "ending the lifetime releases the observation and the lifetime")
    }

    @Test("a lifetime that nobody observes is released while its token lives")
    func lifetimeReleasedBeforeToken() {
        let token = Lifetime.Token()
        let weakLifetime: WeakBox<Lifetime>
        let runs = Counter()
        do {
            let lifetime = Lifetime(token)
            weakLifetime = WeakBox(lifetime)
            lifetime.observeEnded { runs.increment() }
        }
        #expect(weakLifetime.object == nil)
        // The observations belong to the token's end, not to the Lifetime object.
        token.dispose()
        #expect(runs.value == 1)
    }

    @Test("a cancelled observation is released at once")
    func cancelledObservationReleased() throws {
        let (lifetime, token) = Lifetime.make()
        let weakTracked: WeakBox<Tracked>
        let handle: Disposable
        do {
            let tracked = Tracked()
            weakTracked = WeakBox(tracked)
            handle = try #require(lifetime.observeEnded { _ = tracked.id })
        }
        #expect(weakTracked.object != nil)
        handle.dispose()
        #expect(weakTracked.object == nil)
        #expect(!lifetime.hasEnded)
        withExtendedLifetime(token) {}
    }

    // MARK: Concurrency

    @Test("eight threads ending the lifetime at once run each observation exactly once")
    func concurrentEnd() {
        var wrong = 0
        for _ in 0..<50 {
            let (lifetime, token) = Lifetime.make()
            let runs = (0..<10).map { _ in Counter() }
            for counter in runs { lifetime.observeEnded { counter.increment() } }
            runConcurrently(8) { _ in token.dispose() }
            wrong += runs.filter { $0.value != 1 }.count
        }
        #expect(wrong == 0)
    }

    @Test("observations racing the end each run exactly once, before or after it")
    func concurrentObserveRacingEnd() {
        var wrong = 0
        var probesWrong = 0
        let ranAtOnceMismatch = Counter()
        for iteration in 0..<40 {
            let (lifetime, token) = Lifetime.make()
            let runs = (0..<6).map { _ in (0..<30).map { _ in Counter() } }
            let probes = (0..<30).map { DisposalProbe($0) }
            let spin = (iteration % 10) * 10
            runConcurrently(8) { index in
                switch index {
                case 0..<6:
                    for counter in runs[index] {
                        let handle = lifetime.observeEnded { counter.increment() }
                        // nil means the lifetime had ended, so the action already ran.
                        if handle == nil && counter.value != 1 { ranAtOnceMismatch.increment() }
                    }
                case 6:
                    for probe in probes { lifetime += probe }
                default:
                    for _ in 0..<spin { _ = lifetime.hasEnded }
                    token.dispose()
                }
            }
            wrong += runs.joined().filter { $0.value != 1 }.count
            probesWrong += probes.filter { $0.disposeCount != 1 }.count
        }
        #expect(wrong == 0)
        #expect(probesWrong == 0)
        #expect(ranAtOnceMismatch.value == 0)
    }

    // MARK: Re-entrancy
    //
    // The lifetime and its token live inside the watchdog's body: if the code under test
    // deadlocks, the token's deinit (which takes the same lock) must not hang the test itself.

    @Test("an observation that observes the same lifetime: the nested one runs at once")
    func reentrantObserveEnded() {
        let log = DisposalLog()
        let nestedHandleWasNil = Locked<Bool?>(nil)
        let finished = withWatchdog(seconds: 300, "observeEnded from inside an observation") {
            let (lifetime, token) = Lifetime.make()
            lifetime.observeEnded {
                log.append(1)
                let handle = lifetime.observeEnded { log.append(2) }
                nestedHandleWasNil.withLock { $0 = handle == nil }
                log.append(3)
            }
            lifetime.observeEnded { log.append(4) }
            token.dispose()
        }
        // On a timeout the watchdog has recorded the failure.
        guard finished else { return }
        #expect(log.all == [1, 2, 3, 4])
        #expect(nestedHandleWasNil.withLock { $0 } == true)
    }

    @Test("an observation that disposes of the token again does not deadlock or rerun")
    func reentrantTokenDispose() {
        let runs = Counter()
        let endedAfterward = Locked<Bool?>(nil)
        let probe = DisposalProbe()
        let finished = withWatchdog(seconds: 300, "token.dispose from inside an observation") {
            let (lifetime, token) = Lifetime.make()
            lifetime.observeEnded {
                runs.increment()
                token.dispose()
            }
            lifetime += probe
            token.dispose()
            endedAfterward.withLock { $0 = lifetime.hasEnded }
        }
        // On a timeout the watchdog has recorded the failure.
        guard finished else { return }
        #expect(runs.value == 1)
        #expect(probe.disposeCount == 1)
        #expect(endedAfterward.withLock { $0 } == true)
    }
}
