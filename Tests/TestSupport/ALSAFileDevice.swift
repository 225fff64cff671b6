import Foundation

/// An ALSA device named `clacks` that writes what it plays to a raw file (S16_LE as flapd sends
/// it), for a flapd given `--sound-device clacks` and `environment`: no sound card needed, and
/// the file shows whether, and what, it played. The file appears when the device is closed.
public struct ALSAFileDevice: Sendable {
    public let raw: String
    /// ALSA_CONFIG_PATH, replacing the system's ALSA configuration for that process only.
    public let environment: [String: String]

    public init(in directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        raw = directory + "/clacks.raw"
        try "pcm.clacks { type file slave { pcm { type null } } file \"\(raw)\" format \"raw\" }\n"
            .write(toFile: directory + "/asound.conf", atomically: true, encoding: .utf8)
        environment = ["ALSA_CONFIG_PATH": directory + "/asound.conf"]
    }
}
