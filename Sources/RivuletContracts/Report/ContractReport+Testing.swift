#if canImport(Testing)
import Testing

extension ContractReport {
    /// Records one Swift Testing issue per violation, each with its clause, explanation and trace.
    ///
    /// ```swift
    /// @Test func doubleKeepsTheContracts() {
    ///     OperatorContract.verify("double") { (signal: Signal<Int, ContractError>) in
    ///         signal.map { $0 * 2 }
    ///     }.expectConforming()
    /// }
    /// ```
    public func expectConforming(sourceLocation: SourceLocation = #_sourceLocation) {
        for violation in violations {
            Issue.record("\(subject): \(violation)", sourceLocation: sourceLocation)
        }
    }
}
#endif

#if canImport(XCTest)
import XCTest

/// Fails the running XCTest once per violation in `report`, with its clause, explanation and trace.
public func XCTAssertConforms(
    _ report: @autoclosure () -> ContractReport,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let report = report()
    for violation in report.violations {
        XCTFail("\(report.subject): \(violation)", file: file, line: line)
    }
}
#endif
