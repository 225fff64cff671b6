import FlapCore
import FlapDisplay
import FlapHardware
import FlapHeartRate
import FlapJSON
import FlapMQTT
import FlapMQTTClient
import FlapMessaging
import FlapRooms
import FlapSources
import FlapTOML
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Wematch

/// `[[mirror]]`: a Vestaboard whose board is copied into the inbox.
extension ConfigurationParser {
    /// One `[[mirror]]`: a board read as a message source.
    static func parseMirror(_ reader: inout TableReader, index: Int) -> MirrorSettings {
        defer { reader.finish() }
        var mirror = MirrorSettings(board: parseBoardAccess(&reader))
        mirror.id = reader.string("id") ?? "mirror\(index + 1)"
        mirror.sender = reader.string("sender") ?? "vestaboard"
        if let seconds = reader.int("interval_seconds") {
            let least = mirror.board.api == .local ? 1 : 15
            if seconds < least {
                let allowed = mirror.board.api == .local ? "at least 1" : "at least 15 for the cloud (its own limit)"
                reader.fail("interval_seconds", .outOfRange(given: "\(seconds)", allowed: allowed))
            }
            mirror.intervalSeconds = max(least, seconds)
        } else {
            mirror.intervalSeconds = mirror.board.api == .local ? 10 : 30
        }
        return mirror
    }
}

/// A board read as a message source: `[[mirror]]`.
public struct MirrorSettings: Sendable, Equatable {
    /// Its id, in the log and the status.
    public var id = "mirror1"
    /// The board read, and how.
    public var board: VestaboardSettings
    /// How often the board is read (at least 15 s for the cloud).
    public var intervalSeconds = 30
    /// The sender its message is filed under.
    public var sender = "vestaboard"

    /// A mirror of `board`, the rest as their defaults.
    public init(board: VestaboardSettings) { self.board = board }
}
