import FlapStorage
import FoundationEssentials
import Logging

/// What `presence.json` keeps across restarts: each person's last sighting (the latest only, no
/// history), whether they hide their presence, and the owner's name.
struct PresenceFile: Codable, Equatable {
    struct Kept: Codable, Equatable {
        var lastSeen: Date?
        var hidden: Bool?
    }

    /// By person: `owner` or a member's id.
    var people: [String: Kept] = [:]
    var ownerName: String?

    /// 101 people take about 10 KB.
    static let largest = 256 * 1024

    /// The file at `path`; empty when there is none, or (said once) when it is damaged.
    static func load(_ path: String, logger: Logger) -> PresenceFile {
        do { return try SmallFile.decode(PresenceFile.self, at: path, largest: largest, what: "the presence file's JSON") ?? PresenceFile() } catch {
            logger.error(
                "the presence file is damaged or too large: last sightings are forgotten and everyone is shown again until they hide",
                metadata: ["file": "\(path)", "problem": "\(error)"])
            return PresenceFile()
        }
    }

    func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        try DurableFile.write(encoder.encode(self), to: path, mode: 0o600)
    }
}
