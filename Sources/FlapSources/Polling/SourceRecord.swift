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

    /// The body kept is at most the largest fetched, in base64 (4 bytes for 3, a slash escaped
    /// as two): twice that and room for the rest.
    static let largestRecord = 2 * SourceFetcher.largestBody + 64 * 1024

    func load(_ name: String) -> SourceRecord? {
        guard let directory, let data = try? SmallFile.read("\(directory)/\(name).json", largest: Self.largestRecord)
        else { return nil }
        return try? JSONDecoder().decode(SourceRecord.self, from: data)
    }

    func save(_ name: String, _ record: SourceRecord) throws {
        guard let directory else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try DurableFile.write(try JSONEncoder().encode(record), to: "\(directory)/\(name).json")
    }
}
