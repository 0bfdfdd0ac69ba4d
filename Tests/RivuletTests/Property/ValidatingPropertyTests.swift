import Testing
@testable import Rivulet
import RivuletContracts

private struct TooLong: Swift.Error, Equatable {}

/// A compact description of a validation result, for exact comparisons.
private func describe(_ result: ValidatingProperty<String, TooLong>.Result) -> String {
    switch result {
    case let .valid(value): "valid(\(value))"
    case let .coerced(replacement, proposed, error): "coerced(\(replacement)<-\(proposed), \(error != nil))"
    case let .invalid(value, _): "invalid(\(value))"
    }
}

@Suite(.checksLiveObjects) struct ValidatingPropertyTests {
    /// Accepts up to 3 characters, trims 4 or 5, rejects more.
    private func makeProperty(_ initial: String = "") -> ValidatingProperty<String, TooLong> {
        ValidatingProperty(initial) { proposed in
            switch proposed.count {
            case ...3: .valid
            case 4...5: .coerced(String(proposed.prefix(3)), TooLong())
            default: .invalid(TooLong())
            }
        }
    }

    @Test func validCoercedAndInvalidProposals() {
        let property = makeProperty()
        let results = EventRecorder<String, Never>()
        property.result.signal.map(describe).observe(results.observer)
        let values = EventRecorder<String, Never>()
        property.signal.observe(values.observer)

        property.value = "ab"
        #expect(property.value == "ab")
        property.value = "abcde"
        #expect(property.value == "abc")
        property.value = "abcdefgh"
        #expect(property.value == "abc")
        #expect(property.result.value.isInvalid)
        #expect(property.result.value.error == TooLong())

        #expect(results.values == ["valid(ab)", "coerced(abc<-abcde, true)", "invalid(abcdefgh)"])
        // The rejected proposal changed nothing, so it emitted nothing.
        #expect(values.values == ["ab", "abc"])
    }

    @Test func theInitialValueIsValidatedAtOnce() {
        let property = makeProperty("toolongvalue")
        #expect(describe(property.result.value) == "invalid(toolongvalue)")
        #expect(property.value == "toolongvalue")
    }

    @Test func changesMadeToTheWrappedPropertyAreValidatedToo() {
        let inner = MutableProperty("a")
        let property = ValidatingProperty<String, TooLong>(inner) { $0.count <= 3 ? .valid : .invalid(TooLong()) }
        inner.value = "abcd"
        #expect(describe(property.result.value) == "invalid(abcd)")
        // The wrapped property was written directly, so its value is what it was set to.
        #expect(property.value == "abcd")
        property.value = "xy"
        #expect(inner.value == "xy")
        #expect(describe(property.result.value) == "valid(xy)")
    }

    @Test func aCoercedWriteBackIsNotValidatedAgain() {
        let property = makeProperty()
        let reports = Locked<[String]>([])
        property.result.producer.map(describe).startWithValues { report in reports.withLock { $0.append(report) } }
        property.value = "abcd"
        #expect(reports.withLock { $0 } == ["valid()", "coerced(abc<-abcd, true)"])
    }

    @Test func revalidatesTheLatestProposalWhenTheOtherPropertyChanges() {
        let limit = MutableProperty(3)
        let property = ValidatingProperty<String, TooLong>("", with: limit) { proposed, limit in
            proposed.count <= limit ? .valid : .invalid(TooLong())
        }
        property.value = "abcd"
        #expect(property.result.value.isInvalid)
        #expect(property.value == "")
        limit.value = 4
        #expect(describe(property.result.value) == "valid(abcd)")
        #expect(property.value == "abcd")
    }

    @Test func validatesAgainstAnotherValidatingPropertysLatestProposal() {
        let password = makeProperty("abc")
        let confirmation = ValidatingProperty<String, TooLong>("", with: password) { proposed, password in
            proposed == password ? .valid : .invalid(TooLong())
        }
        confirmation.value = "abc"
        #expect(confirmation.result.value.isInvalid == false)
        // An invalid proposal to the password still counts as what the user typed.
        password.value = "abcdefgh"
        #expect(confirmation.result.value.isInvalid)
    }

    @Test func canBeABindingTarget() {
        let property = makeProperty()
        let (signal, input) = Signal<String, Never>.pipe()
        property <~ signal
        input.send(value: "abcd")
        #expect(property.value == "abc")
    }

    @Test func doesNotOutliveItsOtherProperty() {
        weak var weakLimit: MutableProperty<Int>?
        let property: ValidatingProperty<String, TooLong>
        do {
            let limit = MutableProperty(3)
            weakLimit = limit
            property = ValidatingProperty("", with: limit) { $0.count <= $1 ? .valid : .invalid(TooLong()) }
        }
        #expect(weakLimit == nil)
        property.value = "ab"
        #expect(property.value == "ab")
    }
}
