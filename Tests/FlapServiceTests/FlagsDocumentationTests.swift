import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import FlapService

/// docs/configuration.md's table of flags is flapd's: a flag added to `Flapd` without a row fails
/// here, named.
@Suite struct FlagsDocumentationTests {
    @Test func everyFlagOfFlapdHasARowInConfigurationDoc() throws {
        let doc = try String(contentsOf: PythonPeer.packageRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| `--") }.map { $0.split(separator: "|")[0] }
        let flags = Self.flags(in: Flapd.helpMessage(columns: 400))
        #expect(flags.count > 20, "the help's flags were not read: \(flags)")
        for flag in flags where !["--help", "--version"].contains(flag) {
            #expect(
                rows.contains { $0.contains("`\(flag)`") || $0.contains("`\(flag) ") || $0.contains("`\(flag)=") },
                "flapd \(flag) has no row in docs/configuration.md's table of flags")
        }
    }

    /// `--panel`'s row names every kind of panel, as its help does (made from ``PanelKinds/all``).
    @Test func thePanelFlagsRowNamesEveryKind() throws {
        let doc = try String(contentsOf: PythonPeer.packageRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let row = try #require(doc.split(separator: "\n").first { $0.hasPrefix("| `--panel ") })
        let help = Flapd.helpMessage(columns: 400)
        for name in PanelKinds.names {
            #expect(row.contains("`\(name)`") || row.contains("`\(name)="), "docs/configuration.md's --panel row does not name \(name)")
            #expect(help.contains(name), "--panel's help does not name \(name)")
        }
    }

    /// The long options a help text lists, in its order.
    static func flags(in help: String) -> [String] {
        var seen: [String] = []
        for word in help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "(" || $0 == ")" })
        where word.hasPrefix("--") && word.count > 2 {
            let flag = String(word.prefix { $0 == "-" || $0.isLetter || $0.isNumber })
            if !seen.contains(flag) { seen.append(flag) }
        }
        return seen
    }
}
