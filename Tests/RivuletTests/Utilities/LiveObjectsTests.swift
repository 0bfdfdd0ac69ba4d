import RivuletContracts
import Testing
@testable import Rivulet

/// `LiveObjects` counts each kind of object while it lives.
///
/// The counts are global, so a test running alongside can change them: in a parallel run these
/// tests check only what others cannot undo (objects kept alive here count at least once each:
/// others can free no more objects than were alive before); in the serial run with the live-object
/// check on (`LiveObjectsCheck`) they also check that everything is counted out again.
@Suite(.checksLiveObjects) struct LiveObjectsTests {
    static let count = 1000

    /// Makes `count` objects with `make`, keeps them, and checks `kind`'s count while they live and
    /// after they are released.
    static func expectCounted(
        _ kind: LiveObjects.Kind,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ make: () -> Any
    ) {
        guard let before = LiveObjects.current() else {
            #expect(!LiveObjects.isTracking, sourceLocation: sourceLocation)
            return
        }
        var kept: [Any] = (0..<count).map { _ in make() }
        let during = LiveObjects.current()
        #expect(
            (during?[kind] ?? 0) >= count, "\(kind) while kept: \(during.map { "\($0)" } ?? "?")", sourceLocation: sourceLocation)
        kept.removeAll()
        guard LiveObjectsCheck.isEnabled, let during else { return }
        #expect(
            during[kind] - before[kind] >= count, "\(kind): before \(before), while kept \(during)",
            sourceLocation: sourceLocation)
        let after = LiveObjects.current()
        #expect(
            after?.growth(since: before) == [:], "all counted out: before \(before), after \(after.map { "\($0)" } ?? "?")",
            sourceLocation: sourceLocation)
    }

    @Test func debugBuildsTrackAndSayHow() {
        #if DEBUG
        #expect(LiveObjects.isTracking)
        #expect(LiveObjects.current() != nil)
        // Other tests change the counts meanwhile: only that there is a total is certain.
        #expect(LiveObjects.total != nil)
        #else
        #expect(!LiveObjects.isTracking)
        #expect(LiveObjects.current() == nil, "a release build has no counts, rather than zeros")
        #endif
    }

    @Test func signalsAndTheirInputsAreCounted() {
        Self.expectCounted(.signal) { Signal<Int, Never>.pipe() }
        Self.expectCounted(.observer) { Signal<Int, Never>.pipe() }
    }

    @Test func observersAreCounted() {
        Self.expectCounted(.observer) { Signal<Int, Never>.Observer { _ in } }
    }

    @Test func attachedObserversAreCountedUntilDisposed() {
        let (signal, input) = Signal<Int, Never>.pipe()
        Self.expectCounted(.attachment) { ScopedDisposable(signal.observeValues { _ in } ?? AnyDisposable()) }
        withExtendedLifetime(input) {}
    }

    @Test func producerStartsAreCountedUntilDisposed() {
        let producer = SignalProducer<Int, Never>.never
        Self.expectCounted(.producerStart) { ScopedDisposable(producer.start()) }
    }

    @Test func propertiesAreCounted() {
        Self.expectCounted(.property) { MutableProperty(0) }
        let source = MutableProperty(0)
        Self.expectCounted(.property) { source.map { $0 + 1 } }
    }

    @Test func operatorStagesAreCounted() {
        let (first, firstInput) = Signal<Int, Never>.pipe()
        let (second, secondInput) = Signal<Int, Never>.pipe()
        Self.expectCounted(.stage) { first.combineLatest(with: second) }
        let flattened = SignalProducer<Int, Never>.never.flatMap(.latest) { _ in SignalProducer<Int, Never>.never }
        Self.expectCounted(.stage) { ScopedDisposable(flattened.start()) }
        withExtendedLifetime((firstInput, secondInput)) {}
    }

    @Test func countsDescribeThemselves() {
        let counts = LiveObjects.Counts(byKind: [.signal: 2, .observer: 1])
        #expect(counts.description == "signal 2, observer 1 (total 3)")
        #expect(counts.total == 3)
        #expect(counts[.stage] == 0)
        #expect(LiveObjects.Counts(byKind: [:]).description == "none (total 0)")
        let later = LiveObjects.Counts(byKind: [.signal: 1, .observer: 4, .stage: 2])
        #expect(later.growth(since: counts) == [.observer: 3, .stage: 2])
    }
}
