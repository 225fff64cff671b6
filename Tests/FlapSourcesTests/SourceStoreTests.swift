import Foundation
import Testing

@testable import FlapSources

/// What is kept of a source across restarts is read within its budget.
@Suite struct SourceStoreTests {
    @Test func aRecordIsKeptAndOneOverItsBudgetIsNotRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sources-\(UUID().uuidString)").path
        let store = SourceStore(directory: directory)
        let record = SourceRecord(body: Data("BEGIN:VCALENDAR".utf8), etag: "\"v1\"", updated: Date(timeIntervalSince1970: 1_800_000_000))
        try store.save("calendar", record)
        #expect(store.load("calendar") == record)
        // The same record padded past the budget (a 4 MB body in base64, twice over): not read.
        let path = directory + "/calendar.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try (text + String(repeating: " ", count: SourceStore.largestRecord)).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(store.load("calendar") == nil)
    }
}
