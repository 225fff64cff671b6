import FlapStorage
import FoundationEssentials

/// Each directly driven module's offset: the steps from its home sensor's edge to the middle of
/// flap 0, kept per panel in `calibration-<panel>.json` in the state directory (written whole,
/// then renamed, so a power cut leaves the old file or the new one). `flapctl calibrate` sets
/// them.
struct Calibration: Sendable {
    let directory: String

    struct File: Codable { var offsets: [Int] }

    func path(panel: String) -> String { directory + "/calibration-\(panel).json" }

    /// The saved offsets (empty when never calibrated; an unreadable file is ignored, logged by the caller).
    func offsets(panel: String) -> [Int] {
        // A few numbers a module: even a wall of thousands is far under a megabyte.
        guard let data = try? SmallFile.read(path(panel: panel), largest: 1 << 20).flatMap({ $0 }),
            let file = try? JSONDecoder().decode(File.self, from: data)
        else { return [] }
        return file.offsets
    }

    /// Saves `offsets` for `panel`.
    func save(_ offsets: [Int], panel: String) throws {
        let data = try JSONEncoder().encode(File(offsets: offsets))
        try DurableFile.write(data, to: path(panel: panel))
    }
}
