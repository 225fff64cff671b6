import FlapCore
import FlapStorage
import FoundationEssentials

/// The sound as changed over the API (mute, volume, quiet hours), kept in `sound.json` in the
/// state directory so a restart keeps what a person chose on the page; the configuration's
/// `[sound]` is the starting point until then. Written whole, then renamed.
public struct SavedSound: Sendable {
    /// The state directory the settings are kept in.
    public let directory: String

    /// The settings kept in `directory`.
    public init(directory: String) { self.directory = directory }

    struct File: Codable {
        var mute: Bool
        var volume: Int
        var quietHours: String?
    }

    var path: String { directory + "/sound.json" }

    /// `settings` with the saved choices over them (an unreadable file changes nothing).
    public func applied(to settings: SoundSettings) -> SoundSettings {
        guard let data = try? SmallFile.read(path, largest: 64 * 1024).flatMap({ $0 }), let file = try? JSONDecoder().decode(File.self, from: data)
        else {
            return settings
        }
        var settings = settings
        settings.mute = file.mute
        settings.volume = max(0, min(100, file.volume))
        settings.quietHours = file.quietHours.flatMap(QuietHours.init)
        return settings
    }

    /// Keeps `settings` for the next start.
    public func save(_ settings: SoundSettings) throws {
        let data = try JSONEncoder().encode(File(mute: settings.mute, volume: settings.volume, quietHours: settings.quietHours?.description))
        try DurableFile.write(data, to: path)
    }
}
