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
    ///
    /// - Parameter sourceLocation: Where the issues are reported; the caller's line by default.
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
///
/// - Parameters:
///   - report: The report to check; evaluated once.
///   - file: The file the failures are reported in; the caller's by default.
///   - line: The line the failures are reported at; the caller's by default.
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
