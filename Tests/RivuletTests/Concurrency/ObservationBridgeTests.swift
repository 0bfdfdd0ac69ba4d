import Dispatch
import Foundation
import Observation
import Testing

@testable import Rivulet
import RivuletContracts

/// The bridges between Rivulet and Observation: `SignalProducer(tracking:)` and
/// `Property(tracking:)` follow an expression over `@Observable` models; `ObservableProperty` shows
/// a Rivulet property to Observation.
///
/// No timing assertion: the tests wait (up to 300 s) only for values that must arrive, and every
/// "nothing more happens" check is deterministic (after disposal nothing is scheduled at all, and
/// the coalescing tests hold a round still while the mutations happen).
@Suite(.checksLiveObjects) struct ObservationBridgeTests {
    // MARK: - The toolchain's macro

    @Test func theObservableMacroWorksHere() {
        let model = MacroPerson()
        let fired = Counter()
        let read = withObservationTracking {
            model.firstName
        } onChange: {
            fired.increment()
        }
        #expect(read == "Ada")
        model.lastName = "Byron" // not read: no change reported
        #expect(fired.value == 0)
        model.firstName = "Augusta"
        #expect(fired.value == 1)
        model.firstName = "Ada" // the tracking fires once
        #expect(fired.value == 1)
    }

    // MARK: - Tracking as a producer

    @Test func aStartSendsTheCurrentValueAtOnceThenOneValuePerChange() {
        let model = LockedPerson()
        let recorder = EventRecorder<String, Never>()
        let disposable = SignalProducer(tracking: { model.firstName + " " + model.lastName }).start(recorder.observer)
        #expect(recorder.values == ["Ada Lovelace"]) // synchronous, on the starting thread

        model.firstName = "Augusta"
        #expect(waitUntil { recorder.values.count == 2 })
        model.lastName = "King"
        #expect(waitUntil { recorder.values.count == 3 })
        model.lastName = "King" // the same value is still a change
        #expect(waitUntil { recorder.values.count == 4 })
        #expect(recorder.values == ["Ada Lovelace", "Augusta Lovelace", "Augusta King", "Augusta King"])
        #expect(recorder.terminalCount == 0) // never completes on its own

        disposable.dispose()
        #expect(recorder.events.last == .interrupted)
    }

    @Test func aTrailingClosureStillMeansTheSynchronousInitialiser() {
        // A trailing closure also fits the labelled `tracking:` parameters; the ReactiveSwift
        // initialiser (one value, then completion) must win.
        let recorder = EventRecorder<Int, Never>()
        SignalProducer<Int, Never> { 9 }.start(recorder.observer)
        #expect(recorder.events == [.value(9), .completed])
    }

    @Test func aModelMadeWithTheMacroAndALockAroundItsUseIsTracked() {
        // The macro's stored properties are not thread-safe; the lock around every use makes each
        // mutation atomic with respect to the expression's reads (the documented condition).
        let model = MacroPerson()
        let lock = NSLock()
        let shared = UncheckedBox(model)
        let recorder = EventRecorder<String, Never>()
        let disposable = SignalProducer(tracking: {
            lock.withLock { shared.value.firstName + " " + shared.value.lastName }
        })
        .start(recorder.observer)
        lock.withLock { model.lastName = "Byron" }
        #expect(waitUntil { recorder.values.count == 2 })
        #expect(recorder.values == ["Ada Lovelace", "Ada Byron"])
        disposable.dispose()
    }

    @Test func eachStartTracksOnItsOwn() {
        let model = LockedPerson()
        let producer = SignalProducer(tracking: { model.firstName })
        let first = EventRecorder<String, Never>()
        let second = EventRecorder<String, Never>()
        let firstStart = producer.start(first.observer)
        model.firstName = "Augusta"
        #expect(waitUntil { first.values.count == 2 })
        let secondStart = producer.start(second.observer)
        #expect(second.values == ["Augusta"])
        firstStart.dispose()
        model.firstName = "Ada"
        #expect(waitUntil { second.values.count == 2 })
        #expect(first.values == ["Ada", "Augusta"])
        #expect(second.values == ["Augusta", "Ada"])
        secondStart.dispose()
    }

    @Test func mutationsDuringADeliveryCoalesceIntoOneValueWithTheLatestState() {
        let model = LockedCounter()
        let delivering = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer(tracking: { model.count })
            .on(value: { value in
                if value == 1 {
                    delivering.signal()
                    release.wait()
                }
            })
            .start(recorder.observer)

        model.count = 1
        #expect(waitFor(delivering, seconds: 300))
        for value in 2...10 { model.count = value } // while the round that found 1 is delivering
        release.signal()
        #expect(waitUntil { recorder.values.last == 10 })
        #expect(recorder.values == [0, 1, 10])
        disposable.dispose()
    }

    @Test func aMutationBetweenTheReadAndTheArmingIsNotMissed() {
        // The expression is held still right after reading the model, before Observation arms the
        // tracking; the mutations made meanwhile report nothing, yet the round must end with them.
        let model = LockedCounter()
        let reading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let heldOnce = Locked(false)
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer(tracking: {
            let value = model.count
            if value == 1,
                heldOnce.withLock({ held in
                    defer { held = true }; return !held
                })
            {
                reading.signal()
                release.wait()
            }
            return value
        })
        .start(recorder.observer)

        model.count = 1
        #expect(waitFor(reading, seconds: 300))
        for value in 2...5 { model.count = value }
        release.signal()
        #expect(waitUntil { recorder.values.last == 5 })
        #expect(recorder.values == [0, 5])
        // And the tracking is armed again.
        model.count = 6
        #expect(waitUntil { recorder.values.last == 6 })
        disposable.dispose()
    }

    @Test func mutationsFromAnObserverAreTrackedAfterTheCurrentValue() {
        let model = LockedCounter()
        let recorder = EventRecorder<Int, Never>()
        let disposable = SignalProducer(tracking: { model.count })
            .on(value: { value in if value < 3 { model.count = value + 1 } })
            .start(recorder.observer)
        #expect(waitUntil { recorder.values.last == 3 })
        #expect(recorder.values == [0, 1, 2, 3])
        disposable.dispose()
    }

    @Test(arguments: [2, 4])
    func concurrentMutationsEndWithTheLatestStateAndNeverOverlap(threads: Int) {
        let model = LockedCounts()
        let overlaps = OverlapDetector()
        let recorder = EventRecorder<Counts, Never>()
        let disposable = SignalProducer(tracking: { Counts(left: model.left, right: model.right) })
            .on(value: { _ in
                overlaps.enter()
                overlaps.leave()
            })
            .start(recorder.observer)

        let perThread = 2_000
        runConcurrently(threads) { index in
            for _ in 0..<perThread {
                if index.isMultiple(of: 2) { model.incrementLeft() } else { model.incrementRight() }
            }
        }
        let final = Counts(left: model.left, right: model.right)
        #expect(final.left + final.right == threads * perThread)
        #expect(waitUntil { recorder.values.last == final })

        let values = recorder.values
        #expect(overlaps.overlapCount == 0)
        // In order: both counters only grow, so every value is at least the one before it.
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.left <= $1.left && $0.right <= $1.right })
        disposable.dispose()
    }

    // MARK: - Disposal and release

    @Test func disposalStopsTheTrackingAndReleasesTheExpression() {
        let evaluations = Counter()
        let recorder = EventRecorder<String, Never>()
        weak var weakModel: LockedPerson?
        let weakCaptured = WeakBox<Tracked>(nil)
        do {
            let model = LockedPerson()
            weakModel = model
            let captured = Tracked()
            weakCaptured.object = captured
            let disposable = SignalProducer(tracking: {
                evaluations.increment()
                _ = captured
                return model.firstName
            })
            .start(recorder.observer)
            model.firstName = "Augusta"
            #expect(waitUntil { recorder.values.count == 2 })

            disposable.dispose()
            let evaluated = evaluations.value
            model.firstName = "Ada"
            model.firstName = "Anne"
            #expect(evaluations.value == evaluated) // disposed: the change handlers schedule nothing
            #expect(recorder.values == ["Ada", "Augusta"])
            #expect(recorder.events.last == .interrupted)
        }
        #expect(weakCaptured.object == nil)
        #expect(weakModel == nil)
    }

    @Test func disposalDuringConcurrentMutationsEndsTheStartAtOnce() {
        let model = LockedCounts()
        let evaluations = Counter()
        let recorder = EventRecorder<Counts, Never>() // reports any value after the interruption (E1)
        let disposable = SignalProducer(tracking: {
            evaluations.increment()
            return Counts(left: model.left, right: model.right)
        })
        .start(recorder.observer)
        let disposed = Locked<Int?>(nil) // the evaluations counted when disposal returned

        runConcurrently(3) { index in
            if index == 0 {
                while recorder.values.count < 5 && model.left + model.right < 3_000 { usleep(10) }
                disposable.dispose()
                disposed.withLock { $0 = evaluations.value }
            } else {
                for _ in 0..<2_000 {
                    if index == 1 { model.incrementLeft() } else { model.incrementRight() }
                }
            }
        }
        #expect(recorder.events.last == .interrupted)
        #expect(recorder.terminalCount == 1)
        // A round that had begun before the disposal may still finish (two evaluations at most);
        // none begins after it.
        let atDisposal = disposed.withLock { $0 } ?? 0
        #expect(evaluations.value <= atDisposal + 2)
    }

    @Test func theModelIsNotKeptAliveByAnUnfiredTracking() {
        // The model's registrar still holds the unfired change handlers after disposal; neither
        // they nor anything else may keep the expression, which holds the model. (Two safeguards
        // ensure it: the handlers hold the tracking weakly, and disposal drops the expression.)
        weak var weakModel: LockedPerson?
        let recorder = EventRecorder<String, Never>()
        var disposable: Disposable?
        do {
            let model = LockedPerson()
            weakModel = model
            disposable = SignalProducer(tracking: { model.lastName }).start(recorder.observer)
        }
        #expect(weakModel != nil)
        disposable?.dispose()
        #expect(weakModel == nil)
        #expect(recorder.values == ["Lovelace"])
    }

    // MARK: - Tracking as a property

    @Test func aTrackingPropertyHasTheValueNowAndFollowsChanges() {
        let model = LockedPerson()
        let fullName = Property(tracking: { model.firstName + " " + model.lastName })
        #expect(fullName.value == "Ada Lovelace")
        let changes = EventRecorder<String, Never>()
        let observation = fullName.signal.observe(changes.observer)

        model.lastName = "Byron"
        #expect(waitUntil { fullName.value == "Ada Byron" })
        #expect(waitUntil { changes.values == ["Ada Byron"] })
        observation?.dispose()
    }

    @Test func aTrackingPropertyStopsWhenDeinitialized() {
        let evaluations = Counter()
        weak var weakModel: LockedPerson?
        weak var weakProperty: Property<String>?
        do {
            let model = LockedPerson()
            weakModel = model
            do {
                let property = Property(tracking: {
                    evaluations.increment()
                    return model.firstName
                })
                weakProperty = property
                model.firstName = "Augusta"
                #expect(waitUntil { property.value == "Augusta" })
            }
            #expect(weakProperty == nil)
            let evaluated = evaluations.value
            model.firstName = "Ada"
            #expect(evaluations.value == evaluated)
        }
        #expect(weakModel == nil)
    }

    // MARK: - Tracking models isolated to the main actor

    @MainActor
    @Test func aMainActorTrackingPropertyReevaluatesOnALaterTurnOnce() async {
        let model = MainActorPerson()
        let evaluations = Counter()
        let fullName = Property(trackingOnMainActor: {
            evaluations.increment()
            return model.firstName + " " + model.lastName
        })
        #expect(fullName.value == "Ada Lovelace")
        #expect(evaluations.value == 1) // on the main actor, one evaluation per value

        model.firstName = "Augusta"
        model.lastName = "King"
        // The round is queued behind this turn of the main actor, which has not ended yet.
        #expect(fullName.value == "Ada Lovelace")
        #expect(await waitUntilOnMainActor { fullName.value == "Augusta King" })
        #expect(evaluations.value == 2) // both changes of the turn gave one round

        model.lastName = "Byron"
        #expect(await waitUntilOnMainActor { fullName.value == "Augusta Byron" })
        #expect(evaluations.value == 3)
    }

    @MainActor
    @Test func aMainActorTrackingProducerSendsItsFirstValueLater() async {
        let model = MainActorPerson()
        let recorder = EventRecorder<String, Never>()
        let evaluations = Counter()
        let disposable = SignalProducer(trackingOnMainActor: {
            evaluations.increment()
            return model.firstName
        })
        .start(recorder.observer)
        #expect(recorder.values.isEmpty) // queued on the main actor, behind this turn
        #expect(await waitUntilOnMainActor { recorder.values == ["Ada"] })
        model.firstName = "Augusta"
        #expect(await waitUntilOnMainActor { recorder.values == ["Ada", "Augusta"] })

        disposable.dispose()
        let evaluated = evaluations.value
        model.firstName = "Anne" // disposed: the change handler queues nothing
        for _ in 0..<10 { await Task.yield() }
        #expect(evaluations.value == evaluated)
        #expect(recorder.values == ["Ada", "Augusta"])
    }

    @Test func aMainActorTrackingProducerStartedElsewhereEvaluatesOnTheMainActor() async {
        let model = await MainActorPerson()
        let recorder = EventRecorder<String, Never>()
        let disposable = await Task.detached {
            SignalProducer(trackingOnMainActor: { model.firstName }).start(recorder.observer)
        }.value
        #expect(await waitUntilOnMainActor { recorder.values == ["Ada"] })
        await MainActor.run { model.firstName = "Augusta" }
        #expect(await waitUntilOnMainActor { recorder.values == ["Ada", "Augusta"] })
        disposable.dispose()
    }

    @MainActor
    @Test func aMainActorTrackingPropertyReleasesTheModelWhenDeinitialized() async {
        weak var weakModel: MainActorPerson?
        do {
            let model = MainActorPerson()
            weakModel = model
            let property = Property(trackingOnMainActor: { model.lastName })
            #expect(property.value == "Lovelace")
            model.lastName = "Byron"
            #expect(await waitUntilOnMainActor { property.value == "Byron" })
        }
        #expect(weakModel == nil)
    }

    /// The sample of Docs/ObservationBridge.snippet.md.
    @MainActor
    @Test func theDocumentationSampleRuns() async {
        let person = MainActorPerson()
        let fullName = Property(trackingOnMainActor: { person.firstName + " " + person.lastName })
        #expect(fullName.value == "Ada Lovelace")
        person.lastName = "Byron"
        #expect(await waitUntilOnMainActor { fullName.value == "Ada Byron" })
        let volume = MutableProperty(3)
        // On the main queue with nothing of UIScheduler's pending, the first value is applied at
        // once, so no UIScheduler work is left pending for its own tests to see.
        let forSwiftUI = ObservableProperty(volume, on: UIScheduler())
        #expect(forSwiftUI.value == 3)
    }

    // MARK: - The reverse: an Observable view of a property

    @Test func theViewShowsThePropertyAndTellsObservationOfEachChange() {
        let source = MutableProperty(1)
        let view = ObservableProperty(source)
        #expect(view.value == 1)

        let seenInOnChange = Locked<[Int]>([])
        func track() {
            _ = withObservationTracking {
                view.value
            } onChange: {
                // `willSet`: the handler runs before the new value is applied.
                let old = view.value
                seenInOnChange.withLock { $0.append(old) }
            }
        }
        track()
        source.value = 2 // synchronous: handler ran and value applied before the write returns
        #expect(seenInOnChange.withLock { $0 } == [1])
        #expect(view.value == 2)

        source.value = 3 // not re-armed yet: nothing reported
        #expect(seenInOnChange.withLock { $0 } == [1])
        track()
        source.value = 4
        #expect(seenInOnChange.withLock { $0 } == [1, 3])
        #expect(view.value == 4)
    }

    @Test func theViewOfAComposedPropertyFollowsIt() {
        let first = MutableProperty("Ada")
        let last = MutableProperty("Lovelace")
        let view = ObservableProperty(first.combineLatest(with: last).map { "\($0) \($1)" })
        let fired = Counter()
        _ = withObservationTracking {
            view.value
        } onChange: {
            fired.increment()
        }
        last.value = "Byron"
        #expect(fired.value == 1)
        #expect(view.value == "Ada Byron")
    }

    @Test func theViewOnASchedulerAppliesChangesThere() {
        let source = MutableProperty(1)
        let scheduler = TestScheduler()
        do {
            let view = ObservableProperty(source, on: scheduler)
            #expect(view.value == 1)
            let fired = Counter()
            _ = withObservationTracking {
                view.value
            } onChange: {
                fired.increment()
            }

            source.value = 2
            #expect(view.value == 1) // not yet: waits for the scheduler
            #expect(fired.value == 0)
            scheduler.run()
            #expect(view.value == 2)
            #expect(fired.value == 1)
        }
        // The view's end reaches its observe(on:) stage on the scheduler.
        scheduler.run()
    }

    @Test func theViewOnASerialQueueAnnouncesChangesOnThatQueue() {
        // `UIScheduler` is the same case with the main queue; it is not used here because its
        // own tests need no other main-queue work pending while they run.
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "ObservationBridgeTests.view")
        queue.setSpecific(key: key, value: 1)
        let source = MutableProperty(1)
        let view = ObservableProperty(source, on: QueueScheduler(queue: queue))
        // The first value arrives through the queue too: let the queue apply it first.
        queue.sync {}

        let announced = DispatchSemaphore(value: 0)
        let onQueue = Locked<Bool?>(nil)
        _ = withObservationTracking {
            view.value
        } onChange: {
            onQueue.withLock { $0 = DispatchQueue.getSpecific(key: key) == 1 }
            announced.signal()
        }
        source.value = 2
        #expect(waitFor(announced, seconds: 300))
        #expect(onQueue.withLock { $0 } == true)
        #expect(waitUntil { view.value == 2 })
    }

    @Test func theViewIsReleasedAndStopsFollowingWhenDropped() {
        weak var weakView: ObservableProperty<Int>?
        weak var weakSource: MutableProperty<Int>?
        do {
            let source = MutableProperty(1)
            weakSource = source
            do {
                let view = ObservableProperty(source)
                weakView = view
                source.value = 2
                #expect(view.value == 2)
            }
            #expect(weakView == nil)
            source.value = 3 // no observer left to reach a released view
        }
        #expect(weakSource == nil)
    }

    @Test func theViewKeepsTheLastValueWhenThePropertyEnds() {
        var source: MutableProperty<Int>? = MutableProperty(1)
        let view = ObservableProperty(Property(source!))
        source?.value = 5
        source = nil
        #expect(view.value == 5)
    }
}

// MARK: - Models

/// A model made with the toolchain's macro: not thread-safe by itself.
@Observable
private final class MacroPerson {
    var firstName = "Ada"
    var lastName = "Lovelace"
}

/// A model made with the macro and isolated to the main actor, as SwiftUI models usually are.
@MainActor
@Observable
private final class MainActorPerson {
    var firstName = "Ada"
    var lastName = "Lovelace"
}

/// A thread-safe model: its lock covers each whole mutation (the registrar's announcement and the
/// write), so a read never sees a change announced but not yet written.
private final class LockedPerson: Observable, @unchecked Sendable {
    // @unchecked Sendable: `first` and `last` are only touched while `lock` is held.
    private let registrar = ObservationRegistrar()
    private let lock = NSLock()
    private var first = "Ada"
    private var last = "Lovelace"

    var firstName: String {
        get {
            registrar.access(self, keyPath: \.firstName)
            return lock.withLock { first }
        }
        set {
            lock.withLock { registrar.withMutation(of: self, keyPath: \.firstName) { first = newValue } }
        }
    }

    var lastName: String {
        get {
            registrar.access(self, keyPath: \.lastName)
            return lock.withLock { last }
        }
        set {
            lock.withLock { registrar.withMutation(of: self, keyPath: \.lastName) { last = newValue } }
        }
    }
}

/// A thread-safe model with one counter (see `LockedPerson`).
private final class LockedCounter: Observable, @unchecked Sendable {
    // @unchecked Sendable: `stored` is only touched while `lock` is held.
    private let registrar = ObservationRegistrar()
    private let lock = NSLock()
    private var stored = 0

    var count: Int {
        get {
            registrar.access(self, keyPath: \.count)
            return lock.withLock { stored }
        }
        set {
            lock.withLock { registrar.withMutation(of: self, keyPath: \.count) { stored = newValue } }
        }
    }
}

/// A thread-safe model with two counters that only grow (see `LockedPerson`).
private final class LockedCounts: Observable, @unchecked Sendable {
    // @unchecked Sendable: `storedLeft` and `storedRight` are only touched while `lock` is held.
    private let registrar = ObservationRegistrar()
    private let lock = NSLock()
    private var storedLeft = 0
    private var storedRight = 0

    var left: Int {
        registrar.access(self, keyPath: \.left)
        return lock.withLock { storedLeft }
    }

    var right: Int {
        registrar.access(self, keyPath: \.right)
        return lock.withLock { storedRight }
    }

    func incrementLeft() {
        lock.withLock { registrar.withMutation(of: self, keyPath: \.left) { storedLeft += 1 } }
    }

    func incrementRight() {
        lock.withLock { registrar.withMutation(of: self, keyPath: \.right) { storedRight += 1 } }
    }
}

private struct Counts: Equatable, Sendable {
    let left: Int
    let right: Int
}

/// Hands a model that is not `Sendable` to a `@Sendable` closure; the test serialises every use of
/// it with its own lock.
private final class UncheckedBox<Value>: @unchecked Sendable {
    // @unchecked Sendable: the test that makes the box guards every use of `value` with a lock.
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Polls `condition` on the main actor, letting it run other work in between, until it holds, for
/// at most `seconds` (a bound against a hang, not a timing assertion); returns whether it held.
@MainActor
private func waitUntilOnMainActor(seconds: Double = 300, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 200_000)
    }
    return true
}
