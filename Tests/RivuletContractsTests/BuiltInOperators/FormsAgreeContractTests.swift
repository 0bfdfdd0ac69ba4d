import RivuletContracts
import Testing

/// P3: a signal operator lifted to producers keeps its semantics. For every built-in operator with
/// both forms (given the same operands), the two deliver the same events in every scenario the
/// kit plays from one thread.
@Suite("Contract kit: the two forms of each operator agree (P3)")
struct FormsAgreeContractTests {
    @Test(arguments: BuiltInOperators.all.filter(\.comparesForms))
    func signalAndProducerFormsAgree_P3(_ declared: BuiltInOperator) {
        let disagreements = declared.formDisagreements.map {
            "\($0.scenario): the signal form delivered \($0.this), the producer form \($0.other)"
        }
        #expect(disagreements.isEmpty, "\(declared.name): \(disagreements.joined(separator: "; "))")
    }

    @Test func mostOperatorsAreCompared() {
        let compared = BuiltInOperators.all.filter(\.comparesForms).count
        let withBothForms = BuiltInOperators.all.filter(\.hasBothForms).count
        // Only merge's forms get different operands.
        #expect(compared == withBothForms - 3, "\(compared) of \(withBothForms)")
    }
}
