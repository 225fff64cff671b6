import Foundation

/// How the clacks sound: from `[sound]` in flapd.toml.
public struct SoundSettings: Sendable, Equatable {
    /// Play clacks at all.
    public var enabled = true
    /// The ALSA PCM (`default`, `hw:1,0`, `plughw:CARD=Device`).
    public var device = "default"
    /// 0–100 %.
    public var volume = 70
    public var mute = false
    /// Hours during which the board moves silently, in local time.
    public var quietHours: QuietHours?
    /// A WAV file to use instead of the synthesized clack.
    public var samplePath: String?

    public init() {}
}

/// A daily span of local time, such as 22:00–07:00 (it may wrap past midnight).
public struct QuietHours: Sendable, Equatable, CustomStringConvertible {
    /// Minutes after midnight.
    public var start: Int
    public var end: Int

    /// Parses `HH:MM-HH:MM`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1]), start != end else { return nil }
        self.start = start
        self.end = end
    }

    static func minutes(_ text: String) -> Int? {
        let hm = text.split(separator: ":")
        guard hm.count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return h * 60 + m
    }

    /// Whether `date` falls in the span, in `calendar`'s time zone (local time by default).
    public func contains(_ date: Date, calendar: Calendar = .current) -> Bool {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        return start < end ? (start..<end).contains(minute) : (minute >= start || minute < end)
    }

    public var description: String {
        String(format: "%02d:%02d-%02d:%02d", start / 60, start % 60, end / 60, end % 60)
    }
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

    public var reason: String? {
        switch self {
        case .quietHours(let hours): "quiet hours \(hours)"
        case .unavailable(let why): why
        default: nil
        }
    }
}
