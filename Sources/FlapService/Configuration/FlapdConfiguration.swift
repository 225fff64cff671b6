import FlapCore
import FlapDisplay
import FlapHardware
import FlapHeartRate
import FlapMQTT
import FlapMessaging
import FlapRooms
import FlapSources
import FlapTime
import FlapVestaboard

/// Everything flapd runs from: `/etc/flapd/flapd.toml`, `--config`, or `--simulate`'s defaults,
/// with command-line flags applied on top.
public struct FlapdConfiguration: Sendable, Equatable {
    /// Where the inbox, keys and panel state live; nil: `$STATE_DIRECTORY` (systemd), else
    /// `$XDG_STATE_HOME/flapd`, else `~/.local/state/flapd`.
    public var stateDirectory: String?
    /// Where the device files are that "Find my board" lists: `/dev`; a folder laid out as it
    /// is, for tests. Not a key of flapd.toml.
    public var devices = "/dev"
    /// The address both APIs listen on. Default loopback; `0.0.0.0` for the whole network.
    public var listen = "127.0.0.1"
    /// `[api]`: the native API's ports, keys and HTTPS names.
    public var api = APISettings()
    /// `[local_api]`: the Vestaboard-compatible Local API.
    public var localAPI = LocalAPISettings()
    /// `[messages]`: who may send, and how often.
    public var messages = SenderRules()
    /// The panels, the first the one messages are checked against.
    public var panels: [PanelSettings] = [PanelSettings()]
    /// The clacks of the first panel.
    public var sound = SoundSettings()
    /// The MQTT broker and this display's identity there; nil: no MQTT.
    public var mqtt: MQTTSettings?
    /// trace, debug, info, notice, warning, error, critical.
    public var logLevel = "info"
    /// Heart-rate sources (`[[sensor]]`); none by default (`--simulate` adds a simulated one).
    public var sensors: [SensorSettings] = []
    /// Boards read as message sources (`[[mirror]]`).
    public var mirrors: [MirrorSettings] = []
    /// The Wematch room this kiosk joins (`[room]`, `--room`); it needs `mqtt`.
    public var room: RoomSettings?
    /// `[time]`: whether the clock can be trusted.
    public var time = TimeSettings()
    /// `[[schedule]]`: recurring messages, read-only over the API.
    public var schedules: [ScheduleSettings] = []
    /// Content that fills boards by itself (`[[source]]`).
    public var sources: [SourceSettings] = []
    /// Boards shown when a source's condition holds (`[[trigger]]`).
    public var triggers: [TriggerSettings] = []
    /// Where the board is (`[location]`), for schedules that follow the sun.
    public var location: GeoLocation?

    /// The defaults: one simulated panel, the API on 127.0.0.1:8080, no MQTT.
    public init() {}
}

/// A secret given directly (flags, tests) or as a file to read (systemd's LoadCredential).
/// Its value is never printed: `description` shows only where it comes from.
public enum Secret: Sendable, Equatable, CustomStringConvertible {
    case value(String)
    case file(String)

    /// Where it comes from, never the secret.
    public var description: String {
        switch self {
        case .value: "(given directly)"
        case .file(let path): path
        }
    }
}

extension FlapdConfiguration {
    /// What is wrong with `listen` as an address to listen on, or nil. A port written into it
    /// would fail only when the server binds, long after the configuration was accepted.
    public static func listenProblem(_ listen: String) -> String? {
        if listen.isEmpty { return "an empty address; use 127.0.0.1, 0.0.0.0 or an address of this machine" }
        let colons = listen.filter { $0 == ":" }.count
        if colons == 1 { return "\(listen.debugDescription) has a port in it; give the address alone and the ports as api port / local API port" }
        if colons == 0, !listen.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) {
            return "\(listen.debugDescription) is not an address or host name"
        }
        return nil
    }
}
