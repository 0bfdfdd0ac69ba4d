import Foundation
import RivuletChannels

/// Records what an output receives, from any thread, as short strings: `"1"` for a value,
/// `"complete"`, `"cancelled"`, `"duplicate"`, `"timeout"` or `"other(…)"` for an end.
final class ChannelLog<Value>: @unchecked Sendable {
    // @unchecked Sendable: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [String] = []

    init() {}

    var all: [String] { lock.withLock { entries } }

    func append(_ result: Result<Value, ChannelEnd>) {
        let text: String
        switch result {
        case let .success(value): text = "\(value)"
        case let .failure(end): text = ChannelLog.describe(end)
        }
        lock.withLock { entries.append(text) }
    }

    func appendText(_ text: String) {
        lock.withLock { entries.append(text) }
    }

    /// A handler for `subscribe`.
    var handler: @Sendable (Result<Value, ChannelEnd>) -> Void { { [self] in append($0) } }

    static func describe(_ end: ChannelEnd) -> String {
        switch end {
        case .complete: return "complete"
        case .cancelled: return "cancelled"
        case let .other(error):
            if error is ChannelBindError<Value> { return "duplicate" }
            if let error = error as? ChannelReactiveError, error == .timeout { return "timeout" }
            return "other(\(error))"
        }
    }
}

/// An error for tests.
struct ChannelTestError: Error, Equatable, CustomStringConvertible {
    let code: Int
    init(_ code: Int) { self.code = code }
    var description: String { "E\(code)" }
}
