import Foundation
import Testing

@testable import FlapCore

/// The version flapd reports: the package's, read from its file within a budget.
@Suite struct ReleaseTests {
    func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("version-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func thePackagesVersionIsItsFilesFirstLine() throws {
        #expect(Release.packaged(at: try file("0.1.0+git20261128.599.55d3358\n")) == "0.1.0+git20261128.599.55d3358")
        #expect(Release.packaged(at: try file("1.2.3")) == "1.2.3")
        #expect(Release.packaged(at: "/no/such/file") == nil)
        #expect(Release.packaged(at: try file("")) == nil)
        #expect(Release.packaged(at: try file("1.2.3 \u{1B}[2J\n")) == nil, "only what a Debian version is made of")
        #expect(Release.packaged(at: try file(String(repeating: "1", count: 65))) == nil, "at most 64 bytes")
        #expect(Release.packaged(at: try file(String(repeating: "1", count: 64) + "\nmore")) == String(repeating: "1", count: 64))
    }
}
