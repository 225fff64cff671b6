import Foundation
import Testing

/// The docs name real files: a source file a doc points a reader at must be where it says, so a
/// move or a rename that forgets the docs fails here instead of sending a reader nowhere.
@Suite struct DocumentationTests {
    static let root = LayeringTests.root

    @Test func everySourceFileTheDocsNameExists() throws {
        let sources = try Self.swiftFiles()
        for (doc, path) in try Self.namedSwiftFiles() {
            let found = sources.contains { $0 == path || $0.hasSuffix("/" + path) }
            #expect(found, "\(doc) names \(path), which is not a file under Sources, Tests or Benchmarks")
        }
    }

    @Test func theReaderFindsTheFilesADocNames() throws {
        let named = try Self.namedSwiftFiles()
        #expect(named.contains { $0 == ("docs/architecture.md", "FlapHeartRate/Hub/HeartRateHub.swift") })
        #expect(!named.contains { $0.1.contains("\n") }, "a fenced block read as one name")
    }

    /// Every `…/Name.swift` in backticks in README.md, docs/ and hardware/, with the doc it is in.
    static func namedSwiftFiles() throws -> [(String, String)] {
        let docs = ["README.md"] + (try markdown(under: "docs")) + (try markdown(under: "hardware"))
        return try docs.flatMap { doc in
            let text = try String(contentsOf: root.appendingPathComponent(doc), encoding: .utf8)
            // A fenced block's fence is not a name's quote.
            return LayeringTests.names(in: text.replacingOccurrences(of: "```", with: ""))
                .filter { $0.hasSuffix(".swift") && $0.contains("/") && !$0.contains(" ") && !$0.contains("*") }
                .map { (doc, $0) }
        }
    }

    static func markdown(under folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
    }

    /// Every Swift file's path from the repository's root.
    static func swiftFiles() throws -> [String] {
        ["Sources", "Tests", "Benchmarks"].flatMap { folder in
            (FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
        }
    }
}
