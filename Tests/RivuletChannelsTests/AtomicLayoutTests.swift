import Testing

@testable import Rivulet
@testable import RivuletChannels
import RivuletContracts

/// Checks that `memory` (an atomic kept as a stored property, reached through `atomic`) is the
/// memory `atomic` points to: a write through either is seen by the other.
private func expectSameMemory<Object: AnyObject>(
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

/// The channel classes that keep atomics as their first stored property (see Rivulet's
/// AtomicWord.swift): the pointer each computes is that property's address.
@Suite(.checksLiveObjects) struct ChannelAtomicLayoutTests {
    @Test func aChannelsAndAnInputsAtomicsAreTheirFirstStoredProperty() {
        let (input, channel) = Channel<Int>.create()
        for (generation, flag) in [(UInt(0b1010), true), (0b0101, false)] {
            channel.publishedGeneration.storeRelaxed(generation)
            channel.ownerIsHandling.storeRelaxed(flag)
            #expect(channel.atomicsStorage.word.value == generation && (channel.atomicsStorage.flag.value != 0) == flag)
            input.generation.storeRelaxed(generation)
            input.ended.storeRelaxed(flag)
            #expect(input.atomicsStorage.word.value == generation && (input.atomicsStorage.flag.value != 0) == flag)
        }
        channel.atomicsStorage = AtomicWordAndFlagStorage(word: 0, flag: false)
        #expect(channel.publishedGeneration.loadRelaxed() == 0 && !channel.ownerIsHandling.loadRelaxed())
        input.atomicsStorage = AtomicWordAndFlagStorage(word: 3, flag: true)
        #expect(input.generation.loadRelaxed() == 3 && input.ended.loadRelaxed())
    }

    @Test func aConsumersFlagIsItsFirstStoredPropertyInEverySubclass() {
        let consumer = ClosureConsumer<Int>(attached: nil, activationDidEnd: nil) { _, _ in }
        expectSameMemory(consumer, \.stoppedStorage, consumer.stopped)
        let base: ChannelConsumer<Int> = consumer
        expectSameMemory(base, \.stoppedStorage, base.stopped)
    }

    @Test func anOutputLinksFlagIsItsFirstStoredProperty() {
        let link = OutputLink<Int>()
        expectSameMemory(link, \.stoppedStorage, link.stopped)
        let consumer = OutputConsumer<Int>(valueHandler: { _ in })
        expectSameMemory(consumer.link, \.stoppedStorage, consumer.link.stopped)
        expectSameMemory(consumer, \.stoppedStorage, consumer.stopped)
        consumer.link.cancel()
    }

    @Test func forwardersFlagsAreTheirFirstStoredProperty() {
        let (_, channel) = Channel<Int>.create()
        let junction = JunctionForwarder(junction: channel.junction(), target: channel, generation: 1)
        expectSameMemory(junction, \.stoppedStorage, AtomicFlag(firstStoredPropertyOf: junction))
        let merge = MergeForwarder(
            source: MultiInputSource<Int>(onLastInputClosed: nil), entryID: 0, node: channel, generation: 1)
        expectSameMemory(merge, \.stoppedStorage, AtomicFlag(firstStoredPropertyOf: merge))
    }
}
