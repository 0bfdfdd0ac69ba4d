import Testing
@testable import Rivulet
import RivuletContracts

@Suite("ScopedDisposable", .checksLiveObjects)
struct ScopedDisposableTests {
    @Test("the inner is disposed of when the scoped disposable deinitializes")
    func disposesInnerOnDeinit() {
        let runs = Counter()
        let inner = AnyDisposable { runs.increment() }
        do {
            let scoped = ScopedDisposable(inner)
            #expect(scoped.inner === inner)
            #expect(!scoped.isDisposed)
            #expect(runs.value == 0)
            withExtendedLifetime(scoped) {}
        }
        #expect(runs.value == 1)
        #expect(inner.isDisposed)
    }

    @Test("dispose() disposes of the inner; the later deinit does not run the action again")
    func explicitDispose() {
        let runs = Counter()
        let inner = AnyDisposable { runs.increment() }
        do {
            let scoped = ScopedDisposable(inner)
            scoped.dispose()
            #expect(scoped.isDisposed)
            #expect(inner.isDisposed)
            #expect(runs.value == 1)
            scoped.dispose()
            #expect(runs.value == 1)
        }
        #expect(runs.value == 1)
    }

    @Test("isDisposed reflects the inner")
    func isDisposedForwardsInner() {
        let inner = CompositeDisposable()
        let scoped = ScopedDisposable(inner)
        #expect(!scoped.isDisposed)
        inner.dispose()
        #expect(scoped.isDisposed)
    }

    @Test("the convenience init wraps any disposable in an AnyDisposable")
    func wrappingConvenienceInit() {
        let probe = DisposalProbe()
        do {
            let existential: Disposable = probe
            let scoped: ScopedDisposable<AnyDisposable> = ScopedDisposable(existential)
            #expect(!scoped.isDisposed)
            #expect(probe.disposeCount == 0)
            withExtendedLifetime(scoped) {}
        }
        #expect(probe.disposeCount == 1)

        let explicit = DisposalProbe()
        do {
            let scoped = ScopedDisposable(explicit as Disposable)
            scoped.dispose()
            #expect(scoped.isDisposed)
            #expect(explicit.disposeCount == 1)
            withExtendedLifetime(scoped) {}
        }
        #expect(explicit.disposeCount == 1, "the AnyDisposable wrapper forwards only the first disposal")
    }

    @Test("the scoped disposable does not outlive its scope")
    func scopedIsReleased() {
        let weakScoped: WeakBox<ScopedDisposable<AnyDisposable>>
        do {
            let scoped = ScopedDisposable(AnyDisposable())
            weakScoped = WeakBox(scoped)
            #expect(weakScoped.object != nil)
        }
        #expect(weakScoped.object == nil)
    }

    @Test("+= on a scoped composite adds disposables and actions, disposed of on deinit")
    func plusEqualsOnScopedComposite() throws {
        let log = DisposalLog()
        let first = DisposalProbe(1, log: log)
        let removed = DisposalProbe(2, log: log)
        do {
            let scoped = ScopedDisposable(CompositeDisposable())
            let firstHandle = scoped += first
            #expect(firstHandle != nil)
            scoped += { log.append(3) }
            let added = scoped += removed
            let removedHandle = try #require(added)
            removedHandle.dispose()
            #expect((scoped += nil) == nil)
            #expect(log.all.isEmpty)
            withExtendedLifetime(scoped) {}
        }
        #expect(log.all == [1, 3])
        #expect(first.disposeCount == 1)
        #expect(removed.disposeCount == 0)
    }

    @Test("+= on a disposed scoped composite disposes of the addition at once")
    func plusEqualsAfterDisposal() {
        let scoped = ScopedDisposable(CompositeDisposable())
        scoped.dispose()
        #expect(scoped.isDisposed)

        let probe = DisposalProbe()
        #expect((scoped += probe) == nil)
        #expect(probe.disposeCount == 1)

        let runs = Counter()
        #expect((scoped += { runs.increment() }) == nil)
        #expect(runs.value == 1)
    }

    @Test("eight threads disposing at once run the inner action exactly once")
    func concurrentDispose() {
        var counts: [Int] = []
        for _ in 0..<50 {
            let runs = Counter()
            do {
                let scoped = ScopedDisposable(AnyDisposable { runs.increment() })
                runConcurrently(8) { _ in scoped.dispose() }
            }
            counts.append(runs.value)
        }
        #expect(counts.allSatisfy { $0 == 1 }, "runs: \(counts)")
    }
}
