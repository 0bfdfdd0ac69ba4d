import Foundation
import RivuletContracts
import Testing
@testable import Rivulet

/// A million cycles of each way of making and ending a stream leave nothing behind: every closure
/// is released, the live-object count comes back to where it started, and resident memory stays
/// flat (`CycleRounds`). The observe/dispose cycle is in ObservationHandleTests.
@Suite(.checksLiveObjects) struct MillionCycleTests {
    /// A million, as the brief asks; a tenth of that under a sanitizer, where the resident-memory
    /// bound is not checked (see `CycleRounds.expectFlat`) and each cycle costs several times more:
    /// the released closures and the live-object counts still show any leak, cycle by cycle.
    static let cycles = isRunningUnderAMemorySanitizer ? 100_000 : 1_000_000

    @Test("A million producer starts, each disposed of, release every start and closure")
    func aMillionProducerStartAndDisposeCycles() {
        let released = Counter()
        let ended = Counter()
        // A producer that never ends by itself: each start lives until it is disposed of.
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            observer.send(value: 1)
            lifetime.observeEnded { ended.increment() }
        }
        let received = Counter()
        let rounds = CycleRounds(cycles: Self.cycles) {
            let captured = CountsDeinit(released)
            producer.startWithValues { _ in
                _ = captured
                received.increment()
            }.dispose()
        } afterRound: { round in
            #expect(released.value == round * Self.cycles, "every start's observer closure was released")
            #expect(ended.value == round * Self.cycles, "every start's lifetime ended")
        }
        #expect(received.value == 2 * Self.cycles)
        rounds.expectFlat()
    }

    @Test("A million bindings, each disposed of, release every binding and closure")
    func aMillionPropertyBindAndUnbindCycles() {
        let released = Counter()
        let source = MutableProperty(0)
        let target = MutableProperty(-1)
        let rounds = CycleRounds(cycles: Self.cycles) {
            let captured = CountsDeinit(released)
            let binding =
                target
                <~ source.producer.map { value in
                    _ = captured
                    return value
                }
            binding?.dispose()
        } afterRound: { round in
            #expect(released.value == round * Self.cycles, "every binding's closure was released")
            #expect(target.value == 0, "each binding set the source's current value")
            target.value = -1
        }
        // Unbound: the target no longer follows the source.
        source.value = 2
        #expect(target.value == -1)
        rounds.expectFlat()
    }

    @Test("A million inner producers through flatMap(.latest) are each released when replaced")
    func aMillionFlatMapInnerStreams() {
        let released = Counter()
        let ended = Counter()
        let (outer, input) = Signal<Int, Never>.pipe()
        let received = Counter()
        // Each inner producer stays open until the next outer value replaces (interrupts) it.
        let disposable = outer.flatMap(.latest) { value -> SignalProducer<Int, Never> in
            let captured = CountsDeinit(released)
            return SignalProducer { observer, lifetime in
                _ = captured
                observer.send(value: value)
                lifetime.observeEnded { ended.increment() }
            }
        }.observeValues { _ in received.increment() }
        // One inner producer runs before, during and after the rounds: the latest one.
        var value = 0
        input.send(value: value)
        let rounds = CycleRounds(cycles: Self.cycles) {
            value += 1
            input.send(value: value)
        } afterRound: { round in
            #expect(released.value == round * Self.cycles, "every replaced inner producer was released")
            #expect(ended.value == round * Self.cycles, "every replaced inner start ended")
        }
        #expect(received.value == 2 * Self.cycles + 1)
        disposable?.dispose()
        #expect(released.value == 2 * Self.cycles + 1, "disposing of the flattening released the last inner producer")
        #expect(ended.value == 2 * Self.cycles + 1)
        rounds.expectFlat()
        withExtendedLifetime(input) {}
    }
}

/// Counts its own deinitializations, to tell a million releases from a leak.
final class CountsDeinit: Sendable {
    let counter: Counter
    init(_ counter: Counter) { self.counter = counter }
    deinit { counter.increment() }
}
