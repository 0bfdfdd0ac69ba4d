import Rivulet
import RivuletContracts
import Testing
import XCTest

/// `expectConforming()` (Swift Testing) and `XCTAssertConforms` (XCTest) record one failure per
/// violation, and none for a conforming report.
@Suite struct SwiftTestingHelperTests {
    @Test func aConformingReportRecordsNoIssue() {
        OperatorContract.verify("map") { (signal: Signal<Int, ContractError>) in signal.map { $0 + 1 } }
            .expectConforming()
    }

    @Test func aViolationIsRecordedAsAnIssue() {
        let report = OperatorContract.verify("swallowingFailure") { (signal: Signal<Int, ContractError>) in
            signal.swallowingFailure()
        }
        // Fails if `expectConforming` records nothing.
        withKnownIssue("the operator swallows failures (E2)") {
            report.expectConforming()
        }
    }
}

final class XCTestHelperTests: XCTestCase {
    private var captured: [String] = []
    private var isCapturing = false

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        if isCapturing { captured.append(issue.compactDescription) } else { super.record(issue) }
    }
    #else
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if isCapturing {
            captured.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #endif

    private func failures(of report: ContractReport) -> [String] {
        captured = []
        isCapturing = true
        XCTAssertConforms(report)
        isCapturing = false
        return captured
    }

    func testAConformingReportRecordsNoFailure() {
        let report = OperatorContract.verify("map") { (signal: Signal<Int, ContractError>) in signal.map { $0 + 1 } }
        XCTAssertEqual(failures(of: report), [])
    }

    func testEachViolationIsOneFailureNamingItsClause() {
        let report = OperatorContract.verify("swallowingFailure") { (signal: Signal<Int, ContractError>) in
            signal.swallowingFailure()
        }
        let recorded = failures(of: report)
        XCTAssertEqual(recorded.count, report.violations.count)
        XCTAssertFalse(recorded.isEmpty)
        XCTAssertTrue(recorded.allSatisfy { $0.contains("E2") }, "\(recorded)")
    }
}
