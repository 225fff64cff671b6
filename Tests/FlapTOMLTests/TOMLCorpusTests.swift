import Foundation
import TestSupport
import Testing

@testable import FlapTOML

/// flapd's TOML reader on the public toml-test corpus (TOML 1.0's 205 valid and 473 invalid
/// documents), each compared with Python's tomllib (Tests/Peers/toml_test_corpus.py brings the
/// corpus as data and tomllib's readings): the same values for every valid document, a refusal
/// with a line and column for every invalid one.
@Suite(.timeLimit(.minutes(3))) struct TOMLCorpusTests {
    struct Entry: Decodable {
        var name: String
        var expected: String
        var utf8: Bool
        var document: String?
        var tomllib: String
    }

    static func corpus() async throws -> [Entry] {
        let python = try await PythonPeer.python()
        let cache = PythonPeer.packageRoot.appendingPathComponent(".build/toml-test-corpus").path
        let result = try await ProcessRunner.run(python, [PythonPeer.peersDirectory.appendingPathComponent("toml_test_corpus.py").path, cache])
        guard result.status == 0 else { throw PeerError("toml_test_corpus.py: \(result.stderrText)") }
        return try result.stdoutText.split(separator: "\n").map { try JSONDecoder().decode(Entry.self, from: Data($0.utf8)) }
    }

    @Test func everyDocumentReadsAsTomllibReadsItAndAsTheCorpusSays() async throws {
        let entries = try await Self.corpus()
        #expect(entries.count >= 600, "the corpus has \(entries.count) documents")
        var disagreements: [String] = []
        for entry in entries {
            // flapd reads its configuration as UTF-8 text and refuses a file that is not, before
            // the parser sees it; those documents are all meant to be refused.
            guard entry.utf8, let document = entry.document else {
                #expect(entry.expected == "invalid", "\(entry.name) is not UTF-8 yet meant to be valid")
                continue
            }
            let ours: String
            do {
                ours = TOMLParserTests.canonical(.table(try TOMLParser.parse(document)))
            } catch {
                #expect(error.line >= 1 && error.column >= 1 && !error.message.isEmpty, "\(entry.name): \(error)")
                ours = "invalid"
            }
            if ours != entry.tomllib { disagreements.append("\(entry.name): ours \(ours.prefix(200)), tomllib \(entry.tomllib.prefix(200))") }
            if (ours == "invalid") != (entry.expected == "invalid") { disagreements.append("\(entry.name): the corpus says \(entry.expected)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) documents:\n\(disagreements.joined(separator: "\n"))")
    }
}
