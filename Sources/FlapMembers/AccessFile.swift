import FlapStorage
import FoundationEssentials
import Logging

/// What `access.json` holds (mode 0600): members, and the digests of their invitations, keys and
/// sessions, and of the owner's sessions and pairing links. Never a secret itself.
struct AccessFile: Codable, Equatable {
    struct Stored: Codable, Equatable {
        var digest: String
        /// nil: the owner's.
        var member: String?
        /// When an invitation stops working; for a key, when it was made; for a session, its last use.
        var at: Date
    }

    var members: [Member] = []
    var invitations: [Stored] = []
    var keys: [Stored] = []
    var sessions: [Stored] = []
    /// Members removed lately (absent in files of an earlier flapd).
    var removed: [Removal]? = []

    /// The largest file read: 100 members with their keys and 512 sessions take about 150 KB.
    static let largest = 1 << 20

    /// The file at `path`; empty when there is none. One that is damaged, too large or holds
    /// entries that are not digests is said once, and what can be used of it is kept.
    static func load(_ path: String, logger: Logger) -> AccessFile {
        var file: AccessFile
        do { file = try SmallFile.decode(AccessFile.self, at: path, largest: largest, what: "the members file's JSON") ?? AccessFile() } catch {
            logger.error(
                "the members file is damaged or too large: members must be invited again and browsers sign in again",
                metadata: ["file": "\(path)", "problem": "\(error)"])
            return AccessFile()
        }
        let wellFormed = { (entry: Stored) in entry.digest.utf8.count == 64 && entry.digest.allSatisfy(\.isHexDigit) }
        let before = file.invitations.count + file.keys.count + file.sessions.count
        file.invitations = file.invitations.filter(wellFormed)
        file.keys = file.keys.filter(wellFormed)
        file.sessions = file.sessions.filter(wellFormed)
        if file.invitations.count + file.keys.count + file.sessions.count < before {
            logger.warning("the members file held entries that are not digests; they are ignored", metadata: ["file": "\(path)"])
        }
        return file
    }

    /// Takes the owner's sessions of an earlier flapd (`sessions.json`: `{"id": end}`) as
    /// digests; whether there were any.
    mutating func takeOver(_ legacy: String, now: Date) -> Bool {
        guard let data = try? SmallFile.read(legacy, largest: Self.largest), let stored = try? JSONDecoder().decode([String: Double].self, from: data)
        else { return false }
        for (id, end) in stored where AccessToken.wellFormed(id) && end > now.timeIntervalSince1970 {
            sessions.append(.init(digest: AccessToken.digest(id), member: nil, at: now))
        }
        return true
    }

    func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        try DurableFile.write(encoder.encode(self), to: path, mode: 0o600)
    }
}
