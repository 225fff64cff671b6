import FoundationEssentials

/// A broker's address as people write it: `mqtt://host[:port]` (1883) or `mqtts://host[:port]`
/// (TLS, 8883), with an optional user name.
public struct MQTTAddress: Sendable, Equatable {
    /// The broker's host.
    public var host: String
    /// Its port (1883, or 8883 with TLS, unless given).
    public var port: Int
    /// Whether it is reached over TLS (`mqtts://`).
    public var tls: Bool
    /// The user name in the URL, if any.
    public var username: String?

    /// The address in `url`, or what is wrong with it.
    public init(url: String) throws(MQTTError) {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme, ["mqtt", "mqtts"].contains(scheme),
            let host = parsed.host, !host.isEmpty
        else {
            throw MQTTError("\(url) is not an MQTT address such as mqtt://broker.local:1883 or mqtts://broker.local:8883")
        }
        self.host = host
        tls = scheme == "mqtts"
        port = parsed.port ?? (tls ? 8883 : 1883)
        username = parsed.user
    }
}
