import Foundation
import Testing

/// A file holds one idea and stays short: none in Sources runs past 300 lines but the generated
/// fold table.
@Suite struct FileLengthTests {
    static let longest = 300
    static let generated: Set<String> = ["Sources/FlapCore/Layout/FoldTable.swift"]

    @Test func noSourceFileIsLongerThanThreeHundredLines() throws {
        let files = try DocumentationTests.swiftFiles().filter { $0.hasPrefix("Sources/") && !Self.generated.contains($0) }
        #expect(files.count > 300, "the sources were not found")
        for file in files {
            let text = try String(contentsOf: LayeringTests.root.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            #expect(lines <= Self.longest, "\(file) has \(lines) lines; split it where its parts are (an extension per part)")
        }
    }
}
