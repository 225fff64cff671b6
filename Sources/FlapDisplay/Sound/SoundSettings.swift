import FlapCore
import FoundationEssentials

/// How the clacks sound: from `[sound]` in flapd.toml.
public struct SoundSettings: Sendable, Equatable {
    /// Play clacks at all.
    public var enabled = true
    /// The ALSA PCM (`default`, `hw:1,0`, `plughw:CARD=Device`).
    public var device = "default"
    /// 0–100 %.
    public var volume = 70
    /// Whether the clacks are silenced.
    public var mute = false
    /// Hours during which the board moves silently, in local time.
    public var quietHours: QuietHours?
    /// A WAV file to use instead of the synthesized clack.
    public var samplePath: String?

    /// The defaults: volume 70, not muted, no quiet hours.
    public init() {}
}

/// Why the board is or is not making sound, for `/v1/status`.
public enum SoundState: Sendable, Equatable {
    case idle
    case playing
    case muted
    case quietHours(QuietHours)
    case disabled
    /// The device could not be used; the board moves silently.
    case unavailable(String)

    /// Its name, as the API and the page show it.
    public var name: String {
        switch self {
        case .idle: "idle"
        case .playing: "playing"
        case .muted: "muted"
        case .quietHours: "quiet hours"
        case .disabled: "disabled"
        case .unavailable: "unavailable"
        }
    }

    /// Why, for quiet hours and an unusable device.
    public var reason: String? {
        switch self {
        case .quietHours(let hours): "quiet hours \(hours)"
        case .unavailable(let why): why
        default: nil
        }
    }
}
