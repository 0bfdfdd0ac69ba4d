import Testing

@testable import Rivulet
import RivuletContracts

/// The two kinds of `ObserverAttachment` (an observer of values keeps the user's `(Value) -> Void`
/// closure itself, told apart by a bit beside the handle's address) and the
/// one-word `Signal.Observer` (an input observer's word is its signal's storage, any other's an
/// `ObserverAction`): both kinds deliver what they should, before and after they are detached,
/// with values of every shape, and release what they hold.
@Suite(.checksLiveObjects) struct ObserverLayoutTests {
    /// A recorder of what the observers saw.
    final class Log: @unchecked Sendable {
        // @unchecked Sendable: only touched on the test's thread (every send is synchronous).
        var entries: [String] = []
    }

    /// A value larger than the registers that pass arguments directly, holding references.
    struct Wide: Equatable {
        var first: String
        var numbers: [Int]
        var flag: Bool
        var fourth: Int
        var fifth: Double
    }

    /// A payload with a reference count, to see it passed through unharmed.
    final class Box: Equatable, Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
        static func == (left: Box, right: Box) -> Bool { left.value == right.value }
    }

    /// A release detector: its `deinit` is what `weak` references below watch.
    final class Token: Sendable {}

    enum Failure: Swift.Error, Equatable { case broken(String) }

    /// Sends `values` through a pipe to one `observeValues` observer and one `observe` observer;
    /// what each saw, in order.
    func deliver<Value: Sendable>(_ values: [Value]) -> (values: [Value], events: [Signal<Value, Failure>.Event]) {
        let (signal, input) = Signal<Value, Failure>.pipe()
        nonisolated(unsafe) var seenValues: [Value] = []
        nonisolated(unsafe) var seenEvents: [Signal<Value, Failure>.Event] = []
        // nonisolated(unsafe): every send below is synchronous, on this thread.
        let valuesHandle = signal.observeValues { seenValues.append($0) }
        let eventsHandle = signal.observe { seenEvents.append($0) }
        for value in values { input.send(value: value) }
        input.send(error: .broken("end"))
        withExtendedLifetime((valuesHandle, eventsHandle)) {}
        return (seenValues, seenEvents)
    }

    @Test func anObserverOfValuesAndAnObserverOfEventsSeeValuesOfEveryShape() {
        let ints = deliver([1, -2, Int.max])
        #expect(ints.values == [1, -2, Int.max])
        #expect(ints.events.map(\.value) == [1, -2, Int.max, nil])
        #expect(ints.events.last?.error == .broken("end"))

        let strings = deliver(["a", String(repeating: "long ", count: 20), ""])
        #expect(strings.values == ["a", String(repeating: "long ", count: 20), ""])
        #expect(strings.events.compactMap(\.value) == strings.values)

        let wide = [
            Wide(first: "x", numbers: [1, 2], flag: true, fourth: 4, fifth: 5.5),
            Wide(first: "", numbers: [], flag: false, fourth: -1, fifth: 0),
        ]
        let wides = deliver(wide)
        #expect(wides.values == wide)
        #expect(wides.events.compactMap(\.value) == wide)

        let boxes = deliver([Box(1), Box(2)])
        #expect(boxes.values == [Box(1), Box(2)])
        #expect(boxes.events.compactMap(\.value) == [Box(1), Box(2)])

        let optionals = deliver([Int?.none, 3])
        #expect(optionals.values == [nil, 3])
        #expect(optionals.events.count == 3)

        let empties = deliver([(), ()])
        #expect(empties.values.count == 2)
        #expect(empties.events.count == 3)
    }

    @Test func anObserverOfValuesIgnoresTerminationAndOneOfEventsSeesIt() {
        let log = Log()
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.observeValues { log.entries.append("value \($0)") }
        signal.observe { log.entries.append("event \($0)") }
        input.send(value: 7)
        input.sendCompleted()
        input.send(value: 8)
        #expect(log.entries == ["value 7", "event VALUE 7", "event COMPLETED"])
    }

    @Test func neitherKindReceivesAnythingOnceDisposedOfAndBothReleaseTheirClosure() throws {
        let log = Log()
        let (signal, input) = Signal<Int, Never>.pipe()
        weak var valuesToken: Token?
        weak var eventsToken: Token?
        let valuesHandle: Disposable
        let eventsHandle: Disposable
        do {
            let forValues = Token()
            let forEvents = Token()
            valuesToken = forValues
            eventsToken = forEvents
            valuesHandle = try #require(
                signal.observeValues { value in withExtendedLifetime(forValues) { log.entries.append("values \(value)") } })
            eventsHandle = try #require(
                signal.observe { event in withExtendedLifetime(forEvents) { log.entries.append("events \(event)") } })
        }
        input.send(value: 1)
        valuesHandle.dispose()
        #expect(valuesToken == nil)
        #expect(eventsToken != nil)
        input.send(value: 2)
        eventsHandle.dispose()
        #expect(eventsToken == nil)
        input.send(value: 3)
        input.sendCompleted()
        #expect(log.entries == ["values 1", "events VALUE 1", "events VALUE 2"])
        #expect(valuesHandle.isDisposed && eventsHandle.isDisposed)
    }

    @Test func anObserverOfValuesDisposedOfWhileAValueIsDeliveredGetsNoMore() throws {
        let log = Log()
        let (signal, input) = Signal<Int, Never>.pipe()
        nonisolated(unsafe) var second: Disposable?
        // nonisolated(unsafe): every send is synchronous, on this thread.
        signal.observeValues { value in
            log.entries.append("first \(value)")
            second?.dispose()
        }
        second = signal.observeValues { log.entries.append("second \($0)") }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.entries == ["first 1", "first 2"])
    }

    @Test func anAttachmentKeepsItsKindBesideItsHandleWithoutRetainingIt() {
        typealias Attachment = ObserverAttachment<String, Failure>
        let log = Log()
        let (signal, input) = Signal<String, Failure>.pipe()
        weak var weakHandle: ObservationHandle<String, Failure>?
        let values: Attachment
        do {
            let handle = ObservationHandle(core: signal.core)
            weakHandle = handle
            values = ValuesObserverAttachment(values: { log.entries.append("values \($0)") }, handle: handle)
            let events: Attachment = EventObserverAttachment(action: { log.entries.append("events \($0)") }, handle: nil)
            #expect(values.observesValues)
            #expect(!events.observesValues)
            #expect(values.handle.loadRelaxed() == handle.address | Attachment.valuesKind)
            #expect(events.handle.loadRelaxed() == Attachment.internalHandle)
            #expect(values.isDetached(by: handle.address))
            #expect(!events.isDetached(by: handle.address))
            values.deliver(.value("a"))
            events.deliver(.value("b"))
            values.deliver(.failed(.broken("c")))
            events.deliver(.completed)
            values.markDetached()
            events.markDetached()
            #expect(values.isDetached(by: handle.address))
            values.deliver(.value("d"))
            events.deliver(.value("e"))
        }
        // The attachment carries its handle's address, not a reference: the handle is gone.
        #expect(weakHandle == nil)
        #expect(log.entries == ["values a", "events VALUE b", "events COMPLETED"])
        withExtendedLifetime((input, values)) {}
    }

    @Test func aDisposalDetachesTheNewestObserverCarryingItsHandlesAddress() throws {
        // A handle released without being disposed of leaves its observer attached, and a later
        // handle may get its address. Both attachments then carry one address; the later
        // handle's disposal must detach its own observer, the newest, and leave the older one.
        let log = Log()
        let (signal, input) = Signal<Int, Never>.pipe()
        let handle = ObservationHandle(core: signal.core)
        let older = ValuesObserverAttachment<Int, Never>(values: { log.entries.append("older \($0)") }, handle: handle)
        let newer = ValuesObserverAttachment<Int, Never>(values: { log.entries.append("newer \($0)") }, handle: handle)
        #expect(signal.core.attach(older))
        #expect(signal.core.attach(newer))
        input.send(value: 1)
        handle.dispose()
        input.send(value: 2)
        #expect(log.entries == ["older 1", "newer 1", "older 2"])
        #expect(signal.core.observerCount == 1)
        // The same while a delivery holds the turn: the disposal waits in the pending changes.
        let (second, secondInput) = Signal<Int, Never>.pipe()
        let secondHandle = ObservationHandle(core: second.core)
        let first = ValuesObserverAttachment<Int, Never>(values: { log.entries.append("first \($0)") }, handle: secondHandle)
        #expect(second.core.attach(first))
        second.observeValues { value in
            guard value == 3 else { return }
            let late = ValuesObserverAttachment<Int, Never>(values: { log.entries.append("late \($0)") }, handle: secondHandle)
            #expect(second.core.attach(late))
            secondHandle.dispose()
        }
        secondInput.send(value: 3)
        secondInput.send(value: 4)
        #expect(Array(log.entries.dropFirst(3)) == ["first 3", "first 4"])
        withExtendedLifetime(input) {}
    }

    @Test func anInputObserverSendsToItsSignalAndOthersRunTheirClosure() {
        let log = Log()
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.observeValues { log.entries.append("signal \($0)") }
        #expect(input.inputOf != nil)
        input.send(value: 1)
        input.receive(2)

        let closureObserver = Signal<Int, Never>.Observer { log.entries.append("closure \($0)") }
        #expect(closureObserver.inputOf == nil)
        closureObserver.send(value: 3)
        closureObserver.action(.value(4))
        closureObserver.sink(.value(5))
        closureObserver.terminate(.completed)
        input.sink(.value(6))
        #expect(
            log.entries == [
                "signal 1", "signal 2", "closure VALUE 3", "closure VALUE 4", "closure VALUE 5", "closure COMPLETED",
                "signal 6",
            ])
    }

    @Test func aClosureObserverReleasesItsClosureWithIt() {
        weak var token: Token?
        weak var observer: Signal<Int, Never>.Observer?
        do {
            let captured = Token()
            token = captured
            let made = Signal<Int, Never>.Observer { _ in withExtendedLifetime(captured) {} }
            observer = made
            made.send(value: 1)
        }
        #expect(observer == nil)
        #expect(token == nil)
    }

    @Test func anObserverPassedToObserveIsAttachedByItsClosure() {
        let log = Log()
        let (signal, input) = Signal<Int, Never>.pipe()
        let handle = signal.observe(
            Signal<Int, Never>.Observer(
                value: { log.entries.append("value \($0)") }, completed: { log.entries.append("completed") }))
        let (downstream, downstreamInput) = Signal<Int, Never>.pipe()
        downstream.observeValues { log.entries.append("downstream \($0)") }
        signal.observe(downstreamInput)
        input.send(value: 1)
        handle?.dispose()
        input.send(value: 2)
        input.sendCompleted()
        #expect(log.entries == ["value 1", "downstream 1", "downstream 2"])
    }

    @Test func releasingAPipesInputInterruptsItButReleasingAStartsInputDoesNot() {
        let log = Log()
        let signal: Signal<Int, Never>
        do {
            let (made, input) = Signal<Int, Never>.pipe()
            signal = made
            signal.observe { log.entries.append("pipe \($0)") }
            input.send(value: 1)
        }
        #expect(log.entries == ["pipe VALUE 1", "pipe INTERRUPTED"])
        signal.observe { log.entries.append("late \($0)") }
        #expect(log.entries.last == "late INTERRUPTED")

        log.entries = []
        let producer = SignalProducer<Int, Never> { observer, _ in
            observer.send(value: 2)
            // The observer goes away here; the start goes on.
        }
        let start = producer.start { log.entries.append("start \($0)") }
        #expect(log.entries == ["start VALUE 2"])
        start.dispose()
        #expect(log.entries == ["start VALUE 2", "start INTERRUPTED"])
    }
}

/// `SpecializedTeardown`, the table of a signal's teardown code, one entry per pair of types.
/// The keys here are made up: real keys are metadata addresses, far above them.
@Suite(.checksLiveObjects) struct SpecializedTeardownTests {
    /// Teardown code that writes `interrupted` and `abandoned` to the memory it is given.
    static func code(interrupted: Int, abandoned: Int) -> SpecializedTeardown.Code {
        SpecializedTeardown.Code(
            interrupt: { $0.storeBytes(of: interrupted, as: Int.self) },
            abandon: { $0.storeBytes(of: abandoned, as: Int.self) })
    }

    @Test func registeredCodeIsFoundAndTheFirstOneStays() {
        let key: UInt = 0x10_0008
        #expect(SpecializedTeardown.code(for: key) == nil)
        SpecializedTeardown.register(Self.code(interrupted: 42, abandoned: 43), for: key)
        SpecializedTeardown.register(Self.code(interrupted: 7, abandoned: 8), for: key)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        defer { memory.deallocate() }
        memory.storeBytes(of: 0, as: Int.self)
        SpecializedTeardown.code(for: key)?.interrupt(memory)
        #expect(memory.load(as: Int.self) == 42)
        SpecializedTeardown.code(for: key)?.abandon(memory)
        #expect(memory.load(as: Int.self) == 43)
        #expect(SpecializedTeardown.code(for: key + 16) == nil)
    }

    @Test func keysThatShareAHomeSlotAreAllFound() {
        // Keys whose home slot is the same (the hash ignores the bits that differ here).
        let base: UInt = 0x20_0000
        let keys = (1...4).map { base + UInt($0) * UInt(SpecializedTeardown.capacity) << 16 }
        #expect(Set(keys.map(SpecializedTeardown.home(of:))).count <= 2)
        for (index, key) in keys.enumerated() {
            SpecializedTeardown.register(Self.code(interrupted: index, abandoned: index), for: key)
            #expect(SpecializedTeardown.code(for: key) != nil, "key \(index)")
        }
    }

    @Test func threadsRegisteringAtOnceAllFindTheirCode() async {
        let base: UInt = 0x30_0000
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let key = base + UInt(index) * 8
                    SpecializedTeardown.register(Self.code(interrupted: 1, abandoned: 1), for: key)
                    return SpecializedTeardown.code(for: key) != nil
                }
            }
            for await found in group { #expect(found) }
        }
    }

    @Test func thePathForATypeWithNoSlotInterruptsTheSignalToo() {
        let (signal, input) = Signal<Int, Never>.pipe()
        nonisolated(unsafe) var events: [String] = []
        // nonisolated(unsafe): every delivery is synchronous, on this thread.
        signal.observe { events.append("\($0)") }
        let storage = UnsafeMutableRawPointer(Unmanaged.passUnretained(signal.core.storage).toOpaque())
        Signal<Int, Never>.Observer.interruptGenerically(storage)
        input.send(value: 1)
        #expect(events == ["INTERRUPTED"])
    }

    @Test func thePathForATypeWithNoSlotStopsAnAbandonedSignalToo() {
        let disposed = Atomic(0)
        let (signal, input) = Signal<Int, Never>.pipe(disposable: AnyDisposable { disposed.modify { $0 += 1 } })
        let storage = UnsafeMutableRawPointer(Unmanaged.passUnretained(signal.core.storage).toOpaque())
        // As the `deinit` of an unobserved `Signal` does for a pair of types with no slot (S4).
        Signal<Int, Never>.abandonGenerically(storage)
        #expect(disposed.value == 1)
        withExtendedLifetime((signal, input)) {}
    }

    @Test func aSignalAndAnInterruptingInputRegisterTheirPairOfTypes() {
        struct Unique: Sendable {}
        struct Other: Sendable {}
        let (signal, input) = Signal<Unique, Never>.pipe()
        let storage = UnsafeMutableRawPointer(Unmanaged.passUnretained(signal.core.storage).toOpaque())
        #expect(SpecializedTeardown.code(for: SpecializedTeardown.key(ofStorage: storage)) != nil)
        // A signal made by an operator registers its own pair of types.
        let mapped = signal.map { _ in Other() }
        let mappedStorage = UnsafeMutableRawPointer(Unmanaged.passUnretained(mapped.core.storage).toOpaque())
        #expect(SpecializedTeardown.code(for: SpecializedTeardown.key(ofStorage: mappedStorage)) != nil)
        withExtendedLifetime(input) {}
    }

    @Test func droppingAnUnobservedDerivedSignalDetachesItFromItsUpstream() {
        let (signal, input) = Signal<Int, Never>.pipe()
        do {
            let mapped = signal.map { $0 + 1 }
            #expect(signal.core.observerCount == 1)
            withExtendedLifetime(mapped) {}
        }
        // The map's `Signal` is gone and nobody observes it: it stops (S4), through the code its
        // pair of types registered, and its attachment to the upstream goes with its resources.
        #expect(signal.core.observerCount == 0)
        withExtendedLifetime(input) {}
    }
}
