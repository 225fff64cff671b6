import FlapMQTTClient
import FoundationEssentials

/// flapd's MQTT connection and identity: `[mqtt]` in flapd.toml, or `--mqtt URL --device-id ID --group NAME`.
public struct MQTTSettings: Sendable, Equatable {
    /// The broker's host.
    public var host: String
    /// The broker's port.
    public var port: Int
    /// `mqtts://` URLs use TLS with `caFile` (default: the system's CA bundle).
    public var tls: Bool = false
    /// A CA file to trust the broker by, instead of the system's.
    public var caFile: String?
    /// This client's certificate, for a broker that asks for one.
    public var certificateFile: String?
    /// Its key.
    public var keyFile: String?
    /// The user name at the broker.
    public var username: String?
    /// A file holding the password (for systemd's LoadCredential); never logged.
    public var passwordFile: String?
    /// This display's name in topics: `vestawidget/<device>/…`.
    public var deviceID: String
    /// Groups it belongs to: `vestawidget/group/<group>/message` reaches it.
    public var groups: [String] = []
    /// The first level of every topic.
    public var baseTopic = "vestawidget"
    /// MQTT 5 unless the broker speaks only 3.1.1.
    public var protocolVersion: MQTTOptions.ProtocolVersion = .v5
    /// Announce the display to Home Assistant (MQTT discovery under `homeassistant/`).
    public var homeAssistant = true
    /// Seconds between packets before the client pings the broker.
    public var keepAlive = 30

    /// The broker at `host`:`port`, this display as `deviceID`, the rest as their defaults.
    public init(host: String, port: Int, deviceID: String) {
        self.host = host
        self.port = port
        self.deviceID = deviceID
    }

    /// Settings from `mqtt://host[:port]` or `mqtts://host[:port]`.
    public init(url: String, deviceID: String) throws(MQTTError) {
        let address = try MQTTAddress(url: url)
        self.init(host: address.host, port: address.port, deviceID: deviceID)
        tls = address.tls
        username = address.username
    }

    /// The host name, the default device id.
    public static var defaultDeviceID: String {
        ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "flapd"
    }

    /// Problems with the device id and groups as topic levels.
    public func validate() -> [String] {
        var problems: [String] = []
        for (name, value) in [("device id", deviceID)] + groups.map({ ("group", $0) }) {
            if value.isEmpty || value.contains(where: { "/+#".contains($0) }) {
                problems.append("\(name) \(value.debugDescription) must be a non-empty topic level without / + #")
            }
        }
        return problems
    }
}

extension MQTTSettings {
    /// Options for a connection to this broker as `clientID`: protocol, keepalive, credentials, TLS.
    public func options(clientID: String, password: String?) -> MQTTOptions {
        var options = MQTTOptions(host: host, port: port, clientID: clientID)
        options.protocolVersion = protocolVersion
        options.keepAlive = keepAlive
        options.username = username
        options.password = password
        if tls {
            options.tls = .init(caFile: caFile ?? "/etc/ssl/certs/ca-certificates.crt", certificateFile: certificateFile, keyFile: keyFile)
        }
        return options
    }
}
