import Foundation
import Testing

@testable import FlapTOML

/// The writer's documents read back as the tables they were written from: every valid document
/// of the toml-test corpus and of the parser's own tests, read, written and read again.
@Suite(.timeLimit(.minutes(3))) struct TOMLWriterTests {
    @Test(arguments: TOMLParserTests.valid) func aWrittenTableReadsBackAsItself(_ document: String) throws {
        let table = try TOMLParser.parse(document)
        let written = TOMLWriter.document(table)
        #expect(Self.canonical(.table(try TOMLParser.parse(written))) == Self.canonical(.table(table)), "written as:\n\(written)")
    }

    @Test func everyValidCorpusDocumentReadsBackAsItself() async throws {
        var differences: [String] = []
        var checked = 0
        for entry in try await TOMLCorpusTests.corpus() where entry.expected == "valid" && entry.utf8 {
            guard let document = entry.document, let table = try? TOMLParser.parse(document) else { continue }
            checked += 1
            let written = TOMLWriter.document(table)
            guard let again = try? TOMLParser.parse(written) else {
                differences.append("\(entry.name): not read back:\n\(written)")
                continue
            }
            if Self.canonical(.table(again)) != Self.canonical(.table(table)) {
                differences.append("\(entry.name): read back otherwise:\n\(written)")
            }
        }
        #expect(checked >= 150, "only \(checked) corpus documents were read")
        #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n\n"))")
    }

    @Test func aPersonReadsTablesUnderTheirHeaders() throws {
        var panel = TOMLTable()
        panel["id"] = .string("wall")
        panel["rows"] = .integer(3)
        var options = TOMLTable()
        options["baud"] = .integer(57600)
        panel["options"] = .table(options)
        var sound = TOMLTable()
        sound["volume"] = .integer(40)
        var root = TOMLTable()
        root["listen"] = .string("0.0.0.0")
        root["panel"] = .array([.table(panel)])
        root["sound"] = .table(sound)
        #expect(
            TOMLWriter.document(root) == """
                listen = "0.0.0.0"

                [sound]
                volume = 40

                [[panel]]
                id = "wall"
                rows = 3

                [panel.options]
                baud = 57600

                """)
    }

    @Test func stringsKeepEveryCharacter() throws {
        var root = TOMLTable()
        let text = "a \"quote\", a \\ backslash,\n\t\u{01}\u{7F} é ♥"
        root["odd key.with dot"] = .string(text)
        #expect(try TOMLParser.parse(TOMLWriter.document(root))["odd key.with dot"] == .string(text))
    }

    /// A value with its tables' keys sorted: two tables with the same keys and values are the
    /// same whatever order their keys were written in. NaN is written as itself.
    static func canonical(_ value: TOMLValue) -> String {
        switch value {
        case .table(let table): "{" + table.keys.sorted().map { "\($0.debugDescription):\(canonical(table[$0]!))" }.joined(separator: ",") + "}"
        case .array(let elements): "[" + elements.map(canonical).joined(separator: ",") + "]"
        case .float(let number) where number.isNaN: "nan"
        default: "\(value)"
        }
    }
}
