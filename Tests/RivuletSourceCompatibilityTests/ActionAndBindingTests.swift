import Rivulet
import XCTest

final class ActionAndBindingTests: XCTestCase {
    func testAVoidInputActionTakesTheStateAlone() {
        let state = MutableProperty(10)
        let action = Action<(), Int, Never>(state: state) { (value: Int) in SignalProducer(value: value + 1) }
        var outputs: [Int] = []
        action.values.observeValues { outputs.append($0) }
        action.apply().start()
        state.value = 20
        action.apply().start()
        XCTAssertEqual(outputs, [11, 21])
    }

    func testAnUnwrappingVoidInputActionIsDisabledWhileTheStateIsNil() {
        let input = MutableProperty<Int?>(1)
        let echo: @Sendable (Int) -> SignalProducer<Int, Never> = { SignalProducer(value: $0) }
        let action = Action(unwrapping: input, execute: echo)
        XCTAssertTrue(action.isEnabled.value)
        input.value = nil
        XCTAssertFalse(action.isEnabled.value)
        var outputs: [Int] = []
        action.values.observeValues { outputs.append($0) }
        input.value = 5
        action.apply().start()
        XCTAssertEqual(outputs, [5])
    }

    func testAValidatedVoidInputActionGetsTheValidValue() {
        let input = ValidatingProperty(1) { $0 > 0 ? .valid : .invalid(TestError.first) }
        let echo: @Sendable (Int) -> SignalProducer<Int, Never> = { SignalProducer(value: $0) }
        let action = Action(validated: input, execute: echo)
        XCTAssertTrue(action.isEnabled.value)
        input.value = -1
        XCTAssertFalse(action.isEnabled.value)
        input.value = 3
        var outputs: [Int] = []
        action.values.observeValues { outputs.append($0) }
        action.apply().start()
        XCTAssertEqual(outputs, [3])
    }

    func testBindingToAnOptionalTargetBindsTheWrappedTarget() {
        // A target's action may be called from any thread, so mutating a captured `var` in it
        // draws a concurrency warning in the Swift 5 mode (an error in Swift 6): collect into an
        // object instead.
        let received = Events<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        let optionalTarget: BindingTarget<Int>? = BindingTarget(lifetime: lifetime) { received.observer.send(value: $0) }
        let property = MutableProperty(1)
        optionalTarget <~ property
        property.value = 2
        XCTAssertEqual(received.values, [1, 2])
        XCTAssertTrue(optionalTarget.bindingTarget.lifetime === lifetime)
        withExtendedLifetime(token) {}
    }

    func testBindingToANilTargetBindsNothing() {
        let optionalTarget: BindingTarget<Int>? = nil
        let property = MutableProperty(1)
        XCTAssertNil(optionalTarget <~ property)
        XCTAssertTrue(optionalTarget.bindingTarget.lifetime.hasEnded)
    }

    func testBindingAnOptionalPropertyToAProducerOfOptionals() {
        let optionalProperty = MutableProperty<Int?>(nil)
        let (signal, input) = Signal<Int?, Never>.pipe()
        optionalProperty <~ signal
        input.send(value: 4)
        XCTAssertEqual(optionalProperty.value, 4)
        input.send(value: nil)
        XCTAssertNil(optionalProperty.value)
    }

    func testBindingToAnObserverReturnsADisposable() {
        let (signal, observer) = Signal<Int, Never>.pipe()
        var received: [Int] = []
        signal.observeValues { received.append($0) }
        let (source, sourceInput) = Signal<Int, Never>.pipe()
        let disposable: Disposable = observer <~ source
        sourceInput.send(value: 1)
        disposable.dispose()
        sourceInput.send(value: 2)
        XCTAssertEqual(received, [1])
    }
}

/// A struct that wraps a read-only property: its memberwise initialiser takes the property, as
/// with ReactiveSwift (which gives `Property` no `init(wrappedValue:)`).
private struct Limits {
    @Property var maximum: Int
    let current: Property<Int>
}

final class PropertyWrapperTests: XCTestCase {
    func testTheMemberwiseInitialiserOfAWrappedPropertyTakesTheProperty() {
        let source = MutableProperty(3)
        let limits = Limits(maximum: Property(source), current: Property(value: 1))
        source.value = 4
        XCTAssertEqual(limits.maximum, 4)
        XCTAssertEqual(limits.$maximum.value, 4)
        XCTAssertEqual(limits.current.value, 1)
    }
}

final class PropertyCombiningTests: XCTestCase {
    func testCombiningPropertiesIsSpelledAsInReactiveSwift() {
        let a = MutableProperty(1)
        let b = MutableProperty("x")
        let combined: Property<(Int, String)> = Property.combineLatest(a, b)
        let zipped = MutableProperty<Int>.zip(a, b, a, b)
        a.value = 2
        XCTAssertEqual(combined.value.0, 2)
        XCTAssertEqual(combined.value.1, "x")
        XCTAssertEqual(zipped.value.0, 1, "zip waits for every source's next value")
        b.value = "y"
        XCTAssertEqual(zipped.value.0, 2)
        XCTAssertEqual(zipped.value.3, "y")
    }
}
