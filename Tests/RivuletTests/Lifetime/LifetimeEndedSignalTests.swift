import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct LifetimeEndedSignalTests {
    @Test func endedCompletesWhenTheLifetimeEnds() {
        let (lifetime, token) = Lifetime.make()
        let completed = Counter()
        lifetime.ended.observeCompleted { completed.increment() }
        #expect(completed.value == 0)
        token.dispose()
        #expect(completed.value == 1)
    }

    @Test func endedOfAnEndedLifetimeIsAlreadyTerminated() {
        let interrupted = Counter()
        let disposable = Lifetime.empty.ended.observeInterrupted { interrupted.increment() }
        #expect(disposable == nil)
        #expect(interrupted.value == 1)
    }
}
