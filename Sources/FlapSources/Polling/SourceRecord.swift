import FlapJSON
import FlapStorage
import FoundationEssentials

/// What is kept of a source across restarts: its last good content (the body as fetched, or a
/// webhook's values), the validators to ask for it again, and when it last arrived.
struct SourceRecord: Codable, Sendable, Equatable {
    var body: Data?
    var pushed: [String: JSONValue]?
    var etag: String?
    var lastModified: String?
    /// When its content last arrived or was confirmed unchanged (a 304).
    var updated: Date?
}

/// One file per source in flapd's state directory (`sources/NAME.json`), written whole so a
/// power cut leaves the old record or the new one.
struct SourceStore: Sendable {
    let directory: String?

    func load(_ name: String) -> SourceRecord? {
        // The body kept is at most the largest fetched, written as JSON numbers (up to 4 bytes a byte).
        guard let directory, let data = try? SmallFile.read("\(directory)/\(name).json", largest: 5 * SourceFetcher.largestBody + 64 * 1024)
        else { return nil }
        return try? JSONDecoder().decode(SourceRecord.self, from: data)
    }

    func save(_ name: String, _ record: SourceRecord) throws {
        guard let directory else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try DurableFile.write(try JSONEncoder().encode(record), to: "\(directory)/\(name).json")
    }
}
