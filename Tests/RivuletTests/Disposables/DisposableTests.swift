import Testing
@testable import Rivulet
import RivuletContracts

// MARK: - Helpers shared by the disposable and lifetime tests

/// A disposable that counts every call to `dispose()`.
///
/// Unlike the library's disposables it is deliberately *not* idempotent: a container that calls
/// `dispose()` on a member twice shows up as a count of 2 instead of being hidden by the member.
final class DisposalProbe: Disposable {
    let id: Int
    private let calls = Counter()
    private let log: DisposalLog?

    init(_ id: Int = 0, log: DisposalLog? = nil) {
        self.id = id
        self.log = log
    }

    /// How many times `dispose()` has been called.
    var disposeCount: Int { calls.value }

    var isDisposed: Bool { calls.value > 0 }

    func dispose() {
        calls.increment()
        log?.append(id)
    }
}

/// A thread-safe, ordered record of ids.
final class DisposalLog: Sendable {
    private let entries = Locked<[Int]>([])

    var all: [Int] { entries.withLock { $0 } }

    func append(_ id: Int) {
        entries.withLock { $0.append(id) }
    }
}

/// A disposable that runs `onDeinit` when it is deinitialized; used to check that containers do
/// not release their members while holding their internal lock.
final class DeinitHookDisposable: Disposable {
    private let onDeinit: @Sendable () -> Void
    private let calls = Counter()

    init(onDeinit: @escaping @Sendable () -> Void) {
        self.onDeinit = onDeinit
    }

    var isDisposed: Bool { calls.value > 0 }

    func dispose() { calls.increment() }

    deinit { onDeinit() }
}

// MARK: - AnyDisposable

@Suite("AnyDisposable", .checksLiveObjects)
struct AnyDisposableTests {
    @Test("the action runs on the first dispose and never again")
    func actionRunsExactlyOnce() {
        let runs = Counter()
        let disposable = AnyDisposable { runs.increment() }

        #expect(!disposable.isDisposed)
        #expect(runs.value == 0)

        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(runs.value == 1)

        disposable.dispose()
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(runs.value == 1)
    }

    @Test("the action does not run if the disposable is never disposed of")
    func actionDoesNotRunWithoutDispose() {
        let runs = Counter()
        do {
            let disposable = AnyDisposable { runs.increment() }
            #expect(!disposable.isDisposed)
        }
        #expect(runs.value == 0)
    }

    @Test("the empty initializer tracks isDisposed")
    func emptyInitializerTracksDisposal() {
        let disposable = AnyDisposable()
        #expect(!disposable.isDisposed)
        disposable.dispose()
        #expect(disposable.isDisposed)
        disposable.dispose()
        #expect(disposable.isDisposed)
    }

    @Test("wrapping a disposable forwards the first dispose, once")
    func wrappingForwardsDisposal() {
        let inner = DisposalProbe()
        let wrapper = AnyDisposable(inner)

        #expect(!wrapper.isDisposed)
        #expect(inner.disposeCount == 0)

        wrapper.dispose()
        #expect(wrapper.isDisposed)
        #expect(inner.disposeCount == 1)

        wrapper.dispose()
        #expect(inner.disposeCount == 1)
    }

    @Test("wrapping a library disposable makes it disposed")
    func wrappingLibraryDisposable() {
        let composite = CompositeDisposable()
        let member = DisposalProbe()
        composite.add(member)
        let wrapper = AnyDisposable(composite)

        wrapper.dispose()
        #expect(composite.isDisposed)
        #expect(member.disposeCount == 1)
    }

    @Test("the action and what it captures are released once it has run")
    func actionIsReleasedAfterDisposal() {
        let weakTracked: WeakBox<Tracked>
        let disposable: AnyDisposable
        do {
            let tracked = Tracked(1)
            weakTracked = WeakBox(tracked)
            disposable = AnyDisposable { _ = tracked.id }
        }
        #expect(weakTracked.object != nil, "the pending action keeps its captures alive")
        disposable.dispose()
        #expect(weakTracked.object == nil, "the action must be released after it ran")
        withExtendedLifetime(disposable) {}
    }

    @Test("eight threads disposing at once run the action exactly once")
    func concurrentDisposeRunsActionOnce() {
        let iterations = 100
        let totalRuns = Counter()
        var runsPerIteration: [Int] = []
        for _ in 0..<iterations {
            let runs = Counter()
            let disposable = AnyDisposable {
                runs.increment()
                totalRuns.increment()
            }
            runConcurrently(8) { _ in disposable.dispose() }
            runsPerIteration.append(runs.value)
            #expect(disposable.isDisposed)
        }
        #expect(runsPerIteration.allSatisfy { $0 == 1 }, "runs per iteration: \(runsPerIteration)")
        #expect(totalRuns.value == iterations)
    }

    @Test("eight threads disposing a wrapper dispose the wrapped disposable exactly once")
    func concurrentDisposeOfWrapper() {
        var counts: [Int] = []
        for _ in 0..<100 {
            let inner = DisposalProbe()
            let wrapper = AnyDisposable(inner)
            runConcurrently(8) { _ in wrapper.dispose() }
            counts.append(inner.disposeCount)
        }
        #expect(counts.allSatisfy { $0 == 1 }, "dispose counts: \(counts)")
    }

    @Test("an action that disposes its own disposable again neither deadlocks nor runs twice")
    func reentrantDisposeFromInsideAction() {
        struct Outcome: Sendable {
            var runs = 0
            var disposedSeenInside: Bool?
        }
        let outcome = Locked(Outcome())
        let slot = Locked<AnyDisposable?>(nil)

        let finished = withWatchdog(seconds: 300, "re-entrant AnyDisposable.dispose") {
            let disposable = AnyDisposable {
                let me = slot.withLock { $0 }
                let seen = me?.isDisposed
                outcome.withLock {
                    $0.runs += 1
                    $0.disposedSeenInside = seen
                }
                me?.dispose()
            }
            slot.withLock { $0 = disposable }
            disposable.dispose()
            slot.withLock { $0 = nil }
        }

        // On a timeout the watchdog has recorded the failure; the objects may still be locked.
        guard finished else { return }
        let result = outcome.withLock { $0 }
        #expect(result.runs == 1)
        #expect(result.disposedSeenInside == true, "isDisposed is already true while the action runs")
    }
}
