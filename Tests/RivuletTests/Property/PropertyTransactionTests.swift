import Testing
@testable import Rivulet
import RivuletContracts

/// a → b = a × 10, a → c = a + 1, d = combineLatest(b, c): the classic diamond.
private struct Diamond {
    let a = MutableProperty(1)
    let b: Property<Int>
    let c: Property<Int>
    let d: Property<(Int, Int)>
    let emitted = EventRecorder<[Int], Never>()

    init() {
        b = a.map { $0 * 10 }
        c = a.map { $0 + 1 }
        d = b.combineLatest(with: c)
        d.signal.map { [$0.0, $0.1] }.observe(emitted.observer)
    }
}

@Suite(.checksLiveObjects) struct PropertyTransactionTests {
    @Test func withoutATransactionADiamondShowsAGlitch() {
        let diamond = Diamond()
        diamond.a.value = 2
        // (20, 2) never existed: b had changed, c had not yet.
        #expect(diamond.emitted.values == [[20, 2], [20, 3]])
    }

    @Test func insideATransactionTheCombinationEmitsOnceAndConsistently() {
        let diamond = Diamond()
        var insideValue: [Int] = []
        var bInside = 0
        PropertyTransaction.perform {
            diamond.a.value = 2
            // One-to-one derivations follow at once; the combination catches up at the end.
            bInside = diamond.b.value
            insideValue = [diamond.d.value.0, diamond.d.value.1]
            #expect(PropertyTransaction.isActive)
        }
        #expect(bInside == 20)
        #expect(insideValue == [10, 2])
        #expect(diamond.emitted.values == [[20, 3]])
        #expect(diamond.d.value == (20, 3))
        #expect(!PropertyTransaction.isActive)
    }

    @Test func severalWritesInOneTransactionEmitTheFinalCombinationOnce() {
        let diamond = Diamond()
        PropertyTransaction.perform {
            diamond.a.value = 2
            diamond.a.value = 3
        }
        #expect(diamond.emitted.values == [[30, 4]])
    }

    @Test func deeperCombinationsPublishAfterShallowerOnes() {
        let diamond = Diamond()
        let sum = diamond.d.map { $0.0 + $0.1 }
        let deeper = sum.combineLatest(with: diamond.b)
        let seen = EventRecorder<[Int], Never>()
        deeper.signal.map { [$0.0, $0.1] }.observe(seen.observer)
        PropertyTransaction.perform { diamond.a.value = 2 }
        // Never (12, 20): the old sum with the new b.
        #expect(seen.values == [[23, 20]])
    }

    @Test func booleanCombinationsAreGlitchFreeToo() {
        let flag = MutableProperty(false)
        // Always true in logic; only a glitch can make it false.
        let always = flag.or(flag.negate())
        let seen = EventRecorder<Bool, Never>()
        always.signal.observe(seen.observer)
        flag.value = true
        #expect(seen.values == [false, true])
        PropertyTransaction.perform { flag.value = false }
        PropertyTransaction.perform { flag.value = true }
        #expect(seen.values == [false, true, true, true])
    }

    @Test func nestedTransactionsJoinTheOuterOne() {
        let diamond = Diamond()
        PropertyTransaction.perform {
            PropertyTransaction.perform { diamond.a.value = 2 }
            #expect(diamond.emitted.values.isEmpty)
            diamond.a.value = 5
        }
        #expect(diamond.emitted.values == [[50, 6]])
    }

    @Test func aThrowingBodyStillPublishesItsChanges() {
        let diamond = Diamond()
        #expect(throws: TestError.self) {
            try PropertyTransaction.perform {
                diamond.a.value = 4
                throw TestError(1)
            }
        }
        #expect(diamond.emitted.values == [[40, 5]])
    }

    @Test func writesFromObserversDuringTheFlushJoinTheTransaction() {
        let diamond = Diamond()
        let other = MutableProperty(0)
        let combined = other.combineLatest(with: diamond.d.map { $0.0 })
        let seen = EventRecorder<[Int], Never>()
        combined.signal.map { [$0.0, $0.1] }.observe(seen.observer)
        diamond.d.signal.observeValues { other.value = $0.1 }
        PropertyTransaction.perform { diamond.a.value = 2 }
        #expect(seen.values == [[3, 20]])
    }

    @Test func otherThreadsAreNotBatched() {
        let diamond = Diamond()
        PropertyTransaction.perform {
            withWatchdog {
                #expect(!PropertyTransaction.isActive)
                diamond.a.value = 7
            }
            #expect(diamond.emitted.values == [[70, 2], [70, 8]])
        }
        #expect(diamond.emitted.values == [[70, 2], [70, 8]])
    }
}
