import Testing
@testable import Rivulet
import RivuletContracts

@Suite(.checksLiveObjects) struct PropertyTests {
    @Test func aConstantPropertyNeverChanges() {
        let property = Property(value: 3)
        let producerRecorder = EventRecorder<Int, Never>()
        let signalRecorder = EventRecorder<Int, Never>()
        property.producer.start(producerRecorder.observer)
        property.signal.observe(signalRecorder.observer)
        #expect(property.value == 3)
        #expect(producerRecorder.events == [.value(3), .completed])
        #expect(signalRecorder.events == [.interrupted])
    }

    @Test func aCapturingPropertyPassesThroughAndRetainsItsSource() {
        weak var weakSource: MutableProperty<Int>?
        let view: Property<Int>
        do {
            let source = MutableProperty(1)
            weakSource = source
            view = Property(capturing: source)
            source.value = 2
        }
        #expect(weakSource != nil)
        #expect(view.value == 2)
        let recorder = EventRecorder<Int, Never>()
        view.producer.start(recorder.observer)
        weakSource?.value = 3
        #expect(recorder.values == [2, 3])
    }

    @Test func aComposedPropertyFollowsItsSourceWithoutRetainingIt_R4() {
        weak var weakSource: MutableProperty<Int>?
        let composed: Property<Int>
        let recorder = EventRecorder<Int, Never>()
        do {
            let source = MutableProperty(1)
            weakSource = source
            composed = Property(source)
            composed.producer.start(recorder.observer)
            source.value = 2
            #expect(composed.value == 2)
        }
        #expect(weakSource == nil)
        // The source is gone: the composed property keeps its last value and has ended.
        #expect(composed.value == 2)
        #expect(recorder.events == [.value(1), .value(2), .completed])
        let late = EventRecorder<Int, Never>()
        composed.producer.start(late.observer)
        #expect(late.events == [.value(2), .completed])
    }

    @Test func composingHasNoSideEffectOnTheSource_R4() {
        let starts = Counter()
        let source = SignalProducer<Int, Never> { observer, _ in
            starts.increment()
            observer.send(value: 1)
        }
        let property = Property(initial: 0, then: source)
        _ = property.map { $0 + 1 }
        _ = property.combineLatest(with: property)
        // Only the property's own composition started the producer; composing further did not.
        #expect(starts.value == 1)
        #expect(property.value == 1)
    }

    @Test func initialThenSignal() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let property = Property(initial: 0, then: signal)
        let recorder = EventRecorder<Int, Never>()
        property.producer.start(recorder.observer)
        input.send(value: 1)
        #expect(property.value == 1)
        input.sendCompleted()
        #expect(recorder.events == [.value(0), .value(1), .completed])
    }

    @Test func initialThenProducerOfNonOptionalsForAnOptionalProperty() {
        let property = Property<Int?>(initial: nil, then: SignalProducer<Int, Never>(value: 4))
        #expect(property.value == 4)
    }

    @Test func theComposedSignalStaysAliveWhileObservedAfterThePropertyIsGone() {
        let source = MutableProperty(0)
        let recorder = EventRecorder<Int, Never>()
        do {
            let composed = source.map { $0 * 10 }
            composed.signal.observe(recorder.observer)
        }
        source.value = 1
        source.value = 2
        #expect(recorder.values == [10, 20])
    }

    @Test func anUnreachableUnobservedComposedPropertyStopsFollowingItsSource_S4() {
        let source = MutableProperty(0)
        let transforms = Counter()
        do {
            let composed = source.map { value -> Int in
                transforms.increment()
                return value
            }
            #expect(composed.value == 0)
        }
        source.value = 1
        #expect(transforms.value == 1)
    }

    @Test func aSourceThatSendsNoValueAtOnceIsAClearError() async {
        await #expect(processExitsWith: .failure) {
            _ = Property(SignalProducer<Int, Never>.never.lift { $0 })
        }
    }

    @Test func worksAsAPropertyWrapperInitialisedWithAProperty() {
        // As in ReactiveSwift, a read-only property has no `init(wrappedValue:)`: the memberwise
        // initialiser of a struct that wraps one takes the property, which can then change.
        struct Settings {
            @Property var limit: Int
        }
        let source = MutableProperty(10)
        let settings = Settings(limit: Property(source))
        #expect(settings.limit == 10)
        source.value = 11
        #expect(settings.limit == 11)
        #expect(settings.$limit.value == 11)
    }
}

extension Property where Value == Int {
    fileprivate convenience init(_ producer: SignalProducer<Int, Never>) {
        self.init(composing: producer, rank: 1)
    }
}
