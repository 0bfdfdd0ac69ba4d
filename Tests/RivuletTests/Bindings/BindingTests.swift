import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct BindingTests {
    @Test func bindsASignalsValues() {
        let target = MutableProperty(0)
        let (signal, input) = Signal<Int, Never>.pipe()
        target <~ signal
        input.send(value: 1)
        input.send(value: 2)
        #expect(target.value == 2)
    }

    @Test func bindingAPropertySetsItsCurrentValueAtOnce() {
        let source = MutableProperty("a")
        let target = MutableProperty("")
        target <~ source
        #expect(target.value == "a")
        source.value = "b"
        #expect(target.value == "b")
    }

    @Test func bindsAProducerAndAnOptionalTarget() {
        let target = MutableProperty<Int?>(nil)
        target <~ SignalProducer<Int, Never>([1, 2, 3])
        #expect(target.value == 3)
    }

    @Test func theBindingEndsWhenTheTargetsLifetimeEnds() {
        let source = MutableProperty(0)
        var target: MutableProperty<Int>? = MutableProperty(0)
        let disposable = target! <~ source
        weak let weakTarget = target
        target = nil
        #expect(weakTarget == nil)
        #expect(disposable?.isDisposed == true)
        source.value = 1
    }

    @Test func theBindingEndsWhenTheSourceEnds() {
        let target = MutableProperty(0)
        let (signal, input) = Signal<Int, Never>.pipe()
        let disposable = target <~ signal
        input.send(value: 1)
        input.sendCompleted()
        #expect(disposable?.isDisposed == true)
        #expect(target.value == 1)
    }

    @Test func disposingTheBindingStopsIt() {
        let source = MutableProperty(0)
        let target = MutableProperty(0)
        let disposable = target <~ source
        disposable?.dispose()
        source.value = 5
        #expect(target.value == 0)
    }

    @Test func aTargetWhoseLifetimeHasEndedBindsNothing() {
        let target = BindingTarget<Int>(lifetime: .empty) { _ in Issue.record("bound after the end") }
        let source = MutableProperty(1)
        #expect((target <~ source) == nil)
    }

    @Test func aKeyPathTargetDoesNotRetainItsObject() {
        // @unchecked Sendable: written only on the binding's scheduler, here the immediate one, on
        // this test's thread.
        final class Label: @unchecked Sendable { var text = "" }
        var label: Label? = Label()
        weak let weakLabel = label
        let token = Lifetime.Token()
        let target = BindingTarget(lifetime: Lifetime(token), object: label!, keyPath: \.text)
        let source = MutableProperty("hello")
        target <~ source
        #expect(label?.text == "hello")
        label = nil
        #expect(weakLabel == nil)
        source.value = "gone"
    }

    @Test func aTargetOnASchedulerRunsTheActionThereInOrder() {
        let scheduler = TestScheduler()
        let values = Locked<[Int]>([])
        let target = BindingTarget<Int>(on: scheduler, lifetime: .make().lifetime) { value in
            values.withLock { $0.append(value) }
        }
        let (lifetime, token) = Lifetime.make()
        let scheduled = BindingTarget<Int>(on: scheduler, lifetime: lifetime, action: { target.action($0) })
        scheduled <~ SignalProducer<Int, Never>([1, 2, 3])
        #expect(values.withLock { $0 } == [])
        scheduler.run()
        #expect(values.withLock { $0 } == [1, 1, 2, 2, 3, 3].enumerated().filter { $0.offset % 2 == 0 }.map(\.element) + [])
        withExtendedLifetime(token) {}
    }

    @Test func anObserverCanBeBound() {
        let recorder = EventRecorder<Int, Never>()
        let observer = recorder.observer
        observer <~ SignalProducer<Int, Never>([4, 5])
        #expect(recorder.values == [4, 5])
    }
}
