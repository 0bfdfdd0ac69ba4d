import Foundation
import Testing
import RivuletContracts

/// Every ```swift block in README.md, Docs/*.md and the DocC catalogs' own pages must appear,
/// line for line (ignoring indentation), in the RivuletTour target, which compiles and runs it
/// (or, for the contract kit, in its documentation tests). So a sample in the docs is always
/// code that builds and runs.
///
/// Stated outputs. What the docs say a sample prints is written in one of two forms, and both are
/// checked against `Tools/docs/TourOutput.golden`, the tour's whole output (which
/// `Tools/docs/check_tour_output.sh` checks against what `swift run RivuletTour` prints):
/// - an output block: a fenced block with the info string `output` (```output), right after the
///   ```swift sample it belongs to (nothing between them but blank lines and at most one line of
///   prose, such as "prints"). Its lines must appear contiguously and in order, exactly, in the
///   tour section that runs the sample;
/// - an inline claim: a comment in the sample that ends in `prints: <exact line>` (a note may come
///   first: `// coerced; prints: 150 false`). A sample's claims must be whole lines of its
///   section, in the order they are written.
/// The section that runs a sample is found by locating the sample in Sources/RivuletTour, taking
/// the top-level function that contains its last line, and the header that function is registered
/// under (`("title", function)` in main.swift or in runDesignGuidelinesExamples, printed as
/// `── title` or `· title`). A fence without an info string right after a sample, or prose right
/// after a sample that starts with "prints" but is not followed by an output block, is an error.
@Suite(.checksLiveObjects) struct DocumentationSamplesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func documents() -> [URL] {
        let docs = root.appendingPathComponent("Docs")
        let files = (try? FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)) ?? []
        return [root.appendingPathComponent("README.md")] + files.filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
            + catalogPages()
    }

    /// The DocC catalogs' own pages (Sources/<Module>/<Module>.docc/*.md); their other articles
    /// are symbolic links to the guides in Docs/, checked as those.
    static func catalogPages() -> [URL] {
        let sources = root.appendingPathComponent("Sources")
        let modules = (try? FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil)) ?? []
        return modules.flatMap { module -> [URL] in
            let catalog = module.appendingPathComponent(module.lastPathComponent + ".docc")
            let pages = (try? FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)) ?? []
            return pages.filter { page in
                let isLink = (try? page.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) ?? false
                return page.pathExtension == "md" && isLink != true
            }
        }.sorted { $0.path < $1.path }
    }

    @Test func theCatalogsOwnPagesAreChecked() {
        let names = Self.catalogPages().map(\.lastPathComponent)
        #expect(names.contains("Rivulet.md"))
        #expect(!names.contains("Operators.md"), "a guide linked into a catalog is checked as the file in Docs/")
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
                #expect(
                    found,
                    "\(document.lastPathComponent): sample starting \"\(lines[0])\" is not in RivuletTour or the contract kit's documentation tests"
                )
                checked += 1
            }
        }
        #expect(checked >= 4, "expected the README and Docs samples to be found")
    }

    // MARK: Stated outputs

    /// A fenced block of a document, with the prose lines between it and the previous block.
    struct Fence {
        var info: String
        var lines: [String]
        var line: Int
        var proseBefore: [String]
    }

    static func fences(in text: String) -> [Fence] {
        var fences: [Fence] = []
        var prose: [String] = []
        var open: Fence?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var fence = open {
                if trimmed == "```" {
                    fences.append(fence)
                    open = nil
                } else {
                    fence.lines.append(line)
                    open = fence
                }
            } else if trimmed.hasPrefix("```") {
                let info = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                open = Fence(info: info, lines: [], line: index + 1, proseBefore: prose.filter { !$0.isEmpty })
                prose = []
            } else {
                prose.append(trimmed)
            }
        }
        return fences
    }

    static let golden = root.appendingPathComponent("Tools/docs/TourOutput.golden")

    /// The golden output split at its headers (`── title` and `· title`): header line to lines.
    static func goldenSections() throws -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var header: String?
        for line in try String(contentsOf: golden, encoding: .utf8).components(separatedBy: "\n") {
            if line.hasPrefix("── ") || line.hasPrefix("· ") {
                #expect(sections[line] == nil, "TourOutput.golden: header \"\(line)\" appears twice")
                header = line
                sections[line] = []
            } else if let header {
                sections[header]!.append(line)
            }
        }
        return sections
    }

    struct TourFile {
        var name: String
        var lines: [String]
    }

    static func tourFiles() throws -> [TourFile] {
        let folder = root.appendingPathComponent("Sources/RivuletTour")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        return try files.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }.map { file in
            TourFile(
                name: file.lastPathComponent,
                lines: try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n"))
        }
    }

    /// The section headers the tour's examples are registered under: `("title", function)`.
    static func registrations(in files: [TourFile]) -> [String: String] {
        var titles: [String: String] = [:]
        let pattern = /\("([^"]+)", ([A-Za-z_][A-Za-z0-9_]*)\)/
        for file in files {
            for match in file.lines.joined(separator: "\n").matches(of: pattern) {
                titles[String(match.output.2)] = String(match.output.1)
            }
        }
        return titles
    }

    /// The top-level functions of the tour that contain the sample's last line (one per place the
    /// sample is found; nil where that line is not inside a top-level function).
    static func enclosingFunctions(of sample: [String], in files: [TourFile]) -> [String?] {
        let lines = sample.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return [] }
        var found: [String?] = []
        for file in files {
            let trimmed = file.lines.map { $0.trimmingCharacters(in: .whitespaces) }
            for start in trimmed.indices {
                var index = start
                var last = start
                var matched = true
                for line in lines {
                    while index < trimmed.count, trimmed[index].isEmpty { index += 1 }
                    guard index < trimmed.count, trimmed[index] == line else { matched = false; break }
                    last = index
                    index += 1
                }
                guard matched else { continue }
                found.append(enclosingFunction(ofLine: last, in: file.lines))
            }
        }
        return found
    }

    static func enclosingFunction(ofLine index: Int, in lines: [String]) -> String? {
        func isTopLevel(_ line: String) -> Bool { !line.isEmpty && !line.first!.isWhitespace }
        guard !isTopLevel(lines[index]) else { return nil }
        for line in lines[..<index].reversed() where isTopLevel(line) && !line.hasPrefix("//") {
            guard line.hasPrefix("func ") else { return nil }
            return String(line.dropFirst(5).prefix { $0 != "(" && $0 != "<" })
        }
        return nil
    }

    /// The exact lines a sample's comments claim it prints (`// … prints: <line>`), in order.
    static func inlineClaims(in sample: [String]) -> [String] {
        sample.compactMap { line in
            guard let comment = line.range(of: "// "),
                let claim = line[comment.upperBound...].range(of: "prints: ")
            else { return nil }
            let text = line[claim.upperBound...]
            return String(text.reversed().drop { $0.isWhitespace }.reversed())
        }
    }

    static func trimmingTrailing(_ line: String) -> String {
        String(line.reversed().drop { $0.isWhitespace }.reversed())
    }

    @Test func everyStatedOutputIsWhatTheTourPrints() throws {
        let sections = try Self.goldenSections()
        let files = try Self.tourFiles()
        let titles = Self.registrations(in: files)
        var blocksChecked = 0
        var claimsChecked = 0

        /// The golden lines of the tour section that runs `sample`, or nil after recording why not.
        func section(of sample: Fence, in document: String, for what: String) -> [String]? {
            let functions = Set(Self.enclosingFunctions(of: sample.lines, in: files))
            guard functions.count == 1, let function = functions.first! else {
                Issue.record(
                    "\(document):\(sample.line): \(what) belongs to a sample that is not inside one example function of RivuletTour (found in: \(functions.map { $0 ?? "no function" }))"
                )
                return nil
            }
            guard let title = titles[function] else {
                Issue.record(
                    "\(document):\(sample.line): \(what) belongs to a sample in \(function)(), which the tour does not register under a title"
                )
                return nil
            }
            let headers = ["── \(title)", "· \(title)"].filter { sections[$0] != nil }
            guard headers.count == 1 else {
                Issue.record(
                    "\(document):\(sample.line): no single section \"\(title)\" in TourOutput.golden (run Tools/docs/check_tour_output.sh)"
                )
                return nil
            }
            return sections[headers[0]]!
        }

        for document in Self.documents() {
            let name = document.lastPathComponent
            let fences = Self.fences(in: try String(contentsOf: document, encoding: .utf8))
            for (index, fence) in fences.enumerated() {
                let previous = index > 0 ? fences[index - 1] : nil
                let followsSample = previous?.info == "swift" && fence.proseBefore.count <= 1

                if fence.info == "swift" {
                    let claims = Self.inlineClaims(in: fence.lines)
                    if !claims.isEmpty, let output = section(of: fence, in: name, for: "a `prints:` comment") {
                        var remaining = output[...]
                        for claim in claims {
                            if let found = remaining.firstIndex(of: claim) {
                                remaining = output[(found + 1)...]
                            } else {
                                Issue.record(
                                    "\(name):\(fence.line): the sample claims it prints \"\(claim)\", but its tour section does not print that line (after the claims before it)"
                                )
                            }
                            claimsChecked += 1
                        }
                    }
                } else if fence.info == "output" {
                    guard let sample = previous, followsSample else {
                        Issue.record(
                            "\(name):\(fence.line): an ```output block must come right after the ```swift sample it belongs to (at most one line of prose between)"
                        )
                        continue
                    }
                    guard let output = section(of: sample, in: name, for: "the ```output block at line \(fence.line)") else {
                        continue
                    }
                    let stated = fence.lines.map(Self.trimmingTrailing)
                    let found =
                        stated.isEmpty
                        || output.indices.contains { start in
                            start + stated.count <= output.count
                                && Array(output[start..<(start + stated.count)]) == stated
                        }
                    #expect(
                        found,
                        "\(name):\(fence.line): this output block is not printed, line for line, by the tour section that runs the sample above it:\n\(stated.joined(separator: "\n"))\n--- the section prints:\n\(output.joined(separator: "\n"))"
                    )
                    blocksChecked += 1
                } else if fence.info.isEmpty, followsSample {
                    Issue.record(
                        "\(name):\(fence.line): a block without an info string right after a sample reads as its output: mark it ```output (or give it a language)"
                    )
                }

                if previous?.info == "swift", let first = fence.proseBefore.first, first.hasPrefix("prints"),
                    !(fence.proseBefore == ["prints"] && fence.info == "output")
                {
                    Issue.record(
                        "\(name):\(fence.line): \"\(first)\" (before this block): state a sample's output in an ```output block (the line \"prints\", then the block)"
                    )
                }
            }
        }
        #expect(blocksChecked >= 30, "expected the README and Docs output blocks to be found (\(blocksChecked))")
        #expect(claimsChecked >= 15, "expected the README and Docs `prints:` comments to be found (\(claimsChecked))")
    }
}
