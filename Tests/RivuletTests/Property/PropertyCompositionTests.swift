import Testing
@testable import Rivulet
import RivuletContracts

/// The values a property goes through while `changes` runs: its current value, then each change.
private func history<Value>(of property: Property<Value>, during changes: () -> Void) -> [Value] {
    let recorder = EventRecorder<Value, Never>()
    let disposable = property.producer.start(recorder.observer)
    changes()
    disposable.dispose()
    return recorder.values
}

@Suite(.checksLiveObjects) struct PropertyCompositionTests {
    @Test func map() {
        let source = MutableProperty(1)
        let doubled = source.map { $0 * 2 }
        #expect(
            history(of: doubled) {
                source.value = 2; source.value = 3
            } == [2, 4, 6])
        #expect(doubled.value == 6)
    }

    @Test func aTrailingClosureThatInterpolatesItsArgumentIsATransform() {
        let source = MutableProperty(1.5)
        let text = source.map { "\($0) °F" }
        #expect(text.value == "1.5 °F")
    }

    @Test func mapValueAndKeyPath() {
        let source = MutableProperty("ab")
        #expect(source.map(value: 0).value == 0)
        let count = source.map(\.count)
        source.value = "abcd"
        #expect(count.value == 4)
    }

    @Test func filterStartsAtInitialWhenTheCurrentValueFails() {
        let source = MutableProperty(1)
        let even = source.filter(initial: 0) { $0 % 2 == 0 }
        #expect(history(of: even) { for value in 2...5 { source.value = value } } == [0, 2, 4])
        let evenNow = MutableProperty(8).filter(initial: 0) { $0 % 2 == 0 }
        #expect(evenNow.value == 8)
    }

    @Test func combinePrevious() {
        let source = MutableProperty(1)
        let pairs = source.combinePrevious(0)
        let seen = history(of: pairs) { source.value = 2 }.map { [$0.0, $0.1] }
        #expect(seen == [[0, 1], [1, 2]])
    }

    @Test func skipRepeatsAndUniqueValues() {
        let first = MutableProperty(1)
        let distinct = first.skipRepeats()
        #expect(history(of: distinct) { for value in [1, 1, 2, 2, 1] { first.value = value } } == [1, 2, 1])
        let second = MutableProperty(1)
        let unique = second.uniqueValues()
        #expect(history(of: unique) { for value in [1, 2, 1, 3] { second.value = value } } == [1, 2, 3])
        let third = MutableProperty(1)
        let byParity = third.skipRepeats { $0 % 2 == $1 % 2 }
        #expect(history(of: byParity) { for value in [3, 4, 6, 7] { third.value = value } } == [1, 4, 7])
    }

    @Test func combineLatestWithAnotherProperty() {
        let a = MutableProperty(1)
        let b = MutableProperty("x")
        let both = a.combineLatest(with: b)
        let seen = history(of: both) {
            a.value = 2; b.value = "y"
        }.map { "\($0.0)\($0.1)" }
        #expect(seen == ["1x", "2x", "2y"])
    }

    @Test func zipPairsChangeByChange() {
        let a = MutableProperty(1)
        let b = MutableProperty(10)
        let zipped = a.zip(with: b)
        let seen = history(of: zipped) {
            a.value = 2; a.value = 3; b.value = 20
        }.map { $0.0 + $0.1 }
        #expect(seen == [11, 22])
    }

    @Test func staticCombineLatestAndZipOfManyProperties() {
        let a = MutableProperty(1)
        let b = MutableProperty(2)
        let c = MutableProperty(3)
        let d = Property(value: 4)
        let combined = Property<Int>.combineLatest(a, b, c, d)
        let sum = combined.map { (values: (Int, Int, Int, Int)) in values.0 + values.1 + values.2 + values.3 }
        #expect(sum.value == 10)
        c.value = 30
        #expect(sum.value == 37)
        let zipped = Property<Int>.zip(a, b, c)
        #expect(zipped.value == (1, 2, 30))
    }

    @Test func sequenceFormsAndTheEmptySentinel() {
        let properties = [MutableProperty(1), MutableProperty(2)]
        let latest = Property<Int>.combineLatest(properties)
        #expect(latest?.value == [1, 2])
        properties[1].value = 5
        #expect(latest?.value == [1, 5])
        #expect(Property<Int>.combineLatest([MutableProperty<Int>]()) == nil)
        #expect(Property<Int>.zip([MutableProperty<Int>](), emptySentinel: [9]).value == [9])
        #expect(Property<Int>.combineLatest([MutableProperty<Int>](), emptySentinel: []).value == [])
        #expect(Property<Int>.zip(properties)?.value == [1, 5])
    }

    @Test func flattenLatestFollowsTheCurrentInnerProperty() {
        let first = MutableProperty(1)
        let second = MutableProperty(10)
        let outer = MutableProperty(first)
        let flat = outer.flatten(.latest)
        let seen = history(of: flat) {
            first.value = 2
            outer.value = second
            first.value = 3
            second.value = 20
        }
        #expect(seen == [1, 2, 10, 20])
        let mapped = outer.flatMap(.latest) { $0.map { $0 + 1 } }
        #expect(mapped.value == 21)
    }

    @Test func booleanOperators() {
        let a = MutableProperty(true)
        let b = MutableProperty(false)
        #expect(a.negate().value == false)
        let and = a.and(b)
        let or = a.or(b)
        let all = Property.all([a, b])
        let any = Property.any(a, b)
        #expect([and.value, or.value, all.value, any.value] == [false, true, false, true])
        b.value = true
        #expect([and.value, or.value, all.value, any.value] == [true, true, true, true])
        a.value = false
        b.value = false
        #expect([and.value, or.value, all.value, any.value] == [false, false, false, false])
        #expect(Property.all([MutableProperty<Bool>]()).value == true)
        #expect(Property.any([MutableProperty<Bool>]()).value == false)
    }

    @Test func liftAppliesAProducerOperator() {
        let source = MutableProperty(1)
        let lifted = source.lift { $0.map { $0 * 3 } }
        source.value = 2
        #expect(lifted.value == 6)
        let binary: (Property<Int>) -> Property<Int> = source.lift { (mine: SignalProducer<Int, Never>) in
            { (other: SignalProducer<Int, Never>) in mine.combineLatest(with: other).map { $0 + $1 } }
        }
        #expect(binary(Property(value: 10)).value == 12)
    }

    @Test func composedPropertiesDoNotRetainTheirSources_R4() {
        weak var weakA: MutableProperty<Int>?
        weak var weakB: MutableProperty<Int>?
        var composed: [Any] = []
        do {
            let a = MutableProperty(1)
            let b = MutableProperty(2)
            weakA = a
            weakB = b
            composed = [
                a.map { $0 }, a.combineLatest(with: b), a.zip(with: b), Property<Int>.combineLatest(a, b),
                a.skipRepeats(), a.combinePrevious(0), a.filter(initial: 0) { _ in true },
                MutableProperty(a).flatten(.latest),
            ]
        }
        #expect(weakA == nil)
        #expect(weakB == nil)
        #expect(composed.count == 8)
    }
}
