import Dispatch
import Testing

@testable import Rivulet
import RivuletContracts

/// Checks that `memory` (an atomic kept as a stored property, reached through `atomic`) is the
/// memory `atomic` points to: a write through either is seen by the other. Ends with the value it
/// found, so that the object can be released normally.
func expectSameMemory<Object: AnyObject>(
    _ object: Object, _ memory: ReferenceWritableKeyPath<Object, AtomicWordStorage>, _ atomic: AtomicWord,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let original = atomic.loadRelaxed()
    #expect(object[keyPath: memory].value == original, sourceLocation: sourceLocation)
    atomic.storeRelaxed(original ^ 0b1000)
    #expect(object[keyPath: memory].value == original ^ 0b1000, sourceLocation: sourceLocation)
    object[keyPath: memory].value = original
    #expect(atomic.loadRelaxed() == original, sourceLocation: sourceLocation)
}

/// `expectSameMemory` for a flag.
func expectSameMemory<Object: AnyObject>(
    _ object: Object, _ memory: ReferenceWritableKeyPath<Object, AtomicFlagStorage>, _ atomic: AtomicFlag,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let original = atomic.loadRelaxed()
    #expect((object[keyPath: memory].value != 0) == original, sourceLocation: sourceLocation)
    atomic.storeRelaxed(!original)
    #expect((object[keyPath: memory].value != 0) == !original, sourceLocation: sourceLocation)
    object[keyPath: memory] = AtomicFlagStorage(original)
    #expect(atomic.loadRelaxed() == original, sourceLocation: sourceLocation)
}

/// Every atomic that Rivulet keeps in a class or a buffer is reached through a pointer computed
/// from the layout (see AtomicWord.swift): these tests check, for every such class, that the
/// pointer is the stored property's address.
@Suite(.checksLiveObjects) struct AtomicLayoutTests {
    @Test func theTurnWordIsAtTheStartOfAMailboxsTail() {
        #expect(MemoryLayout<MailboxSynchronization>.offset(of: \.turnWord) == 0)
        #expect(MemoryLayout<AtomicWordAndFlagStorage>.offset(of: \.word) == 0)
        #expect(MemoryLayout<AtomicWordAndFlagStorage>.offset(of: \.flag) == AtomicWordAndFlagStorage.flagOffset)
        let storage = MailboxStorage.make(Idle())
        storage.withUnsafeMutablePointerToElements { sync in
            let turn = MailboxSynchronization.turn(sync)
            turn.storeRelaxed(0b1000)
            #expect(sync.pointee.turnWord.value == 0b1000)
            sync.pointee.turnWord.value = 0
            #expect(turn.loadRelaxed() == 0)
        }
    }

    @Test func anObserversHandleIsItsAttachmentsFirstStoredProperty() {
        let attachment: ObserverAttachment<Int, Never> = ValuesObserverAttachment(values: { _ in }, handle: nil)
        #expect(
            attachment.handle.loadRelaxed()
                == ObserverAttachment<Int, Never>.internalHandle | ObserverAttachment<Int, Never>.valuesKind)
        expectSameMemory(attachment, \.handleStorage, attachment.handle)
        let withAction: ObserverAttachment<String, LayoutTestError> = EventObserverAttachment(action: { _ in }, handle: nil)
        expectSameMemory(withAction, \.handleStorage, withAction.handle)
    }

    @Test func anObservationHandlesSignalIsItsFirstStoredProperty() throws {
        let (signal, observer) = Signal<Int, Never>.pipe()
        let disposable = try #require(signal.observeValues { _ in })
        let handle = try #require(disposable as? ObservationHandle<Int, Never>)
        #expect(handle.signal.loadRelaxed() != 0)
        expectSameMemory(handle, \.signalStorage, handle.signal)
        handle.dispose()
        #expect(handle.signalStorage.value == 0)
        withExtendedLifetime(observer) {}
    }

    @Test func aTrampolinesAtomicsAreItsFirstStoredProperty() {
        let trampoline = FlattenStartTrampoline()
        #expect(MemoryLayout<FlattenTrampolineAtomics>.offset(of: \.count) == 0)
        #expect(MemoryLayout<FlattenTrampolineAtomics>.offset(of: \.slot) == FlattenTrampolineAtomics.slotOffset)
        #expect(
            MemoryLayout<FlattenTrampolineAtomics>.offset(of: \.slowRunners) == FlattenTrampolineAtomics.slowRunnersOffset)
        expectSameMemory(trampoline, \.atomicsStorage.count, trampoline.count)
        expectSameMemory(trampoline, \.atomicsStorage.slot, trampoline.slot)
        expectSameMemory(trampoline, \.atomicsStorage.slowRunners, trampoline.slowRunners)
    }

    @Test func anOnEventsStagesFlagIsItsFirstStoredProperty() {
        let callbacks = OnEventCallbacks<Int, Never>(
            event: nil, failed: nil, completed: nil, interrupted: nil, terminated: nil, value: nil)
        let stage = OnEventsStage<Int, Never>(callbacks, disposed: nil, downstream: { _ in })
        expectSameMemory(stage, \.hasSeenTerminalStorage, AtomicFlag(firstStoredPropertyOf: stage))
        stage.receive(.completed)
        #expect(stage.hasSeenTerminalStorage.value == 1)
        stage.end()
    }

    @Test func aCombiningStagesEndingFlagIsItsFirstStoredProperty() {
        let (lifetime, token) = Lifetime.make()
        let stage = CombiningStage<CombineLatestStateMachine<Int>, [Int], Never>(
            sources: [CombiningSource(startsInstance: false) { _, _ in }],
            endOrder: .reverse,
            combine: { element in [element(0)] },
            downstream: { _ in },
            lifetime: lifetime
        )
        expectSameMemory(stage, \.endingStreamStorage, stage.isEndingStream)
        token.dispose()
        #expect(stage.endingStreamStorage.value == 1)
    }

    @Test func aCompositesFlagsAreTheirObjectsFirstStoredProperties() throws {
        let composite = CompositeDisposable()
        #expect(MemoryLayout<CompositeAtomics>.offset(of: \.turn) == 0)
        #expect(MemoryLayout<CompositeAtomics>.offset(of: \.state) == CompositeAtomics.stateOffset)
        #expect(MemoryLayout<CompositeAtomics>.offset(of: \.disposed) == CompositeAtomics.disposedOffset)
        expectSameMemory(composite, \.atomicsStorage.turn, composite.startTurn)
        let member = try #require(composite.add(AnyDisposable {}) as? CompositeDisposable.MemberHandle)
        expectSameMemory(member, \.removedStorage, AtomicFlag(firstStoredPropertyOf: member))
        member.dispose()
        #expect(member.removedStorage.value == 1)
        composite.dispose()
        #expect(composite.atomicsStorage.disposed.value == 1 && composite.isDisposed)
        // Disposed of before anything was added: no locked state was made.
        let empty = CompositeDisposable()
        empty.dispose()
        #expect(empty.atomicsStorage.state.value == 1 && empty.atomicsStorage.disposed.value == 1 && empty.isDisposed)
        #expect(empty.add(AnyDisposable {}) == nil)
    }

    @Test func aCountersWordIsItsFirstStoredProperty() {
        let counter = AtomicCounter(5)
        #expect(counter.loadRelaxed() == 5)
        expectSameMemory(counter, \.storage, counter.word)
    }

    /// Many threads change one counter at once: every change counts, and nothing traps (an
    /// exclusivity check on the property would).
    @Test func concurrentAddsAreAtomic() {
        let counter = AtomicCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 {
                counter.add(3, ordering: .relaxed)
                counter.subtract(1, ordering: .acquiringAndReleasing)
            }
        }
        #expect(counter.loadSequentiallyConsistent() == 8 * 10_000 * 2)
    }

    @Test func operationsReturnWhatSynchronizationsDo() {
        let counter = AtomicCounter()
        let word = counter.word
        #expect(word.compareExchangeAcquiring(expected: 1, desired: 2) == (false, 0))
        #expect(word.compareExchangeReleasing(expected: 0, desired: 2) == (true, 0))
        #expect(word.compareExchangeAcquiringAndReleasing(expected: 2, desired: 7) == (true, 2))
        #expect(word.exchangeAcquiringAndReleasing(9) == 7)
        #expect(word.wrappingAddReleasing(1) == (9, 10))
        #expect(word.wrappingSubtractRelaxed(11) == (10, UInt.max))
        #expect(counter.add(1, ordering: .sequentiallyConsistent) == (-1, 0))
        #expect(counter.subtract(2, ordering: .sequentiallyConsistent) == (0, -2))

        let composite = CompositeDisposable()
        let flag = AtomicFlag(firstStoredPropertyOf: composite)
        #expect(flag.exchangeAcquiringAndReleasing(true) == false)
        #expect(flag.loadAcquiring())
        flag.storeReleasing(false)
        #expect(!flag.loadAcquiring())
    }
}

private struct LayoutTestError: Swift.Error {}

private struct Idle: MailboxGuardedState {
    var needsSlowPath: Bool { false }
}
