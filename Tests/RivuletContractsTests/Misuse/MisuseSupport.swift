import Testing

/// Expects the standard error that an exit test observed to hold `message`: the text of the
/// precondition, which names the API, the argument, its value and the rule it broke.
///
/// `result` is `nil` when the exit test itself failed, which `#expect` has already reported.
func expectStandardError(
    _ result: ExitTest.Result?, contains message: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let result else { return }
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(standardError.contains(message), "standard error was: \(standardError)", sourceLocation: sourceLocation)
}
