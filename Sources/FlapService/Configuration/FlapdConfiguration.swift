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
    /// The address both APIs listen on. Default loopback; `0.0.0.0` for the whole network.
    public var listen = "127.0.0.1"
    /// `[api]`: the native API's ports, keys and HTTPS names.
    public var api = APISettings()
    /// `[local_api]`: the Vestaboard-compatible Local API.
    public var localAPI = LocalAPISettings()
    /// `[messages]`: who may send, and how often.
    public var messages = SenderRules()
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

    public init() {}
}

/// `[api]`: the native API's ports, keys, HTTPS names and the hosts `/mcp` answers to.
public struct APISettings: Sendable, Equatable {
    /// The plain-HTTP port of the native API (`port`, `--api-port`).
    public var port = 8080
    /// The HTTPS port of the page, the native API and `/mcp` (`https_port`, `--https-port`).
    public var httpsPort = 8443
    /// Names (or addresses) the certificate flapd issues carries besides the machine's own
    /// (`tls_names`): a DNS alias, a VPN's name.
    public var tlsNames: [String] = []
    /// The user's own certificate and key (`tls_certificate_file`, `tls_key_file`); nil:
    /// flapd's own certificate authority issues one.
    public var tlsFiles: TLSFiles?
    /// The bearer key; nil: made on first start and kept in the state directory.
    public var key: Secret?
    /// The read-only viewer key (board, its picture and its events only); nil: made on first
    /// start and kept in the state directory.
    public var viewerKey: Secret?
    /// Host names the MCP endpoint answers to besides localhost's, the listen address and this
    /// machine's name (`allowed_hosts`): a name of a reverse proxy, a DNS alias.
    public var allowedHosts: [String] = []

    public init() {}
}

/// `[local_api]`: the Vestaboard-compatible Local API.
public struct LocalAPISettings: Sendable, Equatable {
    /// Its port (`port`, `--local-api-port`).
    public var port = 7000
    /// The enablement token; nil: made on first start and kept in the state directory.
    public var enablementToken: Secret?

    public init() {}
}

/// `[time]`.
public struct TimeSettings: Sendable, Equatable {
    /// `clock`: whether timed events decide by the clock's synchronisation (auto) or trust it as
    /// it is (a board with a real-time clock).
    public var clock = ClockTrust.Setting.auto

    public init() {}
}

/// A certificate chain and its key in PEM files, reloaded when they change.
public struct TLSFiles: Sendable, Equatable {
    public var certificate: String
    public var key: String
    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}

/// One panel: what every panel has, its kind (`driver`), and the kind's own settings.
public struct PanelSettings: Sendable, Equatable {
    public var id = "main"
    /// What drives the panel (`driver` in the configuration): one of ``PanelKinds/all``.
    var kind: any PanelKind = SimulatedPanelKind()
    /// The driver's device: a serial port for `chainlink` (default `/dev/splitflap0`), a spidev
    /// device for `spi` (default `/dev/spidev0.0`), a GPIO chip for `gpio` (default `gpiochip0`);
    /// or `simulated` for simulated hardware at that interface.
    public var device: String?
    /// The board's size; nil: flagship for simulated panels, from the controller's module count
    /// (shaped by ``rows`` or ``columns`` when given) for hardware.
    public var size: BoardSize?
    public var rows: Int?
    public var columns: Int?
    public var drum = Drum.vestaboard
    /// The Vestaboard it is (`model`), when the configuration says: a Note's flap 62 is a heart.
    public var model: BoardModel?
    public var flapPeriodMs = FlipPlanner.defaultFlapPeriodMs
    public var policy = PanelPolicy.latest
    /// When the board does not move for messages, and what it does then.
    public var quiet: BoardQuietHours?
    public var transition = TransitionStrategy.cascade
    /// How a simulated panel is shown.
    public var show = PanelShow.terminal
    /// The kind's own settings (``PanelKind/read(_:into:)``); nil when it has none or the panel
    /// was named by `--panel` alone.
    var options: (any PanelOptions)?

    public init() {}

    /// The driver's name.
    public var driver: String { kind.name }
    /// Whether it draws the board in light.
    public var isLED: Bool { kind.drawsInLight }

    /// The kind's own settings, as the kind's type.
    func options<Options: PanelOptions>(_ type: Options.Type) -> Options? { options as? Options }

    public static func == (a: PanelSettings, b: PanelSettings) -> Bool {
        let sameOptions =
            switch (a.options, b.options) {
            case (nil, nil): true
            case (let x?, let y?): x.isEqual(to: y)
            default: false
            }
        return a.id == b.id && a.kind.name == b.kind.name && a.device == b.device && a.size == b.size && a.rows == b.rows
            && a.columns == b.columns && a.drum == b.drum && a.model == b.model && a.flapPeriodMs == b.flapPeriodMs && a.policy == b.policy
            && a.quiet == b.quiet && a.transition == b.transition && a.show == b.show && sameOptions
    }
}

/// A secret given directly (flags, tests) or as a file to read (systemd's LoadCredential).
/// Its value is never printed: `description` shows only where it comes from.
public enum Secret: Sendable, Equatable, CustomStringConvertible {
    case value(String)
    case file(String)

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

/// A real Vestaboard as a panel: `[[panel]] driver = "vestaboard"`.
public struct VestaboardSettings: Sendable, Equatable {
    /// The board's Local API, the Cloud API or the older Read/Write API.
    public var api = API.local
    /// Where: the board's address for `local` (`http://vestaboard.local:7000`); the service's for the others.
    public var url: String?
    /// The file holding the Local API key, the Cloud API token or the Read/Write key.
    public var credentialFile: String?
    public var strategy = DeliveryStrategy.queued
    /// `conflict-aware`: refuse or overwrite a message flapd did not write.
    public var onConflict = ConflictChoice.refuse
    /// An array of Notes shown as one board, each over its own Local API (`notes`); empty for
    /// one board at ``url``.
    public var notes: [NoteAccess] = []
    /// How the Notes of an array stand: in a row (3 × 15n) or a column (3n × 15).
    public var arrange = NoteArrangement.row

    public init() {}

    /// One Note of an array: its Local API and the file holding its key.
    public struct NoteAccess: Sendable, Equatable {
        public var url: String
        public var keyFile: String
    }

    /// A Vestaboard's APIs, by their names in flapd.toml.
    public enum API: String, Sendable, CaseIterable {
        case local, cloud, rw

        /// As people call it: "Local", "Cloud", "Read/Write".
        public var title: String {
            switch self {
            case .local: "Local"
            case .cloud: "Cloud"
            case .rw: "Read/Write"
            }
        }

        /// What its credential is called.
        public var credential: String { self == .cloud ? "Vestaboard Cloud API token" : "Vestaboard \(title)\(self == .rw ? "" : " API") key" }
    }
}

/// A board read as a message source: `[[mirror]]`.
public struct MirrorSettings: Sendable, Equatable {
    public var id = "mirror1"
    public var board: VestaboardSettings
    /// How often the board is read (at least 15 s for the cloud).
    public var intervalSeconds = 30
    /// The sender its message is filed under.
    public var sender = "vestaboard"

    public init(board: VestaboardSettings) { self.board = board }
}
