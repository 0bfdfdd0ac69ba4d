import Foundation
import Testing

/// Every ```swift block in README.md and Docs/*.md must appear, line for line (ignoring
/// indentation), in the RivuletTour target, which compiles and runs it (or, for the contract
/// kit, in its documentation tests). So a sample in the docs is
/// always code that builds and runs.
@Suite struct DocumentationSamplesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func documents() -> [URL] {
        let docs = root.appendingPathComponent("Docs")
        let files = (try? FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)) ?? []
        return [root.appendingPathComponent("README.md")] + files.filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
    }

    static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(trimmed)
            }
        }
        return blocks
    }

    /// Where samples are compiled and run: the tour, and for the contract kit (whose samples are
    /// tests by nature: they use `@Test` and `#expect`) the kit's documentation tests.
    static let sampleDirectories = ["Sources/RivuletTour", "Tests/RivuletContractsTests/Docs"]

    static func tourLines() throws -> [String] {
        try sampleDirectories.flatMap { directory in
            let folder = root.appendingPathComponent(directory)
            let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            return try files.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }.flatMap { file in
                try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
    }

    @Test func everySwiftSampleIsCompiledByTheTour() throws {
        let tour = try Self.tourLines()
        var checked = 0
        for document in Self.documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                let lines = block.filter { !$0.isEmpty }
                guard !lines.isEmpty else { continue }
                let found = tour.indices.contains { start in
                    var index = start
                    for line in lines {
                        while index < tour.count, tour[index].isEmpty { index += 1 }
                        guard index < tour.count, tour[index] == line else { return false }
                        index += 1
                    }
                    return true
                }
                #expect(found, "\(document.lastPathComponent): sample starting \"\(lines[0])\" is not in RivuletTour or the contract kit's documentation tests")
                checked += 1
            }
        }
        #expect(checked >= 4, "expected the README and Docs samples to be found")
    }
}
