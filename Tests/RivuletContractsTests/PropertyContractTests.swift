import Dispatch
import Foundation
import Rivulet
import RivuletContracts
import Testing

/// The property contract against Rivulet's properties, which must pass, and against properties
/// that break one clause each, written the way a plausible bug would be, which must be caught.
@Suite struct PropertyContractTests {
    /// Broken properties that deadlock cost the kit one deadline.
    static let shortDeadline = ContractOptions(deadline: 0.5)

    @Test func mutablePropertyPasses() {
        let report = PropertyContract.verify("MutableProperty", values: [1, 2, 3]) {
            let property = MutableProperty(0)
            return (property, { property.value = $0 })
        }
        #expect(report.isConforming, "\(report)")
        #expect(!report.clausesChecked.contains(.r4), "a standalone property has no source")
    }

    @Test func constantPropertyPasses() {
        let report = PropertyContract.verify("Property(value:)", values: [1, 2]) {
            (Property(value: 7), { (_: Int) in })
        }
        #expect(report.isConforming, "\(report)")
    }

    @Test func propertyFromInitialThenSignalPasses() {
        let report = PropertyContract.verify("Property(initial:then:)", values: [1, 2, 3]) {
            let (changes, input) = Signal<Int, Never>.pipe()
            return (Property(initial: 0, then: changes), { input.send(value: $0) })
        }
        #expect(report.isConforming, "\(report)")
    }

    @Test func capturingPropertyPasses() {
        let report = PropertyContract.verify("Property(capturing:)", values: [1, 2, 3]) {
            let source = MutableProperty(0)
            return (Property(capturing: source), { source.value = $0 })
        }
        #expect(report.isConforming, "\(report)")
    }

    @Test func composedPropertiesPass() {
        let reports = [
            PropertyContract.verify("map", values: [1, 2, 3]) { (source: MutableProperty<Int>) in source.map { $0 * 2 } },
            PropertyContract.verify("Property(_:)", values: [1, 2, 3]) { (source: MutableProperty<Int>) in Property(source) },
            PropertyContract.verify("skipRepeats", values: [1, 1, 2, 2]) { (source: MutableProperty<Int>) in source.skipRepeats()
            },
            PropertyContract.verify("combineLatest(with:)", values: [1, 2, 3]) { (source: MutableProperty<Int>) in
                source.combineLatest(with: source.map { -$0 })
            },
            PropertyContract.verify("zip(with:)", values: [1, 2, 3]) { (source: MutableProperty<Int>) in
                source.zip(with: source.map { $0 * 10 })
            },
            PropertyContract.verify("Property(initial:then:) of a source", values: [1, 2, 3]) { (source: MutableProperty<Int>) in
                Property(initial: 0, then: source.signal)
            },
        ]
        for report in reports {
            #expect(report.isConforming, "\(report)")
            #expect(report.clausesChecked.contains(.r4))
        }
    }

    @Test func emittingBeforeTheValueIsVisibleIsCaught_R2() {
        let report = PropertyContract.verify("EagerProperty", values: [1, 2, 3]) {
            let property = EagerProperty(0)
            return (property, { property.set($0) })
        }
        #expect(report.violatedClauses.contains(.r2), "\(report)")
    }

    @Test func laggingValueIsCaught_R1() {
        let report = PropertyContract.verify("LaggingProperty", values: [1, 2, 3]) {
            let property = LaggingProperty(0)
            return (property, { property.set($0) })
        }
        #expect(report.violatedClauses.contains(.r1), "\(report)")
    }

    @Test func readingInsideTheObserverDeadlockIsCaught_R3() {
        let report = PropertyContract.verify("EmittingUnderItsLock", values: [1, 2, 3], options: Self.shortDeadline) {
            let property = EmittingUnderItsLock(0)
            return (property, { property.set($0) })
        }
        #expect(report.violatedClauses == [.r3], "\(report)")
    }

    @Test func retainingItsSourceIsCaught_R4() {
        let report = PropertyContract.verify("RetainingMap", values: [1, 2, 3]) { (source: MutableProperty<Int>) in
            RetainingMap(source) { $0 * 2 }
        }
        #expect(report.violatedClauses == [.r4], "\(report)")
    }
}

// MARK: Broken properties

// Nested in the suite, so that their names cannot clash with other tests of the module.
extension PropertyContractTests {
    /// A settable property backed by a pipe: a stored value and a signal of changes.
    class PipeProperty: PropertyProtocol, @unchecked Sendable {
        // @unchecked Sendable: `stored` is only touched while holding `lock` (a semaphore, so that
        // a subclass that re-takes it on the same thread deadlocks rather than traps).
        let lock = DispatchSemaphore(value: 1)
        var stored: Int
        let signal: Signal<Int, Never>
        let input: Signal<Int, Never>.Observer

        init(_ initial: Int) {
            stored = initial
            (signal, input) = Signal<Int, Never>.pipe()
        }

        var value: Int { locked { stored } }

        var producer: SignalProducer<Int, Never> {
            SignalProducer { [self] observer, lifetime in
                observer.send(value: value)
                lifetime += signal.observe(observer)
            }
        }

        func locked<Result>(_ body: () -> Result) -> Result {
            lock.wait()
            defer { lock.signal() }
            return body()
        }
    }

    /// Emits a change before storing it.
    final class EagerProperty: PipeProperty, @unchecked Sendable {
        // @unchecked Sendable: as its base, all state is behind `lock`.
        func set(_ newValue: Int) {
            input.send(value: newValue)
            locked { stored = newValue }
        }
    }

    /// Its value is read from a snapshot taken before the latest change.
    final class LaggingProperty: PipeProperty, @unchecked Sendable {
        // @unchecked Sendable: as its base; `previous` too is only touched while holding `lock`.
        private var previous: Int

        override init(_ initial: Int) {
            previous = initial
            super.init(initial)
        }

        override var value: Int { locked { previous } }

        func set(_ newValue: Int) {
            locked {
                previous = stored
                stored = newValue
            }
            input.send(value: newValue)
        }
    }

    /// Emits a change while still holding the lock that `value` takes.
    final class EmittingUnderItsLock: PipeProperty, @unchecked Sendable {
        // @unchecked Sendable: as its base, all state is behind `lock`.
        func set(_ newValue: Int) {
            lock.wait()
            stored = newValue
            input.send(value: newValue)
            lock.signal()
        }
    }

    /// A mapped view of a property that keeps a strong reference to it.
    final class RetainingMap<Source: PropertyProtocol & Sendable, Value>: PropertyProtocol, Sendable {
        private let source: Source
        private let transform: @Sendable (Source.Value) -> Value

        init(_ source: Source, _ transform: @escaping @Sendable (Source.Value) -> Value) {
            self.source = source
            self.transform = transform
        }

        var value: Value { transform(source.value) }
        var signal: Signal<Value, Never> { source.signal.map(transform) }
        var producer: SignalProducer<Value, Never> { source.producer.map(transform) }
    }
}
