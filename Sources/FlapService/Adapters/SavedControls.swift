import FlapCore
import FlapDisplay
import FlapHTTP
import FlapMQTT
import FlapMessaging
import FlapStorage
import FoundationEssentials
import Synchronization

/// `board-controls.json`: the pause and the transition as last chosen. Written whole, then renamed.
struct SavedControls: Sendable {
    let directory: String

    struct File: Codable {
        var paused: Bool
        var transition: String?
    }

    var path: String { directory + "/board-controls.json" }

    func load() -> File? {
        (try? SmallFile.read(path, largest: 64 * 1024)).flatMap { $0 }.flatMap { try? JSONDecoder().decode(File.self, from: $0) }
    }

    func save(_ file: File) throws {
        try DurableFile.write(try JSONEncoder().encode(file), to: path)
    }
}
