import Testing

@testable import Rivulet
import RivuletContracts

/// Empty collections of signals, producers and properties (issue 19, item 6): each combining
/// operator has a documented result, as in ReactiveSwift. A signal made from none has already
/// completed (so an observer hears `interrupted`, S3); a producer made from none completes at
/// once, after its sentinel if it has one; a property made from none is `nil`, or the sentinel.
@Suite(.checksLiveObjects) struct EmptyCollectionEdgeTests {
    private let noSignals: [Signal<Int, Never>] = []
    private let noProducers: [SignalProducer<Int, Never>] = []

    @Test func combiningNoSignalsGivesASignalThatHasAlreadyCompleted() {
        #expect(recordedEvents(of: Signal<Int, Never>.combineLatest(noSignals)) == [.interrupted])
        #expect(recordedEvents(of: Signal<Int, Never>.zip(noSignals)) == [.interrupted])
        #expect(recordedEvents(of: Signal<Int, Never>.merge(noSignals)) == [.interrupted])
        #expect(recordedEvents(of: Signal<Bool, Never>.all([Signal<Bool, Never>]())) == [.interrupted])
    }

    @Test func combiningNoProducersCompletesAtOnce() {
        #expect(recordedEvents(of: SignalProducer<Int, Never>.combineLatest(noProducers)) == [.completed])
        #expect(recordedEvents(of: SignalProducer<Int, Never>.zip(noProducers)) == [.completed])
        #expect(recordedEvents(of: SignalProducer<Int, Never>.merge(noProducers)) == [.completed])
    }

    @Test func combiningNoProducersWithASentinelSendsItThenCompletes() {
        #expect(
            recordedEvents(of: SignalProducer<Int, Never>.combineLatest(noProducers, emptySentinel: [0])) == [
                .value([0]), .completed,
            ])
        #expect(recordedEvents(of: SignalProducer<Int, Never>.zip(noProducers, emptySentinel: [1])) == [.value([1]), .completed])
    }

    @Test func allAndAnyOfNoProducersAreTrueAndFalse() {
        let none: [SignalProducer<Bool, Never>] = []
        #expect(recordedEvents(of: SignalProducer<Bool, Never>.all(none)) == [.value(true), .completed])
        #expect(recordedEvents(of: SignalProducer<Bool, Never>.any(none)) == [.value(false), .completed])
    }

    @Test func combiningNoPropertiesIsNilOrTheSentinel() {
        let none: [Property<Int>] = []
        #expect(Property<Int>.combineLatest(none) == nil)
        #expect(Property<Int>.zip(none) == nil)
        #expect(Property<Int>.combineLatest(none, emptySentinel: [3]).value == [3])
        #expect(Property<Int>.zip(none, emptySentinel: [4]).value == [4])
    }

    @Test func allAndAnyOfNoPropertiesAreTrueAndFalse() {
        let none: [Property<Bool>] = []
        #expect(Property<Bool>.all(none).value == true)
        #expect(Property<Bool>.any(none).value == false)
    }
}
