import Dispatch
import Testing

@testable import Rivulet

/// `Locked`'s lock (a `WordLock` on Linux, `os_unfair_lock` on Apple platforms) and a mailbox's
/// lock (its turn word): mutual exclusion under contention, and a thread that had to go to sleep
/// is woken by the unlock.
@Suite(.checksLiveObjects) struct WordLockTests {
    @Test func concurrentIncrementsUnderTheLockAreNeverLost() {
        let counter = Locked(0)
        let threads = 8
        let increments = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments {
                counter.withLock { $0 += 1 }
            }
        }
        #expect(counter.withLock { $0 } == threads * increments)
    }

    @Test func aMailboxsLockExcludesConcurrentTransitions() {
        // Plain read-modify-writes of the state under `withTurnLock` from many threads: a lost
        // update means two threads were inside the lock at once.
        let shared = SharedStorage(storage: MailboxStorage.make(CountingState()))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<20_000 {
                shared.storage.withTurnLock { state, _ in state.count += 1 }
            }
        }
        #expect(shared.storage.withLock { $0.count } == 80_000)
    }

    @Test func aMailboxsTailIsItsTurnWordAlone() {
        // The turn word is the mailbox's lock too: no lock of its own beside it.
        #expect(MemoryLayout<MailboxSynchronization>.stride == 8)
    }

    @Test func aMailboxsLockAndTurnKeepTheirExclusionWhenMixed() {
        // Threads mixing `withLock`, `withTurnLock` and the uncontended claim and release. Lock
        // holders increment the state, turn owners a counter of their own, each with a plain
        // read-modify-write: a lost update means two lock holders, or two turn owners, were
        // inside at once. A turn owner whose release fails (a lock holder froze the word) gives
        // the turn back under the lock; one that finds the turn held takes it under the lock when
        // it is free.
        let shared = SharedStorage(storage: MailboxStorage.make(CountingState()))
        let turnCounter = SharedCounter()
        let rounds = 20_000
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let thread = ThreadID.current
            for round in 0..<rounds {
                switch (round &+ worker) % 3 {
                case 0:
                    shared.storage.withLock { $0.count += 1 }
                case 1:
                    shared.storage.withTurnLock { state, _ in state.count += 1 }
                default:
                    var owns = shared.storage.claimTurnIfIdle(thread)
                    if !owns {
                        owns = shared.storage.withTurnLock { state, owner in
                            guard owner == .none else {
                                state.missed += 1
                                return false
                            }
                            owner = TurnOwner(thread)
                            return true
                        }
                    }
                    guard owns else { continue }
                    turnCounter.value += 1
                    if !shared.storage.releaseTurnIfUncontended(thread) {
                        shared.storage.withTurnLock { _, owner in
                            precondition(owner == TurnOwner(thread), "the turn changed hands while owned")
                            owner = .none
                        }
                    }
                }
            }
        }
        let (count, missed) = shared.storage.withLock { ($0.count, $0.missed) }
        let lockRounds = (0..<4).reduce(0) { total, worker in
            total + (0..<rounds).filter { ($0 &+ worker) % 3 != 2 }.count
        }
        #expect(count == lockRounds)
        #expect(turnCounter.value + missed == 4 * rounds - lockRounds)
        #expect(shared.storage.withUnsafeMutablePointerToElements { MailboxSynchronization.turn($0).loadRelaxed() } == 0)
    }

    #if !canImport(Darwin)
    @Test func theLockIsFourBytes() {
        #expect(MemoryLayout<PlatformLock>.size == 4)
    }

    @Test func aThreadAsleepOnAMailboxsLockIsWokenByTheUnlock() {
        let storage = SharedStorage(storage: MailboxStorage.make(CountingState()))
        let turnWord = storage.storage.withUnsafeMutablePointerToElements { MailboxSynchronization.turn($0) }
        let held = MailboxTurnWord.lock(turnWord)
        #expect(held == 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            storage.storage.withTurnLock { state, _ in state.count += 1 }
            finished.signal()
        }
        // The contender sets the sleepers bit once it stops spinning; wait for that, so that the
        // unlock below must wake it from the parking lot.
        let sleepers = MailboxTurnWord.sleepersBit
        var polls = 0
        while turnWord.loadRelaxed() & sleepers == 0, polls < 300_000 {
            polls += 1
            usleepForTest()
        }
        #expect(turnWord.loadRelaxed() == MailboxTurnWord.lockedBit | sleepers)
        storage.storage.withUnsafeMutablePointerToHeader { $0.pointee.count = 41 }
        MailboxTurnWord.unlock(turnWord, storing: 0)
        #expect(finished.wait(timeout: .now() + 300) == .success)
        #expect(storage.storage.withLock { $0.count } == 42)
        // The woken thread took the lock with the sleepers bit, and its unlock cleared it.
        #expect(turnWord.loadRelaxed() == 0)
    }

    @Test func aThreadThatWentToSleepOnTheLockIsWokenByTheUnlock() {
        let lock = UnsafeMutablePointer<WordLock>.allocate(capacity: 1)
        defer { lock.deallocate() }
        PlatformLocking.initialize(lock)
        PlatformLocking.lock(lock)
        let shared = SharedCounter()
        let finished = DispatchSemaphore(value: 0)
        let address = UInt(bitPattern: lock)
        DispatchQueue.global().async {
            let lock = UnsafeMutablePointer<WordLock>(bitPattern: address).unsafelyUnwrapped
            PlatformLocking.lock(lock)
            shared.value += 1
            PlatformLocking.unlock(lock)
            finished.signal()
        }
        // The contender marks the word 2 ("a thread may be sleeping") once it stops spinning;
        // wait for that, so that the unlock below must wake it from the parking lot.
        var polls = 0
        while WordLock.state(lock) != 2, polls < 300_000 {
            polls += 1
            usleepForTest()
        }
        #expect(WordLock.state(lock) == 2)
        shared.value = 41
        PlatformLocking.unlock(lock)
        #expect(finished.wait(timeout: .now() + 300) == .success)
        PlatformLocking.lock(lock)
        #expect(shared.value == 42)
        #expect(WordLock.isLocked(lock))
        PlatformLocking.unlock(lock)
        #expect(!WordLock.isLocked(lock))
        PlatformLocking.destroy(lock)
    }

    @Test func manyLocksSharingParkingBucketsHandOverCorrectly() {
        // More locks than parking buckets, each contended by several threads: sleepers of
        // different locks share a bucket's queue, and each unlock must wake a sleeper of its own
        // lock (a wake-up lost to another lock would leave a thread asleep for ever).
        let locks = (0..<200).map { _ in Locked(0) }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<2_000 {
                let lock = locks[(round &* 7 &+ worker) % locks.count]
                lock.withLock { $0 += 1 }
            }
        }
        #expect(locks.reduce(0) { $0 + $1.withLock { $0 } } == 8_000)
    }
    #endif
}

/// A state for a bare `MailboxStorage`.
private struct CountingState: MailboxGuardedState {
    var count = 0
    /// Claims of the turn that found it held.
    var missed = 0
    var needsSlowPath: Bool { false }
}

/// A mailbox storage shared by the test's threads.
private struct SharedStorage: @unchecked Sendable {
    // @unchecked Sendable: the state is only touched under the storage's own lock.
    let storage: MailboxStorage<CountingState>
}

/// A counter that the test's threads hand over through the lock (or the turn) under test.
private final class SharedCounter: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched by the thread holding the lock (or the turn)
    // under test.
    var value = 0
}

#if !canImport(Darwin)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
import RivuletContracts
#endif

/// A short pause while polling (a millisecond).
private func usleepForTest() {
    usleep(1_000)
}
#endif
