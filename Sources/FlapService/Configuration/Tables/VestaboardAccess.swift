import FlapVestaboard

/// How flapd reaches a real Vestaboard (a panel's `api`, `url`, `key_file` or `token_file`, and
/// a mirror's): read here for both.
extension ConfigurationParser {
    /// Which API, where, and the file holding its credential.
    static func parseBoardAccess(_ reader: inout TableReader) -> VestaboardSettings {
        var settings = VestaboardSettings()
        settings.api = reader.choice("api") ?? settings.api
        settings.url = reader.string("url")
        let key = reader.string("key_file"), token = reader.string("token_file")
        switch settings.api {
        case .cloud:
            if key != nil { reader.fail("key_file", .elsewhere("the Cloud API takes a token: token_file = \"/etc/flapd/vestaboard-token\"")) }
            settings.credentialFile = token
        case .local, .rw:
            if token != nil {
                reader.fail("token_file", .elsewhere("the \(settings.api.title) API takes a key: key_file = \"/etc/flapd/vestaboard-key\""))
            }
            settings.credentialFile = key
        }
        if settings.credentialFile == nil {
            reader.fail(
                settings.api == .cloud ? "token_file" : "key_file",
                settings.api == .cloud
                    ? "a Cloud API token is needed (the Vestaboard web app, Developer section), in a file: token_file = \"/etc/flapd/vestaboard-token\""
                    : settings.api == .local
                        ? "the board's Local API key is needed, in a file: key_file = \"/etc/flapd/vestaboard-key\" (docs/vestaboard.md)"
                        : "the Read/Write key is needed (the Vestaboard app, Settings), in a file: key_file = \"/etc/flapd/vestaboard-key\"")
        }
        if settings.api == .local, settings.url == nil {
            reader.fail("url", .isNeeded("the board's Local API address", example: "url = \"http://vestaboard.local:7000\""))
        }
        if let url = settings.url, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            reader.fail("url", .notAnHTTPAddress(url))
        }
        return settings
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
    /// How boards are written: queued, or checked for others' messages first.
    public var strategy = DeliveryStrategy.queued
    /// `conflict-aware`: refuse or overwrite a message flapd did not write.
    public var onConflict = ConflictChoice.refuse
    /// An array of Notes shown as one board, each over its own Local API (`notes`); empty for
    /// one board at ``url``.
    public var notes: [NoteAccess] = []
    /// How the Notes of an array stand: in a row (3 × 15n) or a column (3n × 15).
    public var arrange = NoteArrangement.row

    /// The defaults: the Local API, queued.
    public init() {}

    /// One Note of an array: its Local API and the file holding its key.
    public struct NoteAccess: Sendable, Equatable {
        /// The Note's Local API address.
        public var url: String
        /// The file holding its Local API key.
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
