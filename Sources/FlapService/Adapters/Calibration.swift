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
        guard let data = FileManager.default.contents(atPath: path(panel: panel)),
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
